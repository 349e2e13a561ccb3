"""The native apps' clients (issue 54): openapi-generator's `kotlin` and `swift6` generate from
openapi.yaml with the configurations in clients/ (docs/apps.md). No Kotlin or Swift toolchain is
here, so the output is checked statically: every operation of the spec is a function (the tag
`webhooks` once lost five to a file collision), no model's `type` is typed `Any`, and each game's
game, view and move are their own classes under the `Game` and `GameMove` unions.

The generator is the pip package openapi-generator-cli (requirements-dev.txt; its jar inside)
and needs a Java runtime (.ci/run installs Debian's default-jre-headless): without either the
tests skip and say which. Each client is generated once and kept under var/clients/native/ by
the hash of the spec, its configuration and the generator's version, so a session whose spec did
not change generates nothing (about 20 s a client otherwise)."""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import sys
from importlib import metadata
from pathlib import Path

import pytest

from api.openapi import load_yaml
from tests.clients.conftest import TOOLS, run
from tests.conftest import ROOT

GENERATOR = Path(sys.executable).parent / "openapi-generator-cli"
NATIVE = TOOLS / "native"
KOTLIN_SOURCES = Path("src/main/kotlin/game/server/client")
SWIFT_SOURCES = Path("Sources/GameServerClient")
HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
# A field typed as anything: what a bare `const` became (issue 54: 199 of 388 Kotlin models).
KOTLIN_ANY_TYPE = re.compile(r"\bval type: (?:kotlin\.Any|Any|(?:kotlinx\.serialization\.json\.)?JsonElement)\b")
SWIFT_ANY_TYPE = re.compile(r"\bvar type: (?:AnyCodable|JSONValue|Any)\b")


# The JVM as a short run wants it: the client compiler only and the serial collector. The same
# files (compared whole, 2026-12-06), about half the CPU: a client's generation 16.5 CPU-s to 8.3
# (C2's compiler threads and the parallel collector's pay off only in runs of minutes). Read by
# the JVM itself (the wrapper passes JAVA_OPTS on as one argument).
JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"


def _spec() -> dict:
    return load_yaml((ROOT / "openapi.yaml").read_text())


def operation_ids(spec: dict) -> set[str]:
    """Every operation's id: the paths' and the top-level webhooks' (a client gets a function
    for each; a webhook's tells what the server sends)."""
    return {operation["operationId"] for section in ("paths", "webhooks") for item in spec.get(section, {}).values()
            for method, operation in item.items() if method in HTTP_METHODS}


def kotlin_operations(sources: dict[str, str]) -> list[str]:
    """The functions of the Retrofit interfaces (apis/*.kt): one per operation."""
    return [name for text in sources.values() for name in re.findall(r"^\s*(?:suspend )?fun (\w+)\(", text, re.M)]


def swift_operations(sources: dict[str, str]) -> list[str]:
    return [name for text in sources.values()
            for name in re.findall(r"^\s*open class func (\w+)WithRequestBuilder\(", text, re.M)]


def any_typed(sources: dict[str, str], pattern: re.Pattern[str]) -> list[str]:
    return sorted(name for name, text in sources.items() if pattern.search(text))


def kotlin_game_faults(models: dict[str, str], games: dict[str, dict[str, str]]) -> list[str]:
    faults = []
    game_union, move_union = models.get("Game.kt", ""), models.get("GameMove.kt", "")
    for name, parts in games.items():
        prefix = parts["view"].removesuffix("View")
        view, move = parts["view"], parts["move"]
        if not re.search(rf"\bval view: {view}\?", models.get(f"{prefix}Game.kt", "")):
            faults.append(f"{name}: {prefix}Game's view is not {view}")
        if not re.search(rf"^(?:data class|sealed interface) {view}\b", models.get(f"{view}.kt", ""), re.M):
            faults.append(f"{name}: no class {view}")
        if not re.search(rf"^(?:data class|sealed interface) {move}\b", models.get(f"{move}.kt", ""), re.M):
            faults.append(f"{name}: no class {move}")
        if not re.search(rf"\(val value: {prefix}Game\) : Game\b", game_union):
            faults.append(f"{name}: Game has no variant {prefix}Game")
        if not re.search(rf"\(val value: {move}\) : GameMove\b", move_union):
            faults.append(f"{name}: GameMove has no variant {move}")
    if "sealed interface Game " not in game_union:
        faults.append("Game is not a sealed interface over the games")
    return faults


def swift_game_faults(models: dict[str, str], games: dict[str, dict[str, str]]) -> list[str]:
    """Swift's `Game` is an enum over the games. `GameMove` is an anyOf (games share move types,
    `pass`), which swift6 merges into one struct: each game's move is still its own enum."""
    faults = []
    game_union = models.get("Game.swift", "")
    for name, parts in games.items():
        prefix = parts["view"].removesuffix("View")
        view, move = parts["view"], parts["move"]
        if not re.search(rf"\bvar view: {view}\?", models.get(f"{prefix}Game.swift", "")):
            faults.append(f"{name}: {prefix}Game's view is not {view}")
        if not re.search(rf"^public struct {view}\b", models.get(f"{view}.swift", ""), re.M):
            faults.append(f"{name}: no struct {view}")
        if not re.search(rf"^public enum {move}\b", models.get(f"{move}.swift", ""), re.M):
            faults.append(f"{name}: no enum {move}")
        if not re.search(rf"\bcase \w+\({prefix}Game\)", game_union):
            faults.append(f"{name}: Game has no case {prefix}Game")
    if not game_union.startswith("public enum Game", game_union.find("public ")):
        faults.append("Game is not an enum over the games")
    return faults


