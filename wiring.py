"""The composition root: the one place the service's object graph is built from the Settings.

The web process (app.py's create_app), every worker role (workers/__main__.py) and the RQ jobs
(jobs.py, above this module) take their GameService from `bootstrap`, so each one
hears of an append through the same listeners: the players' feed (api/players/feed.py), the
finished games' exports (api/history/finished_exports.py) and the webhooks' notifier
(api/webhooks/notify.py). A listener added here is added everywhere.

It takes fakes: `bootstrap(settings, connections, store=..., scheduler=...)` builds the same graph
over in-memory clients and stores (tests/fakes.py), so the tests build what the processes build.
Nothing below imports this module: app.py, jobs.py (the RQ jobs' entry points), the worker roles
(workers/__main__.py), tools/ and the tests do (tests/test_architecture.py checks it, and that no
module outside it builds a service of the graph).

No Flask here (the workers import it): the HTTP edge's own parts (rate limits, stream limits,
probes) are built by create_app around what this returns.
"""
from __future__ import annotations

import dataclasses
import ipaddress
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from api.analysis.analyses import Analyses
from api.chat.service import Chat
from api.chat.words_filter import DEFAULT_EN, DEFAULT_KO, WordFilter, word_list
from api.games.deferred import immediately
from api.games.repository import GameRepository
from api.games.service import GameService, Scheduler
from api.history.finished_exports import FinishedExports
from api.live.tickets import Tickets
from api.lobby.index import LobbyIndex
from api.lobby.waiting import WaitingGames
from api.matchmaking.pairing import Matchmaker
from api.matchmaking.seeks import Seeks
from api.moderation.addresses import Addresses
from api.moderation.peeking import PeekingEvidence, PeekingJobs
from api.moderation.service import Moderation
from api.players.accounts import Players
from api.players.feed import PlayerFeed, RatedNotices
from api.players.identity_tokens import TokenVerifier, parse_issuers
from api.players.vacations import Vacations
from api.push.subscriptions import PushSubscriptions
from api.ratings.ledger import Ledger
from api.ratings.profiles import Ratings
from api.seating.claims import Lobby
from api.seating.control import SeatControl
from api.seating.pauses import Pauses
from api.settings import Settings, of_process
from api.social.blocks import Blocks
from api.social.challenges import ChallengeAnswers, Challenges
from api.social.groups import Groups
from api.social.relations import Social
from api.tournaments.service import TournamentResults, Tournaments
from api.webhooks.addresses import Policy
from api.webhooks.manage import Webhooks
from domain import registry
from events.archived_store import ArchivingStore
from events.archives import open_archive
from events.connection import Connections, store_for_jobs
from events.store import EventStore
from workers import deliveries as webhook_deliveries
from workers import push as web_push
from workers.archiver import Archiver, archived_ratings, file_ratings
from workers.clock_warnings import ClockWarnings
from workers.clocks import ClockTick
from workers.queueing import AnalysisQueue, TurnScheduler
from workers.vacations import Away


@dataclass(frozen=True)
class Clients:
    """A process's Redis clients: `store` (events and the application's keys; maybe a
    cluster) and `queue` (RQ's plain Redis; maybe the same client). events.Connections is one."""
    store: Any
    queue: Any


