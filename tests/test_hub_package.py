"""The package's Hub metadata, as both forms of prime-environments' environment test read it.

Its older form requires ``[project] tags``; its current form takes ``keywords`` or ``tags``.
Both require a name, a version, a description that is no placeholder, and a README. Peers
also declare ``[tool.verifiers.eval]`` defaults (a few examples x a few rollouts), which
classic ``vf-eval`` and the Hub read, and keep a changelog the README links.
(tests/e2e/test_hub_install.py installs, imports, loads and evaluates the package.)
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
PLACEHOLDER_TAGS = ["placeholder-tag", "train", "eval"]


def test_metadata_as_the_current_environment_test_reads_it() -> None:
    for key in ("name", "version", "description"):
        assert PROJECT.get(key), key
    assert PROJECT["description"] != "Your environment description here"
    keywords = PROJECT.get("keywords", PROJECT.get("tags"))
    assert keywords and keywords != PLACEHOLDER_TAGS
    assert (ROOT / "README.md").is_file()


def test_metadata_as_the_older_environment_test_reads_it() -> None:
    tags = PROJECT.get("tags")
    assert isinstance(tags, list) and tags and tags != PLACEHOLDER_TAGS
    assert all(isinstance(tag, str) and tag == tag.lower() for tag in tags)


def test_eval_defaults_are_a_quick_look() -> None:
    defaults = PYPROJECT["tool"]["verifiers"]["eval"]
    assert set(defaults) == {"num_examples", "rollouts_per_example"}
    assert all(isinstance(v, int) and 1 <= v <= 10 for v in defaults.values()), defaults


def test_changelog_names_this_version_and_the_readme_links_it() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## \[?(\d+\.\d+\.\d+)", changelog, re.M)
    assert versions and versions[0] == PROJECT["version"], versions
    assert "](CHANGELOG.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_sdist_ships_what_the_readme_links() -> None:
    include = PYPROJECT["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    assert {"/README.md", "/CHANGELOG.md", "/docs"} <= set(include)
