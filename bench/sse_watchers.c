/* sse_watchers: thousands of Server-Sent-Event clients on one epoll loop, for bench/live_streams.py.
 *
 * Like wrk, a load's own client should cost next to nothing: the Python watchers (asyncio
 * protocols, bench/sse_client.py) spent about 12 µs of CPU per delivery on the same 2 cores as
 * the server they measure. Here a delivery is one read() and a memmem() or two.
 *
 * Usage: sse_watchers HOST PORT. Commands on stdin, one answer line per command on stdout:
 *   open I PATH   watcher I (0-based) follows PATH from its start (no answer; batch them)
 *   move I PATH   the same for a watcher that has one: its connection is dropped, it reconnects
 *   status        -> open O refused R connecting C ended E
 *   delays S U    -> "delays K", then one line of K fan-out delays in ms (arrival minus the event's
 *                    "at") of the arrivals within [S, U] (wall clock ms)
 *   lags S U      -> "lags K", then one line: how late this loop ran its 20 ms tick, within [S, U]
 *   cpu           -> cpu SECONDS (user + system CPU of this process)
 *   close         -> closed: every connection closed; the watchers, counts and delays forgotten
 *   retry MS      a refused watcher (any status but 200 and 204) tries again MS ms later, as a
 *                 client that honours Retry-After would (0, the default: it stops)
 *   drop          every open stream's connection is cut at once: each reconnects 50 ms later
 *                 with Last-Event-ID (a reconnect storm)
 *   refusals      -> refusals, then the count of each status but 200 received ("503:12 429:3")
 *   quit          exits (so does the end of stdin: the bench is gone)
 * HTTP/1.0 requests: the server sends the stream unchunked. As an EventSource (and the Python
 * watcher) does, a watcher reconnects 50 ms after a stream that has not ended is cut, with
 * Last-Event-ID; it stops on any status but 200 (counted as refused; unless `retry`) and after `event: end`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define RECONNECT_MS 50
#define TICK_MS 20
#define MAX_TAIL (4 << 20) /* a frame is < 64 KB: a longer one is a stream gone wrong, dropped */
#define STDIN_TAG UINT64_MAX
#define TICK_TAG (UINT64_MAX - 1)

enum state { IDLE, CONNECTING, HEAD, STREAMING, WAITING };

typedef struct {
    char *path;
    int fd;
    uint32_t gen;          /* tags the socket's epoll events: those of a closed one are ignored */
    enum state state;
    long long last_id;     /* -1: none yet */
    int ended;
    char *tail;            /* bytes after the last complete frame (or of an incomplete head) */
    size_t len, cap;
    double due;            /* WAITING: monotonic ms of the reconnect */
} watcher;

typedef struct { double at; float value; } sample;
typedef struct { sample *v; size_t n, cap; } samples;
typedef struct { size_t i; double due; } pending;
/* Watchers waiting to connect again, in the order they fall due (each of a queue waits as long). */
typedef struct { pending *v; size_t head, len, cap; } waitq;

static watcher *ws;
static size_t nws, capws;
static samples delays, lags;
static long refused;
static long by_status[600];
static double retry_ms; /* > 0: a refused watcher tries again this much later */
static int ep;
static const char *host;
static struct sockaddr_storage addr;
static socklen_t addrlen;
static waitq reconnects; /* each waits RECONNECT_MS */
static waitq retries;    /* refused: each waits retry_ms */

static void die(const char *what) { perror(what); exit(1); }

static void *grow(void *p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return p;
    size_t cap2 = *cap ? *cap : 1024;
    while (cap2 < need) cap2 *= 2;
    p = realloc(p, cap2 * size);
    if (!p) die("realloc");
    *cap = cap2;
    return p;
}

static double now_ms(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void add(samples *s, double at, double value) {
    s->v = grow(s->v, &s->cap, s->n + 1, sizeof *s->v);
    s->v[s->n++] = (sample){at, (float)value};
}

/* ---- one watcher's connection ------------------------------------------------------------- */

static void disconnect(watcher *w) {
    if (w->fd >= 0) close(w->fd); /* close() also takes the socket off the epoll set */
    w->fd = -1;
    w->gen++;
    free(w->tail);
    w->tail = NULL;
    w->len = w->cap = 0;
}

static void stop(watcher *w) {
    disconnect(w);
    w->state = IDLE;
}

static void wait_in(waitq *q, size_t i, double wait_ms) {
    watcher *w = &ws[i];
    disconnect(w);
    w->state = WAITING;
    w->due = now_ms(CLOCK_MONOTONIC) + wait_ms;
    if (q->head == q->len) q->head = q->len = 0;
    q->v = grow(q->v, &q->cap, q->len + 1, sizeof *q->v);
    q->v[q->len++] = (pending){i, w->due};
}

static void reconnect_later(size_t i) { wait_in(&reconnects, i, RECONNECT_MS); }
static void retry_later(size_t i) { wait_in(&retries, i, retry_ms); }

static uint64_t tag(size_t i) { return (uint64_t)ws[i].gen << 32 | i; }

static void start(size_t i) {
    watcher *w = &ws[i];
    disconnect(w);
    int fd = socket(addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) { reconnect_later(i); return; } /* out of files for now: try again */
    w->fd = fd;
    w->state = CONNECTING;
    struct epoll_event ev = {.events = EPOLLOUT, .data.u64 = tag(i)};
    if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) die("epoll_ctl");
    /* Non-blocking: EPOLLOUT says when it is done (also when it succeeded at once). */
    if (connect(fd, (struct sockaddr *)&addr, addrlen) < 0 && errno != EINPROGRESS) reconnect_later(i);
}