@dataclass(frozen=True)
class Services:
    settings: Settings
    connections: Any  # Clients, or events.connection.Connections
    store: ArchivingStore | EventStore  # Redis, with the finished games' archive behind it (events/archived_store.py)
    scheduler: TurnScheduler | Scheduler  # the turns' queue (a test's: any callable)
    deliveries: webhook_deliveries.Deliveries
    players: Players
    lobby_index: LobbyIndex
    listeners: tuple  # what the service tells of every durable append, in order
    service: GameService
    lobby: Lobby  # claims, leaves, rematches (api/seating/claims.py)
    seat_control: SeatControl  # resign, abort, return, timeouts (api/seating/control.py)
    webhooks: Webhooks  # subscriptions managed (api/webhooks/manage.py)
    clock_tick: ClockTick  # the reconciler's turn clocks' poll (workers/clocks.py)
    ratings: Ratings  # leaderboards and profiles, over the ledger the reconciler feeds (api/ratings/)
    matchmaker: Matchmaker  # quick matchmaking's seeks and pairing (api/matchmaking/)
    archiver: Archiver  # the reconciler's sweep moving finished games to the archive (workers/archiver.py)
    analysis_queue: AnalysisQueue  # the analyses' own RQ queue, apart from the turns' (workers/queueing/)
    analyses: Analyses  # finished games' analyses, asked for and kept (api/analysis/; computed by jobs.analyse)
    peeking: PeekingEvidence  # the finished games' peeking evidence (api/moderation/peeking.py; jobs.peek)
    pauses: Pauses  # agreed pauses, vacations' clock events (api/seating/pauses.py)
    vacations: Vacations  # the players' vacation plans and allowance (api/players/vacations.py)
    pushes: web_push.Pushes  # web push subscriptions and their sending (api/push/, workers/push/)
    clock_warnings: ClockWarnings  # the reconciler's sweep warning of deadlines (workers/clock_warnings.py)
    ledger: Ledger  # the rated games' counts (api/ratings/ledger.py), fed by the reconciler
    tickets: Tickets  # the live streams' tickets, issued (api/live/tickets.py)
    moderation: Moderation  # the moderator role, flags and voids re-rating everyone (api/moderation/)
    blocks: Blocks  # the one block check point every meeting path asks (api/social/blocks.py)
    social: Social  # follows, friends, blocks, privacy as events (api/social/)
    challenges: Challenges  # a game with a friend's seat kept for them, in one call (api/social/challenges.py)
    groups: Groups  # groups: public or by invitation, owners and admins (api/social/groups.py)
    tournaments: Tournaments  # tournaments: their streams, pairings, games and results (api/tournaments/)
    chat: Chat  # table, spectators', direct and group chat; mutes, reports, moderators' actions (api/chat/)

    # The processes (app.py, workers/__main__.py, tools/) build the real store and scheduler;
    # the fakes a test passes stand in for the port only. These say so where the real one is needed.
    def redis_store(self) -> ArchivingStore:
        """The store with its archive behind it (Redis's)."""
        if not isinstance(self.store, ArchivingStore):
            raise TypeError(f"this needs the Redis store, not {type(self.store).__name__}")
        return self.store

    def turn_scheduler(self) -> TurnScheduler:
        """The turns' RQ queue."""
        if not isinstance(self.scheduler, TurnScheduler):
            raise TypeError(f"this needs the turns' RQ queue, not {type(self.scheduler).__name__}")
        return self.scheduler

    def rate_ended_games(self) -> int:
        """The reconciler's sweep: a void a stopped process left half applied finished (each game
        type re-rated as the moderation stream says), then the games ended since the last pass,
        rated in order."""
        self.moderation.settle()
        return self.ratings.ledger.catch_up(self.store)

    def advance_tournaments(self) -> int:
        """The reconciler's sweep: each running tournament's lost steps done again (a finished
        game's result, a table's game, a round due)."""
        return self.tournaments.sweep()

    def pair_seeks(self) -> int:
        """The reconciler's sweep: every pool of seeks paired again (their windows widened)."""
        return self.matchmaker.pair_all()

    def live(self, connection) -> LiveParts:
        """What the live streams read on their own Redis client (the live path's pool:
        api/http/streams/game.py): the store, the players' inboxes and the tickets redeemed."""
        prefix = self.settings.key_prefix
        inboxes = Players(connection, prefix)
        return LiveParts(self.redis_store().on(connection), inboxes, Tickets(connection, prefix, inboxes.key_in_use))


@dataclass(frozen=True)
class LiveParts:
    store: ArchivingStore
    inboxes: Players  # the player streams' inboxes, and whether a player key is still in use
    tickets: Tickets  # redeemed by the streams (a ticket of a replaced player key opens nothing)


def connect(settings: Settings, **client_options) -> Connections:
    """The process's clients where the settings say (events/connection.py)."""
    return Connections(settings.redis_url, settings.redis_cluster_nodes, settings.queue_redis_url,
                       **client_options)


def delivery_settings(settings: Settings) -> webhook_deliveries.Settings:
    """What workers/deliveries.py's Settings.from_env reads, taken from the one Settings."""
    policy = Policy(settings.webhook_allow_loopback,
                    tuple(ipaddress.ip_network(n, strict=False) for n in settings.webhook_allowed_networks))
    return webhook_deliveries.Settings(settings.webhook_timeout_s, settings.webhook_retry_base_s,
                                       settings.webhook_retry_max_s, settings.webhook_disable_after_s, policy,
                                       settings.webhook_progress_ttl_s, settings.webhook_deadline_s)


