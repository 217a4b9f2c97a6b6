"""Hub readiness: the sdist and the wheel that `prime env push` builds carry what they should.

`prime env push` builds the package with `uv build` and classifies it as a verifiers v1
environment from the lower bound of its unconditional `verifiers` requirement (prime CLI 0.18,
`prime_cli/utils/environment_runtime.py`: a floor at or above 0.2.0 means v1).
"""

from __future__ import annotations

import email
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from bs4_env.cli.config_registry import REPO_ROOT

pytestmark = pytest.mark.slow

PROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
# Top-level folders and files that must stay out, and build litter anywhere.
JUNK_TOP = ("tests/", "scripts/", "outputs/", ".venv/", "dist/", "TEST_RECORDS.md", ".ci/", "lab/")
# The learning lab is a distribution of its own (lab/): none of its code or training stack may
# reach the environment's wheel, in any extra.
LAB_MODULES = ("bs4_lab/", "lab/bs4_lab/", "bs4_env/cli/learn_cmd.py")
HEAVY = frozenset({"torch", "transformers", "peft", "gguf", "xllamacpp"})
JUNK_ANYWHERE = ("__pycache__", ".pyc", ".results.json")
PRIME_V1_FLOOR = Version("0.2.0")


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    if uv is None:
        pytest.fail("uv is not installed (it is in the dev extra)")
    subprocess.run(
        [uv, "build", "--sdist", "--wheel", "--out-dir", str(out), str(REPO_ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return out


def _junk(names: set[str]) -> list[str]:
    return sorted(n for n in names if n.startswith(JUNK_TOP) or any(j in n for j in JUNK_ANYWHERE))


def _one(dist: Path, pattern: str) -> Path:
    found = list(dist.glob(pattern))
    assert len(found) == 1, found
    return found[0]


def _package_files() -> set[str]:
    """Every source and data file of the two packages, as it is laid out in the wheel."""
    return {
        p.relative_to(REPO_ROOT).as_posix()
        for package in ("bs4_env", "beautiful_soup_env")
        for p in (REPO_ROOT / package).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }


def test_wheel_carries_the_packages_and_data_and_no_junk(dist: Path) -> None:
    wheel = _one(dist, "beautiful_soup_env-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert _package_files() <= names
    assert "bs4_env/tasks/data/bench_manifest.json" in names
    # The real-page rows ship; the pages (third-party captures) never do: they are fetched.
    assert "bs4_env/real/data/real.jsonl" in names
    assert not [n for n in names if n.endswith((".html", ".htm", ".html.gz", ".warc"))]
    assert not _junk(names)


def test_wheel_metadata_reads_as_a_v1_environment(dist: Path) -> None:
    wheel = zipfile.ZipFile(_one(dist, "beautiful_soup_env-*.whl"))
    meta_name = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
    meta = email.message_from_bytes(wheel.read(meta_name))
    assert meta["Name"] == PROJECT["name"] and meta["Version"] == PROJECT["version"]
    assert meta["Summary"] == PROJECT["description"]
    assert meta["Description-Content-Type"] == "text/markdown"
    assert "# beautiful-soup-env" in (meta.get_payload() or "")
    verifiers = [
        r
        for r in map(Requirement, meta.get_all("Requires-Dist") or [])
        if r.name == "verifiers" and r.marker is None
    ]
    assert len(verifiers) == 1
    floors = [Version(s.version) for s in verifiers[0].specifier if s.operator in (">=", "==")]
    assert floors and max(floors) >= Version("0.4") >= PRIME_V1_FLOOR
    entry_points = next(n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt"))
    assert "bs4-env = bs4_env.cli.main:main" in wheel.read(entry_points).decode()


def test_wheel_holds_no_lab_code_and_no_training_stack(dist: Path) -> None:
    wheel = zipfile.ZipFile(_one(dist, "beautiful_soup_env-*.whl"))
    names = wheel.namelist()
    assert not [n for n in names if n.startswith(LAB_MODULES) or "/learn/" in n]
    meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
    meta = email.message_from_bytes(wheel.read(meta_name))
    requirements = [Requirement(r) for r in meta.get_all("Requires-Dist") or []]
    assert requirements, "the metadata lists the requirements"
    heavy = [str(r) for r in requirements if r.name in HEAVY]
    assert not heavy, heavy
    assert "learn" not in (meta.get_all("Provides-Extra") or [])
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "bs4_lab" not in wheel.read(entry_points).decode()


def test_sdist_carries_packages_configs_readme_docs_and_no_junk(dist: Path) -> None:
    sdist = _one(dist, "beautiful_soup_env-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    for required in (
        "pyproject.toml",
        "README.md",
        "CHANGELOG.md",
        "configs/registry.json",
        "PKG-INFO",
    ):
        assert required in names
    assert _package_files() <= names
    configs = {
        p.relative_to(REPO_ROOT).as_posix()
        for p in (REPO_ROOT / "configs").rglob("*")
        if p.is_file()
    }
    assert configs <= names
    docs = {p.relative_to(REPO_ROOT).as_posix() for p in (REPO_ROOT / "docs").rglob("*.md")}
    assert docs and docs <= names
    assert not _junk(names)