static void connected(size_t i) {
    watcher *w = &ws[i];
    int err = 0;
    socklen_t n = sizeof err;
    if (getsockopt(w->fd, SOL_SOCKET, SO_ERROR, &err, &n) < 0 || err) { reconnect_later(i); return; }
    char req[8192], last[64] = "";
    if (w->last_id >= 0) snprintf(last, sizeof last, "Last-Event-ID: %lld\r\n", w->last_id);
    int len = snprintf(req, sizeof req, "GET %s HTTP/1.0\r\nHost: %s\r\nAccept: text/event-stream\r\n%s\r\n",
                       w->path, host, last);
    /* A fresh socket takes a few hundred bytes at once: a short write is a failed connection. */
    if (len >= (int)sizeof req || send(w->fd, req, len, MSG_NOSIGNAL) != len) { reconnect_later(i); return; }
    w->state = HEAD;
    struct epoll_event ev = {.events = EPOLLIN, .data.u64 = tag(i)};
    if (epoll_ctl(ep, EPOLL_CTL_MOD, w->fd, &ev) < 0) die("epoll_ctl");
}

/* ---- what a stream says --------------------------------------------------------------------- */

static int line_is(const char *line, size_t n, const char *word) {
    return n == strlen(word) && !memcmp(line, word, n);
}

/* One frame (without its "\n\n"): its id, its kind, and a game event's fan-out delay. The byte
 * after the frame is its '\n', so strtoll stops there at the latest. */
static void frame(watcher *w, const char *p, size_t len, double now) {
    int game_event = 0;
    for (const char *line = p, *end = p + len; line < end;) {
        const char *nl = memchr(line, '\n', end - line);
        size_t n = (nl ? nl : end) - line;
        if (n > 4 && !memcmp(line, "id: ", 4)) w->last_id = strtoll(line + 4, NULL, 10);
        else if (line_is(line, n, "event: game_event")) game_event = 1;
        else if (line_is(line, n, "event: end")) w->ended = 1;
        line += n + 1;
    }
    if (!game_event) return; /* a state, a keep-alive comment, `retry:` */
    const char *at = memmem(p, len, "\"at\":", 5);
    if (!at) return;
    long long ms = 0;
    const char *d = at + 5, *end = p + len;
    if (d >= end || *d < '0' || *d > '9') return; /* "at":null */
    for (; d < end && *d >= '0' && *d <= '9'; d++) ms = ms * 10 + (*d - '0');
    add(&delays, now, now - (double)ms);
}

/* How many bytes of buf are used up (the head, complete frames); -1: the stream is over for
 * good (refused, or ended); -2: refused, to be tried again. */
static long scan(watcher *w, const char *buf, size_t len, double now) {
    size_t used = 0;
    if (w->state == HEAD) {
        const char *end = memmem(buf, len, "\r\n\r\n", 4);
        if (!end) return 0;
        const char *sp = memchr(buf, ' ', end - buf);
        int code = sp ? atoi(sp + 1) : 0;
        if (code != 200) {
            refused++;
            by_status[code > 0 && code < 600 ? code : 0]++;
            return retry_ms > 0 && code != 204 ? -2 : -1; /* 204: its game is over, it stops */
        }
        w->state = STREAMING;
        used = end + 4 - buf;
    }
    while (!w->ended) {
        const char *end = memmem(buf + used, len - used, "\n\n", 2);
        if (!end) break;
        frame(w, buf + used, end - (buf + used), now);
        used = end + 2 - buf;
    }
    return w->ended ? -1 : (long)used;
}

/* Keeps data at the end of the watcher's tail. */
static void keep(watcher *w, const char *data, size_t n) {
    w->tail = grow(w->tail, &w->cap, w->len + n, 1);
    memcpy(w->tail + w->len, data, n);
    w->len += n;
}

