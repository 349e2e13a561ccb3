"""The contract's npm tools: redocly lints openapi.yaml at zero errors, and the TypeScript client
@hey-api/openapi-ts generates from it types a move that tsc accepts (and refuses a wrong one)."""
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
