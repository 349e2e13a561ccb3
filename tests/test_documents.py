"""The documents hold to their sources and their forms: docs/api.md and docs/errors.md are what
`python -m tools.api_reference` writes from openapi.yaml and the error catalogue, CHANGELOG.md is
in the Keep a Changelog form with SemVer versions and dates, openapi.yaml's `info.version` is no
lower than the latest release (docs/api-policy.md), and every link between the documents leads to
a file of the repository."""
from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from packaging.version import Version

from api.openapi import load_yaml
from tools import api_reference

ROOT = Path(__file__).resolve().parent.parent
CHANGELOG = (ROOT / "CHANGELOG.md").read_text()
RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$")
SECTIONS = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def test_the_generated_pages_are_current():
    for path, text in api_reference.pages().items():
        assert path.read_text() == text, f"{path.relative_to(ROOT)} is stale: run python -m tools.api_reference"


def _releases() -> list[tuple[Version, date]]:
    return [(Version(m.group(1)), date.fromisoformat(m.group(2)))
            for m in map(RELEASE.match, CHANGELOG.splitlines()) if m]


def test_the_changelog_keeps_its_form():
    headings = [line for line in CHANGELOG.splitlines() if line.startswith("## ")]
    assert headings[0] == "## [Unreleased]"
    assert all(RELEASE.match(h) for h in headings[1:]), [h for h in headings[1:] if not RELEASE.match(h)]
    releases = _releases()
    assert releases == sorted(releases, reverse=True), "newest first, each later than the one below it"
    assert len({v for v, _ in releases}) == len(releases)
    kinds = {line[4:] for line in CHANGELOG.splitlines() if line.startswith("### ")}
    assert kinds <= SECTIONS, kinds - SECTIONS


def test_the_specs_version_is_no_lower_than_the_latest_release():
    spec_version = Version(load_yaml((ROOT / "openapi.yaml").read_text())["info"]["version"])
    latest = _releases()[0][0]
    assert spec_version >= latest, f"openapi.yaml's info.version {spec_version} is below the release {latest}"
    assert not spec_version.is_prerelease and len(str(spec_version).split(".")) == 3


def test_every_link_between_the_documents_leads_somewhere():
    documents = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
    for document in documents:
        for target in re.findall(r"\]\(([^)\s]+)\)", document.read_text()):
            if target.startswith(("http://", "https://", "#", "mailto:")):
                continue
            assert (document.parent / target.split("#")[0]).resolve().exists(), f"{document.name}: {target}"