static void received(size_t i) {
    static char buf[1 << 16];
    watcher *w = &ws[i];
    ssize_t n = read(w->fd, buf, sizeof buf);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n <= 0) { reconnect_later(i); return; } /* closed or reset before its end */
    const char *data = buf;
    size_t len = n;
    if (w->len) { /* a frame split across reads: the rest of it comes first */
        keep(w, buf, n);
        data = w->tail, len = w->len;
    }
    long used = scan(w, data, len, now_ms(CLOCK_REALTIME));
    if (used == -2) { retry_later(i); return; }
    if (used < 0) { stop(w); return; }
    if (data == w->tail) {
        memmove(w->tail, w->tail + used, len - used);
        w->len = len - used;
    } else if (len > (size_t)used) {
        keep(w, data + used, len - used);
    }
    if (w->len == 0 || w->len > MAX_TAIL) { /* most reads end on a frame's end: no tail kept */
        free(w->tail);
        w->tail = NULL;
        w->len = w->cap = 0;
    }
}

/* ---- commands ---------------------------------------------------------------------------- */

/* Watcher i follows path from its start. Slots are zeroed once, when first allocated, so a
 * reused slot keeps counting its generations (a stale epoll event never matches a new socket). */
static void follow(size_t i, const char *path) {
    if (i >= capws) {
        size_t old = capws;
        ws = grow(ws, &capws, i + 1, sizeof *ws);
        memset(ws + old, 0, (capws - old) * sizeof *ws);
        for (size_t k = old; k < capws; k++) ws[k].fd = -1;
    }
    for (; nws <= i; nws++) ws[nws].state = IDLE;
    watcher *w = &ws[i];
    free(w->path);
    w->path = strdup(path);
    w->last_id = -1;
    w->ended = 0;
    start(i);
}

static void status(void) {
    size_t open = 0, connecting = 0, ended = 0;
    for (size_t i = 0; i < nws; i++) {
        open += ws[i].state == STREAMING;
        connecting += ws[i].state == CONNECTING || ws[i].state == HEAD || ws[i].state == WAITING;
        ended += ws[i].ended;
    }
    printf("open %zu refused %ld connecting %zu ended %zu\n", open, refused, connecting, ended);
}

static void print_samples(const char *name, const samples *s, double since, double until) {
    size_t k = 0;
    for (size_t j = 0; j < s->n; j++) k += s->v[j].at >= since && s->v[j].at <= until;
    printf("%s %zu\n", name, k);
    for (size_t j = 0; j < s->n; j++)
        if (s->v[j].at >= since && s->v[j].at <= until) printf("%.1f ", s->v[j].value);
    putchar('\n');
}

static void close_all(void) {
    for (size_t i = 0; i < nws; i++) {
        stop(&ws[i]);
        free(ws[i].path);
        ws[i].path = NULL;
        ws[i].ended = 0;
    }
    nws = 0;
    reconnects.head = reconnects.len = 0;
    retries.head = retries.len = 0;
    refused = 0;
    memset(by_status, 0, sizeof by_status);
    delays.n = 0;
}

static void command(char *line) {
    char path[4096];
    size_t i;
    double a, b;
    struct rusage ru;
    if (sscanf(line, "open %zu %4095s", &i, path) == 2 || sscanf(line, "move %zu %4095s", &i, path) == 2) {
        follow(i, path);
        return; /* no answer */
    } else if (!strcmp(line, "status")) {
        status();
    } else if (sscanf(line, "delays %lf %lf", &a, &b) == 2) {
        print_samples("delays", &delays, a, b);
    } else if (sscanf(line, "lags %lf %lf", &a, &b) == 2) {
        print_samples("lags", &lags, a, b);
    } else if (!strcmp(line, "cpu")) {
        getrusage(RUSAGE_SELF, &ru);
        printf("cpu %.6f\n", ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
    } else if (sscanf(line, "retry %lf", &a) == 1) {
        retry_ms = a;
        puts("retry");
    } else if (!strcmp(line, "drop")) {
        size_t dropped = 0;
        for (size_t k = 0; k < nws; k++)
            if (ws[k].state == STREAMING) { reconnect_later(k); dropped++; }
        printf("dropped %zu\n", dropped);
    } else if (!strcmp(line, "refusals")) {
        printf("refusals");
        for (int k = 0; k < 600; k++)
            if (by_status[k]) printf(" %d:%ld", k, by_status[k]);
        putchar('\n');
    } else if (!strcmp(line, "close")) {
        close_all();
        puts("closed");
    } else if (!strcmp(line, "quit")) {
        exit(0);
    } else {
        printf("error unknown command: %s\n", line);
    }
    fflush(stdout);
}

static void read_commands(void) {
    static char buf[1 << 20];
    static size_t len;
    ssize_t n = read(0, buf + len, sizeof buf - 1 - len);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n <= 0) exit(0); /* the bench is gone */
    len += n;
    char *line = buf, *nl;
    while ((nl = memchr(line, '\n', buf + len - line))) {
        *nl = '\0';
        command(line);
        line = nl + 1;
    }
    len = buf + len - line;
    memmove(buf, line, len);
    if (len == sizeof buf - 1) len = 0; /* a line that long is no command */
}

