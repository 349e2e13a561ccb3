-- wrk script: each wrk thread holds ONE connection (run with -t C -c C) and plays on it.
--   BENCH_MODE=game       real games: POST /games, then loop GET /games/{id}/moves with the token of
--                         the seat to act (legal moves read from the API), pick one at random,
--                         POST it with its expected version and an Idempotency-Key; a new game
--                         when one ends (the last move, scoring, is the RQ worker's).
--   BENCH_MODE=table      real games, one request per move: the game's table token plays every
--                         seat; each POST asks ?include=next_moves&seat=S and the answer's
--                         next_moves (seat, version, legal moves) chooses the next move; a GET of
--                         the moves only at a game's start and after a conflict
--                         (BENCH_LABELS=false: `&labels=false`, the compact answer)
--   Both wait through turns no person plays (the system's, a bot's, scoring) as a person's
--   client does: GET /games/{id} every BENCH_WAIT_MS (200) until a person seat is to act (its
--   moves next) or the game is over (a new one); they used to abandon the game there.
--   BENCH_MODE=steady     the table client's moves only, for the CPU of a move in a game's
--                         middle: each client plays the games bench/http_moves.py made before
--                         the run (BENCH_POOL/<client>.txt: a line per game, "id table_token"
--                         then its first `GET /moves` answer), and where the answer has no
--                         person to act (a system turn: a game's end, a round's scoring) it goes
--                         on with its next game at once, waiting for nothing; a game is created
--                         only when its list runs out (counted in n_games).
--   BENCH_MODE=floor      the floor: POST /floor/{stream}/moves only (the bare Lua append)
--   BENCH_MODE=floorloop  the floor of the read-then-move loop: GET then POST on the floor app
-- POST-move and GET latencies are timed here (CLOCK_MONOTONIC through LuaJIT's ffi) and written
-- with the counts to BENCH_OUT by done().
local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clk_id, bench_timespec *tp);
]]
local ts = ffi.new("bench_timespec")
local function now_us()
  ffi.C.clock_gettime(1, ts)
  return tonumber(ts.tv_sec) * 1000000 + tonumber(ts.tv_nsec) / 1000
end

local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("tid", counter)
  table.insert(threads, thread)
end

