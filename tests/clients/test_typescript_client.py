"""The contract's npm tools: redocly lints openapi.yaml at zero errors, and both TypeScript
generators CI runs (@hey-api/openapi-ts, and openapi-typescript with the flags docs/integrators.md gives)
type its moves so that `tsc --strict` accepts a client narrowing the move union on `type` with no
cast (and refuses a wrong move)."""
from __future__ import annotations

import shutil

from tests.clients.conftest import TOOLS, run
from tests.conftest import ROOT


def test_the_spec_lints_without_errors(node_tools):
    done = run([str(node_tools / "redocly"), "lint", "openapi.yaml", "--format=summary"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "error " not in done.stdout, done.stdout


def test_the_typescript_client_types_a_move(node_tools):
    out = TOOLS / "ts"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    done = run([str(node_tools / "openapi-ts"), "--input", str(ROOT / "openapi.yaml"), "--output",
                str(out / "client"), "--plugins", "@hey-api/typescript", "@hey-api/client-fetch", "@hey-api/sdk"],
               cwd=TOOLS)
    assert done.returncode == 0, done.stdout + done.stderr
    (out / "play.ts").write_text(PLAY)
    (out / "tsconfig.json").write_text(TSCONFIG)
    checked = run([str(node_tools / "tsc"), "-p", str(out / "tsconfig.json")], cwd=out)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # The check can fail: a move of the wrong shape is refused.
    (out / "play.ts").write_text(PLAY.replace("// @ts-expect-error a colour Splendor has no gem of\n", ""))
    refused = run([str(node_tools / "tsc"), "-p", str(out / "tsconfig.json")], cwd=out)
    assert refused.returncode != 0 and "gold" in refused.stdout, refused.stdout


# openapi-typescript's flags (docs/integrators.md, "The contract"): without --default-non-nullable false,
# every option with a default is typed required, and `options: {}` is refused.
OPENAPI_TYPESCRIPT_FLAGS = ("--default-non-nullable", "false")


def _compile(node_tools, out, program: str):
    (out / "narrow.ts").write_text(program)
    (out / "tsconfig.json").write_text(TSCONFIG.replace("play.ts", "narrow.ts"))
    return run([str(node_tools / "tsc"), "-p", str(out / "tsconfig.json")], cwd=out)


def test_both_generators_narrow_a_move_union_without_casts(node_tools):
    out = TOOLS / "ts-narrow"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    for args in ([str(node_tools / "openapi-ts"), "--input", str(ROOT / "openapi.yaml"), "--output",
                  str(out / "hey"), "--plugins", "@hey-api/typescript"],
                 [str(node_tools / "openapi-typescript"), str(ROOT / "openapi.yaml"), "--output",
                  str(out / "ot.ts"), *OPENAPI_TYPESCRIPT_FLAGS]):
        done = run(args, cwd=TOOLS)
        assert done.returncode == 0, done.stdout + done.stderr
    for types in (HEY_TYPES, OT_TYPES):
        checked = _compile(node_tools, out, types + NARROW)
        assert checked.returncode == 0, checked.stdout + checked.stderr
    # The checks can fail: a wrong field after narrowing is refused, and so is openapi-typescript's
    # output without its flags (every defaulted option required).
    wrong = _compile(node_tools, out, HEY_TYPES + NARROW.replace("move.colors.join", "move.card.join"))
    assert wrong.returncode != 0 and "card" in wrong.stdout, wrong.stdout
    done = run([str(node_tools / "openapi-typescript"), str(ROOT / "openapi.yaml"), "--output", str(out / "ot.ts")],
               cwd=TOOLS)
    assert done.returncode == 0, done.stdout + done.stderr
    unflagged = _compile(node_tools, out, OT_TYPES + NARROW)
    assert unflagged.returncode != 0 and "strict_take_three" in unflagged.stdout, unflagged.stdout


HEY_TYPES = """\
import type { GameMove, LegalMoves, SplendorCreateGame } from './hey/types.gen';
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