/* ---- the loop ------------------------------------------------------------------------------ */

/* The 20 ms tick: how late the loop gets to what is due, the part of a fan-out delay that is
 * the client's (the tick's first expiry is at `first`, expiries are counted). */
static void tick(int fd, double first) {
    static uint64_t expiries;
    uint64_t n;
    if (read(fd, &n, sizeof n) != sizeof n) return;
    expiries += n;
    add(&lags, now_ms(CLOCK_REALTIME), now_ms(CLOCK_MONOTONIC) - (first + (expiries - 1) * TICK_MS));
}

static int tick_timer(double *first) {
    int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (fd < 0) die("timerfd_create");
    struct itimerspec spec = {{0, TICK_MS * 1000000L}, {0, TICK_MS * 1000000L}};
    *first = now_ms(CLOCK_MONOTONIC) + TICK_MS;
    if (timerfd_settime(fd, 0, &spec, NULL) < 0) die("timerfd_settime");
    struct epoll_event ev = {.events = EPOLLIN, .data.u64 = TICK_TAG};
    if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) die("epoll_ctl");
    return fd;
}

/* Starts a queue's watchers that are due; returns when its next one is (-1: none). */
static double start_due(waitq *q, double now) {
    for (; q->head < q->len && q->v[q->head].due <= now; q->head++) {
        size_t i = q->v[q->head].i; /* stale if the watcher was moved or closed meanwhile */
        if (i < nws && ws[i].state == WAITING && ws[i].due == q->v[q->head].due) start(i);
    }
    return q->head < q->len ? q->v[q->head].due : -1;
}

/* Starts the reconnects and retries that are due; returns the epoll timeout until the next
   one (-1: none). */
static int reconnect_due(void) {
    double now = now_ms(CLOCK_MONOTONIC);
    double a = start_due(&reconnects, now), b = start_due(&retries, now);
    double next = a < 0 ? b : b < 0 ? a : a < b ? a : b;
    return next < 0 ? -1 : (int)(next - now) + 1;
}

static void resolve(const char *port) {
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *found;
    int err = getaddrinfo(host, port, &hints, &found);
    if (err) { fprintf(stderr, "sse_watchers: %s: %s\n", host, gai_strerror(err)); exit(1); }
    memcpy(&addr, found->ai_addr, found->ai_addrlen);
    addrlen = found->ai_addrlen;
    freeaddrinfo(found);
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) { fprintf(stderr, "usage: sse_watchers HOST PORT [BATCH_US]\n"); return 2; }
    /* BATCH_US: after a round of reads, the loop sleeps this long before it waits again, so the
       next round reads the sockets the server wrote meanwhile in one go. On one machine, a
       write to a socket whose reader sleeps in epoll_wait makes the server's kernel wake the
       reader (most of a loopback write's cost, charged to the server); watchers on other
       machines cost the server no such wake-up. */
    useconds_t batch_us = argc == 4 ? (useconds_t)atoi(argv[3]) : 0;
    host = argv[1];
    resolve(argv[2]);
    signal(SIGPIPE, SIG_IGN);
    struct rlimit nofile;
    if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
        nofile.rlim_cur = nofile.rlim_max; /* one file per stream: thousands */
        setrlimit(RLIMIT_NOFILE, &nofile);
    }
    if ((ep = epoll_create1(EPOLL_CLOEXEC)) < 0) die("epoll_create1");
    struct epoll_event in = {.events = EPOLLIN, .data.u64 = STDIN_TAG};
    if (epoll_ctl(ep, EPOLL_CTL_ADD, 0, &in) < 0) die("epoll_ctl stdin");
    double first;
    int timer = tick_timer(&first);
    struct epoll_event evs[512];
    for (;;) {
        int n = epoll_wait(ep, evs, 512, reconnect_due());
        if (n < 0 && errno != EINTR) die("epoll_wait");
        for (int k = 0; k < n; k++) {
            uint64_t t = evs[k].data.u64;
            if (t == STDIN_TAG) { read_commands(); continue; }
            if (t == TICK_TAG) { tick(timer, first); continue; }
            size_t i = t & 0xffffffffu;
            if (i >= nws || ws[i].gen != t >> 32 || ws[i].fd < 0) continue; /* a socket since closed */
            if (ws[i].state == CONNECTING) connected(i);
            else received(i);
        }
        if (batch_us && n > 0) usleep(batch_us);
    }
}
