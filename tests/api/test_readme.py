"""The README's commands work as written: the quick game's shell lines play a move on a real
server, `.ci/run` is the README's test command, and nothing links outside the repository."""
from __future__ import annotations

import json
import re
import subprocess

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text()


def _block_after(heading: str) -> list[str]:
    text = README.split(heading, 1)[1]
    lines = []
    for line in text.splitlines()[1:]:
        if line and not line.startswith("    "):
            break
        lines.append(line[4:])
    return [line for line in "\n".join(lines).strip().split("\n")]


def _commands(lines: list[str]) -> list[str]:
    """Shell commands, continuation lines joined, comments dropped."""
    joined = "\n".join(line for line in lines if not line.lstrip().startswith("#"))
    return [c.strip() for c in joined.replace("\\\n", " ").split("\n") if c.strip()]


def test_the_quick_game_runs_as_written(http_server):
    commands = _commands(_block_after("A quick game from the shell"))
    port = http_server.rsplit(":", 1)[1]
    run = lambda cmd, env: subprocess.run(["bash", "-c", cmd.replace("localhost:8000", f"localhost:{port}")],
                                          capture_output=True, text=True, timeout=20, env=env)
    created = json.loads(run(commands[0], None).stdout)
    assert commands[1].startswith("GAME=")  # the reader fills these in from the answer
    env = {"GAME": created["id"], "TOKEN": created["seats"][0]["token"], "PATH": "/usr/bin:/bin"}
    moves = json.loads(run(commands[2], env).stdout)
    sent = run(commands[3].replace("curl -s", "curl -s -w '\\n%{http_code}'"), env).stdout.rsplit("\n", 1)
    assert sent[1] == "201", sent[0]
    assert json.loads(sent[0])["version"] > created["version"]
    assert {"type": "take_gems", "colors": ["white", "blue", "green"]} in moves["moves"]
    stream = run(commands[4].replace("curl -N", "curl -N --max-time 2"), env).stdout
    assert "event: state" in stream


def test_ci_runs_the_readme_test_command():
    test_command = next(line.strip() for line in README.splitlines() if "requirements-dev.txt" in line
                        and "pytest" in line)
    assert test_command in (ROOT / ".ci" / "run").read_text()


def test_the_readme_links_nothing_outside_the_repository():
    for target in re.findall(r"\]\(([^)]+)\)", README) + re.findall(r"`(\.\./[^`]+)`", README):
        assert not target.startswith(("../", "/")), target
        if not target.startswith("http"):
            assert (ROOT / target.split("#")[0]).exists(), target
    assert "../shared" not in README


def test_the_readme_is_a_first_screen():
    """What it is, the two commands and a first game within the first screen; the rest is in docs/
    (issue 48: it had grown to 107 KB, its first curl example at line 238)."""
    assert len(README.encode()) < 15_000
    first_curl = next(n for n, line in enumerate(README.splitlines(), 1) if line.lstrip().startswith("curl "))
    assert first_curl <= 60
