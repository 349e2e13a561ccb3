"""The contract's npm tools: redocly lints openapi.yaml at zero errors, and both TypeScript
generators CI runs (@hey-api/openapi-ts, and openapi-typescript with the flags docs/integrators.md gives)
type its moves so that `tsc --strict` accepts a client narrowing the move union on `type` with no
cast (and refuses a wrong move)."""
from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.clients.conftest import TOOLS, run
from tests.conftest import ROOT


def test_the_spec_lints_without_errors(node_tools):
    done = run([str(node_tools / "redocly"), "lint", "openapi.yaml", "--format=summary"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "error " not in done.stdout, done.stdout


# openapi-typescript's flags (docs/integrators.md, "The contract"): without --default-non-nullable false,
# every option with a default is typed required, and `options: {}` is refused.
OPENAPI_TYPESCRIPT_FLAGS = ("--default-non-nullable", "false")


@pytest.fixture(scope="module")
def generated(node_tools) -> Path:
    """Both generators' output: @hey-api/openapi-ts's client (types, fetch client, SDK) in
    client/, openapi-typescript's types with docs/integrators.md's flags in ot.ts and without
    them in ot_unflagged.ts. Generated only when var/clients has none for this spec, these
    commands and the pinned tools (as the native clients are: about 15 CPU-s a run otherwise)."""
    spec = str(ROOT / "openapi.yaml")
    commands = [[str(node_tools / "openapi-ts"), "--input", spec, "--output", "client",
                 "--plugins", "@hey-api/typescript", "@hey-api/client-fetch", "@hey-api/sdk"],
                [str(node_tools / "openapi-typescript"), spec, "--output", "ot.ts", *OPENAPI_TYPESCRIPT_FLAGS],
                [str(node_tools / "openapi-typescript"), spec, "--output", "ot_unflagged.ts"]]
    digest = hashlib.sha256((ROOT / "openapi.yaml").read_bytes() + (ROOT / "clients" / "package-lock.json").read_bytes()
                            + json.dumps(commands).encode()).hexdigest()[:16]
    out = TOOLS / f"ts-{digest}"
    stamp = out / ".generated"
    if not stamp.exists():
        for old in [TOOLS / "ts", *TOOLS.glob("ts-*")]:
            shutil.rmtree(old, ignore_errors=True)
        out.mkdir(parents=True)
        for args in commands:
            done = run(args, cwd=out)
            assert done.returncode == 0, done.stdout + done.stderr
        stamp.write_text(digest)
    return out


def _compile(node_tools, out: Path, programs: dict[str, str]) -> subprocess.CompletedProcess:
    """`tsc --strict` over the given files (name -> source), in one run."""
    for name, source in programs.items():
        (out / name).write_text(source)
    (out / "tsconfig.json").write_text(TSCONFIG.replace('["play.ts"]', json.dumps(list(programs))))
    return run([str(node_tools / "tsc"), "-p", str(out / "tsconfig.json")], cwd=out)


def _errors_in(checked: subprocess.CompletedProcess, name: str) -> str:
    return "\n".join(line for line in checked.stdout.splitlines() if line.startswith(name))


WRONG = ("wrong_move.ts", "wrong_field.ts", "unflagged.ts")


@pytest.fixture(scope="module")
def checked(node_tools, generated) -> subprocess.CompletedProcess:
    """One `tsc --strict` run over both tests' files (each tsc run loads the generated types
    again: most of its time): the programs that must type-check and those that must not."""
    return _compile(node_tools, generated, {
        "play.ts": PLAY, "narrow_hey.ts": HEY_TYPES + NARROW, "narrow_ot.ts": OT_TYPES + NARROW,
        "wrong_move.ts": PLAY.replace("// @ts-expect-error a colour Splendor has no gem of\n", ""),
        "wrong_field.ts": HEY_TYPES + NARROW.replace("move.colors.join", "move.card.join"),
        "unflagged.ts": OT_TYPES.replace("'./ot'", "'./ot_unflagged'") + NARROW})


def _error_lines(checked: subprocess.CompletedProcess) -> list[str]:
    """tsc's diagnostics, one line each (`file(line,col): error TS...`), their continuations left out."""
    return [line for line in checked.stdout.splitlines() if ": error TS" in line and not line.startswith(" ")]


def test_both_generators_type_a_move_and_narrow_the_move_union_without_casts(checked):
    """A client of hey-api's SDK sends a typed move; with either generator's types, the generic
    move union narrows on `type` to each game's own move: no error anywhere but in the files
    written wrong on purpose (test_the_checks_can_fail), the generated ones included."""
    # Errors in exactly the wrong files: none elsewhere, and tsc did check the program.
    assert {line.split("(", 1)[0] for line in _error_lines(checked)} == set(WRONG), checked.stdout + checked.stderr


def test_the_checks_can_fail(checked):
    """A move of the wrong shape is refused, so is a wrong field after narrowing, and so is
    openapi-typescript's output without its flags (every defaulted option required): each file's
    own error, in the same tsc run."""
    assert checked.returncode != 0
    assert "gold" in _errors_in(checked, "wrong_move.ts"), checked.stdout
    assert "card" in _errors_in(checked, "wrong_field.ts"), checked.stdout
    assert "strict_take_three" in _errors_in(checked, "unflagged.ts"), checked.stdout


HEY_TYPES = """\
import type { GameMove, LegalMoves, SplendorCreateGame } from './client/types.gen';
"""

OT_TYPES = """\
import type { components } from './ot';
type GameMove = components['schemas']['GameMove'];
type LegalMoves = components['schemas']['LegalMoves'];
type SplendorCreateGame = components['schemas']['SplendorCreateGame'];
"""

# The same code for both generators: the generic move union (legal moves' items, what a move
# request takes) narrows on `type` to each game's own move, no cast.
NARROW = """\
export function describe(move: GameMove): string {
  switch (move.type) {
    case 'take_gems': return move.colors.join(' ');          // Splendor
    case 'reserve_blind': return `level ${move.level}`;
    case 'pass_cards': return move.cards.join(' ');          // Witches
    case 'lay_tile': return `rotated ${move.rotation}`;      // Fairy Tile
    case 'conquer': return move.region;                      // Small World
    case 'swap': return move.type;                           // SetUp
    default: return move.type;
  }
}

export const listed = (page: LegalMoves): string[] => page.moves.map(describe);

// Every option has a default: a game is created with none of them.
export const create: SplendorCreateGame = { type: 'splendor', seats: [{ name: 'Ann' }, { bot: 'random' }], options: {} };
"""

PLAY = """\
import { sendMove } from './client/sdk.gen';
import type { GameMove, MoveRequest, SplendorGame, SplendorMove, SplendorTakeGems } from './client/types.gen';

export const take: SplendorTakeGems = { type: 'take_gems', colors: ['white', 'blue', 'green'] };
export const request: MoveRequest = { expected_version: 2, move: take };

// A Splendor game's moves narrow on `type` to the move's own fields.
export function describe(move: SplendorMove): string {
  switch (move.type) {
    case 'take_gems': return move.colors.join(' ');
    case 'buy': return `${move.card} for ${Object.keys(move.payment).length} colours`;
    default: return move.type;
  }
}

export function points(game: SplendorGame): number[] {
  return game.view?.players.map((player) => player.points) ?? [];
}

export const sent = (id: string, move: GameMove) =>
  sendMove({ path: { id }, body: { expected_version: 2, move }, headers: { 'Idempotency-Key': 'k' } });

// @ts-expect-error a colour Splendor has no gem of
export const wrong: SplendorTakeGems = { type: 'take_gems', colors: ['gold'] };
"""

TSCONFIG = """\
{
  "compilerOptions": {
    "strict": true, "noEmit": true, "target": "ES2022", "module": "ESNext",
    "moduleResolution": "Bundler", "lib": ["ES2022", "DOM", "DOM.Iterable"], "skipLibCheck": true
  },
  "files": ["play.ts"]
}
"""