local mode, game_type, seats, run_id
local phase, game_id, tokens, seat, misses, table_token, pool
local version, chosen, sent_at, sent_kind
local counts, keyn
-- wrk copies only strings, numbers and booleans between threads: each thread keeps its samples
-- in one string (a few thousand per thread at most) and its counts in numbers.
post_str, get_str = "", ""
n_moves, n_games, n_conflicts, n_errors, n_empty, n_gets, n_waits, n_finished = 0, 0, 0, 0, 0, 0, 0, 0
-- n_status: GET /games/{id} that are not waits; n_ends: answers with no person to act next (the
-- game goes to the system: its end, a round's scoring); n_pooled: games taken from BENCH_POOL
n_status, n_ends, n_pooled = 0, 0, 0
-- n_waited_ms: the time from an answer with no person to act to the GET that saw one (or the end)
n_waited_ms, n_waited = 0, 0
local wait_from
local wait_ms, labels_query

local function keep_post(took)
  post_str = post_str .. " " .. math.floor(took)
end

local function keep_get(took)
  get_str = get_str .. " " .. math.floor(took)
end

function init(args)
  mode = os.getenv("BENCH_MODE") or "game"
  game_type = os.getenv("BENCH_GAME") or "splendor"
  seats = tonumber(os.getenv("BENCH_SEATS") or "2")
  run_id = os.getenv("BENCH_RUN") or "r"
  wait_ms = tonumber(os.getenv("BENCH_WAIT_MS") or "200")
  labels_query = (os.getenv("BENCH_LABELS") == "false") and "&labels=false" or ""
  math.randomseed(tid * 7919)
  counts = {moves = 0, games = 0, conflicts = 0, errors = 0, empty = 0, gets = 0, waits = 0, finished = 0,
            status = 0, ends = 0, pooled = 0}
  keyn = 0
  version = 1
  if mode == "steady" then
    pool = {}
    local f = io.open((os.getenv("BENCH_POOL") or ".") .. "/" .. tid .. ".txt", "r")
    if f then
      for line in f:lines() do pool[#pool + 1] = line end
      f:close()
    end
  end
  if mode == "game" or mode == "table" or mode == "steady" then phase = "create" elseif mode == "floor" then phase = "post" else phase = "moves" end
  if mode == "steady" then mode = "table"; next_pooled() end
  if mode ~= "game" and mode ~= "table" then game_id = run_id .. "-" .. tid; chosen = '{"type":"take_gems","colors":["white","blue","green"]}' end
end

-- the top-level objects of the JSON array that follows `"moves":`
local function moves_of(body)
  local start = string.find(body, '"moves":%s*%[')
  local out = {}
  if not start then return out end
  local i = string.find(body, "%[", start) + 1
  local n = #body
  local depth, in_str, obj_start = 0, false, nil
  while i <= n do
    local c = string.byte(body, i)
    if in_str then
      if c == 92 then i = i + 1 elseif c == 34 then in_str = false end
    elseif c == 34 then in_str = true
    elseif c == 123 or c == 91 then
      if depth == 0 then obj_start = i end
      depth = depth + 1
    elseif c == 125 or c == 93 then
      if depth == 0 then break end
      depth = depth - 1
      if depth == 0 then table.insert(out, string.sub(body, obj_start, i)) end
    end
    i = i + 1
  end
  return out
end

-- take the next game of this client's pool (steady mode): its first moves are in the line
local steady = false
function next_pooled()
  steady = true
  if #pool == 0 then phase = "create"; return end
  local line = table.remove(pool, 1)
  local id, token, body = string.match(line, "^(%S+) (%S+) (.*)$")
  game_id, table_token, misses = id, token, 0
  counts.pooled = counts.pooled + 1
  n_pooled = counts.pooled
  version = tonumber(string.match(body, '"version":%s*(%d+)'))
  seat = tonumber(string.match(body, '"seat":%s*(%d+)')) + 1
  local moves = moves_of(body)
  chosen = moves[math.random(#moves)]
  phase = "post"
end

local function auth()
  local token = table_token or tokens[seat]
  return { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }
end

-- a client waiting through a turn no person plays asks again after a pause (wrk calls this first)
function delay()
  if phase == "wait" then return wait_ms end
  return 0
end

-- the first seat (1-based) of `to_act` in a game's body, if a seat (not "system") is first
local function first_seat(body)
  local n = string.match(body, '"to_act":%s*%[%s*(%d+)')
  return n and (tonumber(n) + 1) or nil
end

function request()
  sent_at = now_us()
  sent_kind = phase
  if mode ~= "game" and mode ~= "table" then
    local path = "/floor/" .. game_id .. "/moves"
    if phase == "moves" then return wrk.format("GET", path) end
    path = path .. (os.getenv("BENCH_FLOOR_QUERY") or "")
    keyn = keyn + 1
    return wrk.format("POST", path, { ["Content-Type"] = "application/json",
      ["Idempotency-Key"] = tid .. "-" .. keyn },
      '{"expected_version":' .. version .. ',"move":' .. chosen .. '}')
  end
  if phase == "create" then
    local s = {}
    for i = 1, seats do s[i] = '{"name":"p' .. i .. '"}' end
    return wrk.format("POST", "/games", { ["Content-Type"] = "application/json" },
      '{"type":"' .. game_type .. '","seats":[' .. table.concat(s, ",") .. ']}')
  elseif phase == "moves" then
    local path = "/games/" .. game_id .. "/moves"
    if mode == "table" then path = path .. "?seat=" .. (seat - 1) .. labels_query end
    return wrk.format("GET", path, auth())
  elseif phase == "status" or phase == "wait" then
    return wrk.format("GET", "/games/" .. game_id, auth())
  else
    keyn = keyn + 1
    local h = auth()
    h["Idempotency-Key"] = run_id .. "-" .. tid .. "-" .. keyn
    local path = "/games/" .. game_id .. "/moves"
    if mode == "table" then path = path .. "?include=next_moves&seat=" .. (seat - 1) .. labels_query end
    return wrk.format("POST", path, h,
      '{"expected_version":' .. version .. ',"move":' .. chosen .. '}')
  end
end

function response(status, headers, body)
  local took = now_us() - sent_at
  if sent_kind == "post" then
    if status == 201 then
      counts.moves = counts.moves + 1
      n_moves = counts.moves
      keep_post(took)
      version = tonumber(string.match(body, '"version":%s*(%d+)')) or version + 1
      if mode == "table" then
        -- the next move comes from the answer itself: next_moves is its last member
        local at = string.find(body, '"next_moves":%s*{')
        local moves = at and moves_of(string.sub(body, at)) or {}
        if #moves == 0 then
          counts.ends = counts.ends + 1; n_ends = counts.ends
          if steady then next_pooled() else phase = "wait"; wait_from = now_us() end  -- no person to act: wait (or it is over)
          return
        end
        local rest = string.sub(body, at)
        seat = tonumber(string.match(rest, '"seat":%s*(%d+)')) + 1
        version = tonumber(string.match(rest, '"version":%s*(%d+)'))
        chosen = moves[math.random(#moves)]
        return
      end
      if mode == "game" then
        -- the next seat from the answer's to_act (a seat may act twice: a discard, a noble)
        local nxt = string.match(body, '"to_act":%s*%[%s*(%d+)')
        seat = nxt and (tonumber(nxt) + 1) or (seat % #tokens + 1)
        misses = 0
      end
    elseif status == 409 then
      counts.conflicts = counts.conflicts + 1
      n_conflicts = counts.conflicts
      version = tonumber(string.match(body, '"version":%s*(%d+)')) or version
    else
      counts.errors = counts.errors + 1
      n_errors = counts.errors
    end
    if mode ~= "floor" then phase = "moves" end
    return
  end
  if sent_kind == "moves" then
    counts.gets = counts.gets + 1
    n_gets = counts.gets
    keep_get(took)
    if status ~= 200 then
      -- a table token with no person seat to act (a system turn, or scoring): wait
      if mode == "table" and status == 400 then
        if steady then counts.ends = counts.ends + 1; n_ends = counts.ends; next_pooled() else phase = "wait"; wait_from = wait_from or now_us() end
        return
      end
      counts.errors = counts.errors + 1; n_errors = counts.errors; return
    end
    version = tonumber(string.match(body, '"version":%s*(%d+)'))
    local moves = moves_of(body)
    if mode == "table" then
      local s = string.match(body, '"seat":%s*(%d+)')
      if s then seat = tonumber(s) + 1 end
    end
    if #moves > 0 then
      chosen = moves[math.random(#moves)]
      phase = "post"
      return
    end
    counts.empty = counts.empty + 1
    n_empty = counts.empty
    if tokens then seat = seat % #tokens + 1 end
    misses = (misses or 0) + 1
    if mode == "table" or misses >= #tokens then phase = "status" end
    return
  end
  if sent_kind == "status" or sent_kind == "wait" then
    misses = 0
    if sent_kind == "wait" then counts.waits = counts.waits + 1; n_waits = counts.waits
    else counts.status = counts.status + 1; n_status = counts.status end
    local over = string.find(body, '"status":%s*"finished"')
    if wait_from and (over or first_seat(body)) then
      n_waited_ms = n_waited_ms + math.floor((now_us() - wait_from) / 1000)
      n_waited = n_waited + 1
      wait_from = nil
    end
    if string.find(body, '"status":%s*"finished"') then
      counts.finished = counts.finished + 1; n_finished = counts.finished
      phase = "create"
      return
    end
    local s = first_seat(body)
    if s then seat = s; phase = "moves"
    elseif steady then counts.ends = counts.ends + 1; n_ends = counts.ends; next_pooled()
    else phase = "wait" end
    return
  end
  if sent_kind == "create" then
    if status ~= 201 then counts.errors = counts.errors + 1; n_errors = counts.errors; return end
    game_id = string.match(body, '"id":%s*"([^"]+)"')
    tokens = {}
    for t in string.gmatch(body, '"token":%s*"([^"]+)"') do tokens[#tokens + 1] = t end
    if mode == "table" then table_token = string.match(body, '"table_token":%s*"([^"]+)"') end
    counts.games = counts.games + 1
    n_games = counts.games
    seat, misses = 1, 0
    phase = "moves"
  end
end

function done(summary, latency, requests)
  local out = io.open(os.getenv("BENCH_OUT") or "/dev/stdout", "w")
  out:write("duration_us " .. summary.duration .. "\n")
  out:write("game " .. (os.getenv("BENCH_GAME") or "splendor") .. "\n")
  out:write("requests " .. summary.requests .. "\n")
  for _, t in ipairs(threads) do
    out:write("counts " .. t:get("n_moves") .. " " .. t:get("n_games") .. " " .. t:get("n_conflicts") .. " "
      .. t:get("n_errors") .. " " .. t:get("n_empty") .. " " .. t:get("n_gets") .. " " .. t:get("n_waits") .. " "
      .. t:get("n_finished") .. " " .. t:get("n_status") .. " " .. t:get("n_ends") .. " " .. t:get("n_pooled") .. " "
      .. t:get("n_waited_ms") .. " " .. t:get("n_waited") .. "\n")
    out:write("post" .. t:get("post_str") .. "\n")
    out:write("get" .. t:get("get_str") .. "\n")
  end
  out:close()
end