def push_settings(settings: Settings) -> web_push.PushSettings:
    """Push endpoints are checked as webhook URLs are (the same allowed networks)."""
    networks = tuple(ipaddress.ip_network(n, strict=False) for n in settings.webhook_allowed_networks)
    return web_push.PushSettings(settings.vapid_subject, settings.push_ttl_s, settings.push_timeout_s,
                                 settings.push_deadline_s, settings.push_drain_s, settings.push_queued_grace_s,
                                 Policy(settings.push_allow_loopback, networks),
                                 settings.push_retry_base_s, settings.push_retry_max_s, settings.push_max_attempts,
                                 settings.push_reminders_per_game, settings.push_reminders_per_day)


def _value_or_file(raw: str) -> str:
    """A secret given inline, or the path of the file that holds it."""
    stripped = raw.strip()
    if stripped.startswith(("{", "-----BEGIN")):
        return raw
    with open(stripped, encoding="utf-8") as f:
        return f.read()


def native_push(settings: Settings) -> dict[str, Any]:
    """The native apps' push transports the operator configured (FCM, APNs): those whose
    credentials are set; a kind half set is an error at start, saying what is missing."""
    transports: dict[str, Any] = {}
    # Imported only when configured: google-auth costs a process ~150 ms of start that most never use.
    if settings.fcm_credentials:
        from workers.push import fcm as push_fcm

        info = push_fcm.load_credentials(_value_or_file(settings.fcm_credentials))
        transports["fcm"] = push_fcm.Fcm(info, settings.fcm_project_id, settings.fcm_url, settings.push_ttl_s,
                                         settings.push_timeout_s)
    apns = {"APNS_KEY": settings.apns_key, "APNS_KEY_ID": settings.apns_key_id,
            "APNS_TEAM_ID": settings.apns_team_id, "APNS_BUNDLE_ID": settings.apns_bundle_id}
    if any(apns.values()):
        missing = [name for name, value in apns.items() if not value]
        if missing:
            raise ValueError(f"APNs push is half configured: {', '.join(missing)} unset")
        from workers.push import apns as push_apns

        transports["apns"] = push_apns.Apns(_value_or_file(settings.apns_key), settings.apns_key_id,
                                            settings.apns_team_id, settings.apns_bundle_id, settings.apns_url,
                                            settings.push_ttl_s, settings.push_timeout_s)
    return transports


def told_of_ratings(notices: RatedNotices, deliveries: webhook_deliveries.Deliveries) -> Callable:
    """What the ledger tells once it counted a game: its players (their streams' `rated`), and
    its subscriptions, whose `game.rated` waited for the count (a lost telling is repaired by
    the webhooks' sweep, which retires no rated game before it is counted)."""
    def told(entry: dict, changes: list[dict]) -> None:
        notices(entry, changes)
        if deliveries.subs.subscribed(entry["id"]):
            deliveries.fan_out(entry["id"])
    return told


def push_subscriptions(client: Any, prefix: str) -> PushSubscriptions:
    """The push subscriptions alone, on `client` (app.py's start: a VAPID rotation removes the
    old key's through them, api/push/vapid.py's bind)."""
    return PushSubscriptions(Players(client, prefix))


def identity_verifier(settings: Settings) -> TokenVerifier:
    """The identity tokens' verifier: the issuers the operator trusts (OIDC_ISSUERS)."""
    return TokenVerifier(parse_issuers(settings.oidc_issuers), settings.oidc_jwks_ttl_s,
                         settings.oidc_jwks_refresh_s, settings.oidc_leeway_s, settings.oidc_fetch_deadline_s)


