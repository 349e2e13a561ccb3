"""How `pytest -n N` (pytest-xdist, pytest.ini) deals the suite to its workers.

A test file runs whole on one worker: its module fixtures start servers, browsers and Redis
servers, once. tests/cluster runs whole on one worker: one cluster for the package, and its
last file checks what the files before it sent. The few long files whose fixtures are cheap
(a playout each, an in-process app) are dealt test by test.

Work goes out longest first (longest-processing-time scheduling): a test of five minutes dealt
last would finish alone, minutes after the rest. The figures are seconds from a full run on
this 2-core machine (2026-12-05, later: `--durations`); what they do not name counts 1 s a test.
They only order the work: a stale figure makes the run longer, never wrong. The files' figures are
their wall spans in the full run of 2026-12-06, 23:03 (`--cpu-report`'s start and end per file,
`python -m tools.cpu_report --tail`), every file of 18 s or more (test_browser.py, test_accessibility.py,
test_boards_korean.py and test_web_push.py scaled by what issue 48's `web48` took off them, measured alone;
the five files `suite48` changed scaled again so, and the four `web48b` changed), and the cold figures of the
four whose tools are kept in var/ (a clean clone builds them); the tests dealt one by one keep
the figures of 2026-12-05.
"""
from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

TOGETHER = ("tests/cluster/",)
TEST_BY_TEST = ("tests/robustness/test_leaks.py", "tests/contract/test_game_contract.py",
                "tests/contract/test_words.py", "tests/archive/test_archived_reads.py")
SECONDS = {
    "tests/cluster/": 118,  # fuzz48: test_api_on_cluster.py alone 78/65 -> 65/59 s; suite48a: test_failover 24 -> 13 s
    "tests/web/test_browser.py": 83,  # web48: alone 122/136/103 -> 140/72/104 s (the Splendor game's middle by the API)
    "tests/robustness/test_schemathesis.py": 75,  # fuzz48: 47-57 s alone at load 9 (82-92 before)
    "tests/web/test_korean_pages.py": 56,
    "tests/api/test_web_push.py": 34,  # suite48: alone 48/49 -> 35/35 s (clocks, back-offs, passes shorter)
    "tests/web/test_boards_korean.py": 34,  # web48: alone 72/43 -> 58/36 s (one game a type, resized)
    "tests/contract/test_properties.py": 46,
    "tests/web/test_accessibility.py": 34,  # web48: alone 87/58 -> 86/39 s (no second load for the names)
    "tests/web/test_page_shell.py": 29,  # web48b: alone 56/54 -> 42/49 s (presence asked every second)
    "tests/web/test_board_play.py": 32,  # web48: alone 65/51 -> 62/40 s (one game a type, resized)
    "tests/web/test_social_pages.py": 38,
    "tests/test_bench_smoke.py": 33,  # procwait48: alone 47.8 -> 41.9 s (no webhook or analysis worker)
    "tests/web/test_korean_client.py": 31,  # web48b: the presence test 8.0/7.3 -> 2.7/3.2 s
    "tests/api/test_push_transports.py": 16,  # suite48: alone 37 -> 17 s (the fakes stop at once)
    "tests/web/test_security_headers.py": 34,
    "tests/platform/test_supervisor_outages.py": 33,
    "tests/platform/test_supervisor.py": 24,  # procwait48: alone 50.2 -> 39.8 s (only the roles it checks)
    "tests/web/test_lobby.py": 28,
    "tests/web/test_passkeys.py": 26,
    "tests/robustness/test_races.py": 22,  # procwait48: alone 28.0 -> 25.1 s
    "tests/api/test_play_every_game.py": 20,  # cpu48: alone 18 s quiet (it waits for the bots at the store)
    "tests/web/test_chat_pages.py": 23,
    "tests/api/test_webhooks.py": 19,  # suite48: alone 23/22 -> 18/20 s (the receiver stops at once)
    "tests/robustness/test_push_faults.py": 12,  # suite48a: the lost job's test 20 -> 10 s (PUSH_QUEUED_GRACE_S 1)
    "tests/clients/test_python_client.py": 21,
    "tests/archive/test_archive_outage_processes.py": 13,  # suite48a: 7 s of probes, not 15
    "tests/web/test_ratings_pages.py": 21,
    "tests/web/test_tournament_pages.py": 20,
    "tests/web/test_limits.py": 20,  # one server of its own (web48b: alone 26/40 -> 23/23 s), a rate window waited out
    "tests/api/test_clocks.py": 19,
    "tests/robustness/test_many_streams.py": 19,
    # cached in var/ between runs here, built on CI's clean clone: their cold figures
    "tests/platform/test_clean_install.py": 50,  # fuzz48: cold 34-47 s alone (40-57 before)
    "tests/clients/test_typescript_client.py": 33,
    "tests/clients/test_native_clients.py": 30,
    "tests/test_gates.py": 30,
    "tests/archive/test_archived_reads.py::test_every_read_of_every_game_is_the_same_after_archiving[postgresql]": 25,
    # cpu48: 16 s alone at a loop of 2.1 s (the error bodies asked by one seat a step)
    "tests/robustness/test_leaks.py::test_no_viewer_ever_receives_another_seats_secret[smallworld-of-warcraft-5]": 26,
    "tests/archive/test_archived_reads.py::test_every_read_of_every_game_is_the_same_after_archiving[sqlite]": 22,
}


def scope_of(nodeid: str) -> str:
    for prefix in TOGETHER:
        if nodeid.startswith(prefix):
            return prefix
    path = nodeid.split("::", 1)[0]
    return nodeid if path in TEST_BY_TEST else path


class LongestFirst(LoadScopeScheduling):
    """pytest-xdist's scope scheduling, with the scopes above, the longest dealt first."""

    def _split_scope(self, nodeid: str) -> str:
        return scope_of(nodeid)

    def _assign_work_unit(self, node) -> None:
        longest = max(self.workqueue, key=lambda scope: SECONDS.get(scope, len(self.workqueue[scope])))
        self.workqueue.move_to_end(longest, last=False)
        super()._assign_work_unit(node)