def _read(folder: Path, suffix: str) -> dict[str, str]:
    return {path.name: path.read_text() for path in sorted(folder.glob(f"*{suffix}"))}


@pytest.fixture(scope="session")
def openapi_generator() -> Path:
    if not GENERATOR.exists():
        pytest.skip("openapi-generator-cli is not installed (pip install -r requirements-dev.txt)")
    if shutil.which("java") is None:
        pytest.skip("no Java runtime for openapi-generator (apt-get install default-jre-headless; .ci/run does)")
    return GENERATOR


def generate(generator: Path, name: str) -> tuple[Path, str]:
    """The client of clients/openapi-generator-<name>.yaml, and the generator's output: generated
    only when var/clients/native has none for this spec, configuration and generator."""
    config = ROOT / "clients" / f"openapi-generator-{name}.yaml"
    digest = hashlib.sha256((ROOT / "openapi.yaml").read_bytes() + config.read_bytes()
                            + metadata.version("openapi-generator-cli").encode()).hexdigest()[:16]
    out = NATIVE / f"{name}-{digest}"
    stamp = out / ".generated-output"
    if not stamp.exists():
        for old in NATIVE.glob(f"{name}-*"):
            shutil.rmtree(old)
        done = run([str(generator), "generate", "-i", str(ROOT / "openapi.yaml"), "-c", str(config), "-o", str(out)],
                   timeout=600, env={**os.environ, "JAVA_TOOL_OPTIONS": JVM_OPTIONS})
        assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-5000:]
        stamp.write_text(done.stdout + done.stderr)
    return out, stamp.read_text()


@pytest.fixture(scope="session")
def kotlin_client(openapi_generator) -> tuple[Path, str]:
    return generate(openapi_generator, "kotlin")


@pytest.fixture(scope="session")
def swift_client(openapi_generator) -> tuple[Path, str]:
    return generate(openapi_generator, "swift6")


@pytest.mark.process
def test_kotlin_has_every_operation_no_any_typed_type_and_each_games_classes(kotlin_client):
    out, output = kotlin_client
    assert "FILEPATH_COLLISION" not in output, "a generated file overwrote another"
    spec = _spec()
    operations = kotlin_operations(_read(out / KOTLIN_SOURCES / "apis", ".kt"))
    assert sorted(operations) == sorted(operation_ids(spec)), "operations missing or doubled"
    models = _read(out / KOTLIN_SOURCES / "models", ".kt")
    assert len(models) > 300
    assert any_typed(models, KOTLIN_ANY_TYPE) == []
    assert kotlin_game_faults(models, spec["x-games"]) == []


@pytest.mark.process
def test_swift_has_every_operation_no_any_typed_type_and_each_games_classes(swift_client):
    out, output = swift_client
    assert "FILEPATH_COLLISION" not in output, "a generated file overwrote another"
    spec = _spec()
    operations = swift_operations(_read(out / SWIFT_SOURCES / "APIs", ".swift"))
    assert sorted(operations) == sorted(operation_ids(spec)), "operations missing or doubled"
    models = _read(out / SWIFT_SOURCES / "Models", ".swift")
    assert len(models) > 300
    assert any_typed(models, SWIFT_ANY_TYPE) == []
    assert swift_game_faults(models, spec["x-games"]) == []


@pytest.mark.unit
def test_the_checks_can_fail():
    """What issue 54 found in the clients generated before: an operation lost, `type: Any?`, and
    `Game` one model whose view is the Witches view for every game."""
    spec = _spec()
    ids = operation_ids(spec)
    assert len(ids) >= 117 and "createWebhook" in ids and "webhookGameStarted" in ids
    apis = {"A.kt": "interface A {\n    @GET(\"x\")\n    fun readGame(@Path(\"id\") id: String): Call<Game>\n"
                    "    suspend fun sendMove(): Response<MoveCheck>\n}"}
    assert kotlin_operations(apis) == ["readGame", "sendMove"]
    assert swift_operations({"A.swift": "    open class func readGameWithRequestBuilder(id: String)"}) == ["readGame"]
    assert any_typed({"Seat.kt": "    val type: kotlin.Any?,", "Ok.kt": "    val type: Ok.Type,"},
                     KOTLIN_ANY_TYPE) == ["Seat.kt"]
    assert any_typed({"Seat.swift": "    public var type: AnyCodable?"}, SWIFT_ANY_TYPE) == ["Seat.swift"]
    merged = {"Game.kt": "interface Game {\n    val view: WitchesView?\n}",
              "SplendorGame.kt": "data class SplendorGame (\n    val view: WitchesView?,"}
    faults = kotlin_game_faults(merged, {"splendor": spec["x-games"]["splendor"]})
    assert "splendor: SplendorGame's view is not SplendorView" in faults
    assert "Game is not a sealed interface over the games" in faults
    merged = {"Game.swift": "import Foundation\npublic struct Game: Codable {\n}"}
    assert "Game is not an enum over the games" in swift_game_faults(merged, {})