def bootstrap(settings: Settings, connections: Any | None = None, defer: Callable = immediately, *,
              store: EventStore | None = None, scheduler: Scheduler | None = None) -> Services:
    """Every collaborator, once. `connections`: the clients to use (default: made from the
    settings; a test's may be in memory: tests/fakes.py); `defer`: how the after-append writes run
    (the web process's may follow the answer: api/games/deferred.py; a worker's next step may
    depend on them, so now); `store`: the event store (default: Redis's, with the archive behind
    it; a test's may be events/memory_store.py's, or one failing on purpose); `scheduler`: how a
    turn is queued (default: the turn queue's TurnScheduler)."""
    connections = connections or connect(settings)
    redis: Any = connections.store
    prefix = settings.key_prefix
    if store is None:
        store = ArchivingStore(redis, open_archive(settings.archive_url, namespace=prefix), prefix,
                               retention_s=settings.archive_retention_s)
    if scheduler is None:
        scheduler = TurnScheduler(connections.queue, prefix, settings.turn_queue, settings.turn_lost_after_s)
    analysis_queue = AnalysisQueue(connections.queue, prefix, settings.analysis_queue,
                                   settings.analysis_heartbeat_s)
    # An archived game's rating record is the archive's (workers/archiver.py moves it there).
    archiving = store if isinstance(store, ArchivingStore) else None
    if archiving is not None:  # every process's appends are told to the web processes (WARM_GAMES)
        archiving.announcing = settings.warm_games and not archiving.clustered
    ledger = Ledger(redis, prefix, archived=(lambda game_id: archived_ratings(archiving, game_id))
                    if archiving is not None else None, game_types=lambda: [g.name for g in registry.all_games()])
    # The deliveries read games on a repository of their own (their sender threads share no
    # cache with the service) and the ledger's counts (game.rated)...
    deliveries = webhook_deliveries.Deliveries(redis, prefix, settings.webhook_queue, delivery_settings(settings),
                                               GameRepository(store), ledger.game_changes,
                                               queue_connection=connections.queue)
    players = Players(redis, prefix, identity_verifier(settings), settings.webauthn_rp_name)
    index = LobbyIndex(redis, prefix)
    sent = push_settings(settings)
    natives = native_push(settings)
    pushes = web_push.Pushes(PushSubscriptions(players, settings.push_max_per_player, settings.push_allow_loopback,
                                               sent.policy, tuple(natives)),
                             players, deliveries.queue, sent, settings.vapid_private_key, settings.vapid_key_file,
                             natives)
    push_notify = pushes.notifier()
    # A bot's move tells the next player it is their turn as a person's does, and the move that
    # ends a long game makes its export, whoever made it: the same listeners in every process.
    # A tournament game's end is its table's result, in whichever process appended it.
    tournaments = Tournaments(redis, prefix, ledger, players)
    answers = ChallengeAnswers()
    # A finished hidden-information game's peeking evidence is queued beside the analyses (jobs.peek).
    listeners = (PlayerFeed(players, index, push_notify), FinishedExports(store, settings.export_cache_ttl),
                 deliveries.notifier(store.watched_hint), TournamentResults(tournaments), answers,
                 PeekingJobs(analysis_queue.peek, settings.peeking_iterations))
    service = GameService(store, scheduler, defer, players, list(listeners), settings.max_anonymous_games,
                          settings.snapshot_every, settings.archive_retention_s,
                          WaitingGames(redis, prefix, settings.max_waiting_games_per_player, settings.waiting_ttl))
    seat_control = SeatControl(service, settings.abort_after_s)
    tournaments.games = service  # the tournaments make their rounds' games through it
    tournaments.told = deliveries.news.tell  # ...and tell their players' webhooks (tournament.*)
    ledger.told = told_of_ratings(RatedNotices(players), deliveries)  # ...and the ledger tells them
    pauses = Pauses(service)
    vacations = Vacations(redis, prefix, settings.vacation_days_per_year)
    webhooks = Webhooks(deliveries.subs, service, deliveries.ensure, deliveries.redeliver, deliveries.settings.policy,
                        settings.webhook_max_per_owner, news_log=deliveries.news_log)
    # What a player key made ends with the key (revoked or replaced): api/players/keys.py.
    players.on_key_ended(webhooks.end_key)
    players.on_key_ended(pushes.subs.end_key)

    def game_types() -> list[str]:
        return [g.name for g in registry.all_games()]

    addresses = Addresses(redis, prefix, settings.moderation_address_key, settings.address_retention_days,
                          settings.link_same_address, settings.link_loopback, settings.link_key_lineage,
                          settings.link_identity_subject)
    players.identities.held.append(addresses.identity_seen)  # one IdP subject's accounts are linked
    moderation = Moderation(redis, prefix, ledger, players, store, addresses,
                            game_types, settings.moderators, settings.moderation_lookback_s,
                            pushed=push_notify.players, rating_changed=deliveries.rating_changed,
                            archived=archiving.archived_among if archiving is not None else None,
                            file=(lambda ids: file_ratings(archiving, ledger, ids)) if archiving is not None else None)
    peeking = PeekingEvidence(redis, prefix, service, settings.peeking_iterations, settings.moderation_lookback_s,
                              game_types)
    moderation.peeking = peeking  # the flags judge its evidence
    deliveries.rating_log = moderation.rating_log  # what a rating.changed says
    players.told.append(lambda player_id: push_notify.players([player_id]))  # account notices (issue 51)
    blocks = Blocks(redis, prefix)
    groups = Groups(redis, prefix, blocks, players, service)
    tournaments.group_of = groups.state  # a group's tournaments: made by its admins, entered by its members
    lobby = Lobby(service, index, settings.lobby_games_per_player, addresses.linked_to, blocks, groups.is_member)
    social = Social(redis, prefix, blocks, players, service.load, parted=lobby.part)
    analyses = Analyses(redis, prefix, service, analysis_queue, settings.analysis_per_day,
                        settings.analysis_iterations, settings.archive_retention_s)
    moderation.on_void.append(tournaments.player_voided)  # the tournaments' standings follow a void
    chat = Chat(redis, prefix, players, social, blocks, service.load, groups.is_member, groups.member_ids,
                WordFilter(word_list(settings.chat_words_en, DEFAULT_EN),
                           word_list(settings.chat_words_ko, DEFAULT_KO)),
                settings.chat_max_length, settings.chat_rate, told=push_notify.players, news=deliveries.news.tell)
    challenges = Challenges(social, blocks, service, told=push_notify.players, news=deliveries.news.tell)
    answers.challenges = challenges  # a challenge's game taken or ended answers it (challenge.answered)
    return Services(settings=settings, connections=connections, store=store, scheduler=scheduler,
                    deliveries=deliveries, players=players, lobby_index=index, listeners=listeners, service=service,
                    lobby=lobby,
                    seat_control=seat_control,
                    webhooks=webhooks,
                    clock_tick=ClockTick(service, seat_control, settings.clock_rearm_s,
                                         Away(vacations, players, pauses)),
                    ratings=Ratings(ledger, players, game_types),
                    matchmaker=Matchmaker(Seeks(redis, prefix), service, players, ledger, told=push_notify.players,
                                          linked=addresses.marks,
                                          rated_pairs_per_day=settings.rated_pairs_per_day, blocks=blocks),
                    # The archiver moves games to the archive behind Redis: built over a test's fake
                    # store too, whose tests never run its sweep.
                    archiver=Archiver(cast(ArchivingStore, store), service.games, settings.archive_after_s,
                                      ratings=ledger, analyses=analyses),
                    pushes=pushes,
                    clock_warnings=ClockWarnings(service, players, push_notify.players, settings.clock_warning_s,
                                                 settings.clock_warning_min_s, settings.clock_warning_scan_s),
                    analysis_queue=analysis_queue,
                    analyses=analyses, peeking=peeking,
                    pauses=pauses, vacations=vacations, ledger=ledger,
                    tickets=Tickets(redis, prefix, players.key_in_use), moderation=moderation,
                    blocks=blocks, social=social,
                    challenges=challenges,
                    groups=groups, chat=chat,
                    tournaments=tournaments)


