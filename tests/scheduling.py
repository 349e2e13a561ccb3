"""How `pytest -n N` (pytest-xdist, pytest.ini) deals the suite to its workers.

A test file runs whole on one worker: its module fixtures start servers, browsers and Redis
servers, once. tests/cluster runs whole on one worker: one cluster for the package, and its
last file checks what the files before it sent. The few long files whose fixtures are cheap
(a playout each, an in-process app) are dealt test by test.

Work goes out longest first (longest-processing-time scheduling): a test of five minutes dealt
last would finish alone, minutes after the rest. The figures are seconds from a full run on
this 2-core machine (2026-12-05, later: `--durations`); what they do not name counts 1 s a test.
They only order the work: a stale figure makes the run longer, never wrong.
"""
from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

TOGETHER = ("tests/cluster/",)
TEST_BY_TEST = ("tests/robustness/test_leaks.py", "tests/contract/test_game_contract.py",
                "tests/contract/test_words.py", "tests/archive/test_archived_reads.py")
SECONDS = {
    "tests/robustness/test_schemathesis.py": 120,
    "tests/web/test_browser.py": 230,
    "tests/cluster/": 175,
    "tests/web/test_board_play.py": 105,
    "tests/archive/test_archived_reads.py::test_every_read_of_every_game_is_the_same_after_archiving[postgresql]": 25,
    "tests/archive/test_archive_redis_faults.py": 55,
    "tests/robustness/test_leaks.py::test_no_viewer_ever_receives_another_seats_secret[smallworld-of-warcraft-5]": 35,
    "tests/test_bench_smoke.py": 52,
    "tests/archive/test_archived_reads.py::test_every_read_of_every_game_is_the_same_after_archiving[sqlite]": 22,
    "tests/web/test_page_shell.py": 45,
    "tests/contract/test_bots_see.py": 43,
    "tests/api/test_play_every_game.py": 43,
    "tests/web/test_boards_korean.py": 42,
    "tests/analysis/test_concurrent_turns.py": 39,
    "tests/robustness/test_many_streams.py": 38,
    "tests/api/test_web_push.py": 38,
    "tests/platform/test_supervisor_outages.py": 35,
    "tests/platform/test_supervisor.py": 32,
    "tests/clients/test_typescript_client.py": 28,
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