# ---- the RQ jobs' --------------------------------------------------------------------------

_for_jobs: dict = {}
# (connection's id, prefix, turn queue, webhook queue) -> (the process's settings, the services):
# a job's services found without building and hashing its settings (0.1 ms a job).
_for_job_calls: dict = {}


def for_job(job_connection, prefix: str, turn_queue: str | None = None,
            webhook_queue: str | None = None) -> Services:
    """The services of an RQ job: its key prefix, the queue it came from (a turn's or a
    webhook's), its queues on the job's connection and the store where the settings say (the
    same Redis, or a cluster: events/connection.py). Built once per process and queue."""
    process = of_process()
    call = (id(job_connection), prefix, turn_queue, webhook_queue)
    found = _for_job_calls.get(call)
    if found is not None and found[0] is process:
        return found[1]
    settings = dataclasses.replace(process, key_prefix=prefix, turn_queue=turn_queue or process.turn_queue,
                                   webhook_queue=webhook_queue or process.webhook_queue)
    key = (id(job_connection), settings)
    if key not in _for_jobs:
        named = {"REDIS_URL": settings.redis_url, "REDIS_CLUSTER_NODES": settings.redis_cluster_nodes,
                 "QUEUE_REDIS_URL": settings.queue_redis_url}
        store = store_for_jobs(job_connection, {k: v for k, v in named.items() if v})
        _for_jobs[key] = bootstrap(settings, Clients(store, job_connection))
    _for_job_calls[call] = (process, _for_jobs[key])
    return _for_jobs[key]
