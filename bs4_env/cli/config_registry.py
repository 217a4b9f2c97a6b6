"""The training-config registry (``configs/registry.json``): what each prime-rl config is for.

Hand-written fields (purpose, hardware, GPUs, GPU split, companion) stay as the developer wrote
them; every other field is derived from the config file, the schema provenance and the live
environment (package version, archetype set, bench manifest version). ``derived_entry`` is the
single place that derives them: ``scripts/update_config_registry.py`` writes its output and the
tests compare the committed registry with it, so a new archetype or an edited config fails CI
until the registry is updated.

The configs ship with the source repository, not with the wheel (prime-rl needs them on disk
anyway, as ``rl @ path/to/config.toml``).
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from pathlib import Path
from typing import Any

from bs4_env.tasks.manifest import load_manifest
from bs4_env.tasks.registry import default_registry

REPO_ROOT = Path(__file__).resolve().parents[2]
CONFIGS_DIR = REPO_ROOT / "configs"
PRIME_RL_DIR = CONFIGS_DIR / "prime-rl"
LEGACY_DIR = PRIME_RL_DIR / "legacy"
SCHEMA_DIR = PRIME_RL_DIR / "schema"
REGISTRY_PATH = CONFIGS_DIR / "registry.json"
PROVENANCE_PATH = SCHEMA_DIR / "PROVENANCE.json"
UPDATE_HINT = "run `python scripts/update_config_registry.py` and commit configs/registry.json"

HAND_WRITTEN = ("purpose", "hardware", "gpus", "gpu_split", "companion")
# What the environment needs from verifiers on each stack.
ENVIRONMENT_VERIFIERS = {
    "main": "v1 taskset (BeautifulSoupTaskset): verifiers>=0.4,<0.5 or a verifiers.v1 snapshot",
    "v0.8.0": "classic load_environment: verifiers.envs in prime-rl v0.8.0's pinned snapshot",
}
_HEADER = re.compile(r"^# id: (?P<id>[a-z0-9.-]+)\s+version: (?P<version>\d+)\b", re.M)

JsonObj = dict[str, Any]


class RegistryError(ValueError):
    """A config file and the registry disagree, or a config lacks its header."""


def require_configs_dir() -> Path:
    """The configs folder of a source checkout; a clear error where it is absent."""
    if not REGISTRY_PATH.is_file():
        raise FileNotFoundError(
            f"no {REGISTRY_PATH}: the training configs ship with the source repository "
            "(clone it), not with the installed package"
        )
    return CONFIGS_DIR


def config_files() -> list[Path]:
    """Every prime-rl config (``.toml``) under ``configs/prime-rl``: main first, then legacy."""
    found = [p for p in PRIME_RL_DIR.rglob("*.toml") if SCHEMA_DIR not in p.parents]
    return sorted(found, key=lambda p: (LEGACY_DIR in p.parents, p.name))


def load_toml(path: Path) -> JsonObj:
    """One config file as a dict (TOML syntax errors name the file)."""
    try:
        return tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise RegistryError(f"{path}: {error}") from None


def read_header(path: Path) -> tuple[str, int]:
    """``(id, version)`` from the comment header (``# id: X   version: N``)."""
    match = _HEADER.search(path.read_text())
    if match is None:
        raise RegistryError(f"{path}: no '# id: <id>   version: <n>' header line")
    return match["id"], int(match["version"])


def sha256_of(path: Path) -> str:
    """Hex SHA-256 of the file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def prime_rl_ref(path: Path) -> str:
    """Which prime-rl the config targets: ``v0.8.0`` under ``legacy/``, else ``main``."""
    return "v0.8.0" if LEGACY_DIR in path.parents else "main"


def config_kind(path: Path) -> str:
    """``inference`` for a vLLM server config (``*.inference.toml``), ``sft`` for a warm-start
    config (``*.sft.toml``), else ``rl``."""
    if path.name.endswith(".inference.toml"):
        return "inference"
    return "sft" if path.name.endswith(".sft.toml") else "rl"


def schema_path(ref: str, kind: str = "rl") -> Path:
    """The committed JSON schema of one prime-rl ref (``sft`` configs have their own)."""
    return SCHEMA_DIR / (
        f"prime-rl-{ref}-sft.schema.json" if kind == "sft" else f"prime-rl-{ref}.schema.json"
    )


def provenance() -> JsonObj:
    """``PROVENANCE.json``: per prime-rl ref, the commit and versions the schema came from."""
    records: JsonObj = json.loads(PROVENANCE_PATH.read_text())
    return records


def model_name(doc: JsonObj, kind: str, ref: str) -> str:
    """The policy model a config trains or serves."""
    if kind in ("rl", "sft"):
        name = doc.get("model", {}).get("name")
    elif ref == "main":
        name = doc.get("vllm", {}).get("model")
    else:
        name = doc.get("model", {}).get("name")
    if not isinstance(name, str):
        raise RegistryError(f"a {kind} config for prime-rl {ref} must name its model")
    return name


def archetype_set() -> JsonObj:
    """The archetypes a run trains on: their count and a digest of every ``id@version``."""
    specs = sorted(f"{spec.id}@{spec.version}" for spec in default_registry())
    digest = hashlib.sha256("\n".join(specs).encode()).hexdigest()[:12]
    return {"count": len(specs), "digest": digest}


def live_fields() -> JsonObj:
    """Fields that follow the environment, not the config file."""
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    return {
        "environment_version": project["version"],
        "archetypes": archetype_set(),
        "bench_version": load_manifest().version,
    }


def derived_entry(path: Path, live: JsonObj, records: JsonObj) -> JsonObj:
    """Every registry field that follows from the file, the schema provenance and ``live``."""
    config_id, version = read_header(path)
    kind, ref = config_kind(path), prime_rl_ref(path)
    record = records.get(ref)
    if record is None:
        raise RegistryError(f"{PROVENANCE_PATH} has no entry for prime-rl {ref}")
    return {
        "id": config_id,
        "file": path.relative_to(REPO_ROOT).as_posix(),
        "kind": kind,
        "version": version,
        "sha256": sha256_of(path),
        "model": model_name(load_toml(path), kind, ref),
        "prime_rl": {"ref": ref, "commit": record["commit"], "date": record["commit_date"]},
        "schema": schema_path(ref, kind).relative_to(REPO_ROOT).as_posix(),
        "verifiers": {
            "environment": ENVIRONMENT_VERIFIERS[ref],
            "prime_rl_pin": record["submodules"]["deps/verifiers"],
            "prime_rl_pin_version": record["installed"]["verifiers"],
        },
        **live,
    }


def load_registry() -> list[JsonObj]:
    """The committed registry's entries."""
    require_configs_dir()
    entries: list[JsonObj] = json.loads(REGISTRY_PATH.read_text())["configs"]
    return entries


def find_entry(entries: list[JsonObj], config_id: str) -> JsonObj:
    """One entry by id; an unknown id raises with the known ones."""
    for entry in entries:
        if entry["id"] == config_id:
            return entry
    raise RegistryError(f"no config {config_id!r}; known: {', '.join(e['id'] for e in entries)}")


def expected_registry(current: list[JsonObj]) -> list[JsonObj]:
    """The registry as it should be: hand-written fields kept, every other field derived.

    Raises ``RegistryError`` for a config without an entry (its hand-written fields must be
    added first), an entry without a file, or a changed file whose header version was not
    bumped.
    """
    by_file = {entry["file"]: entry for entry in current}
    live, records = live_fields(), provenance()
    expected: list[JsonObj] = []
    for path in config_files():
        derived = derived_entry(path, live, records)
        old = by_file.pop(derived["file"], None)
        if old is None:
            raise RegistryError(
                f"{derived['file']} has no registry entry: add one to {REGISTRY_PATH.name} "
                f"with {list(HAND_WRITTEN)} (file and id suffice for the rest)"
            )
        missing = [name for name in HAND_WRITTEN if name not in old]
        if missing:
            raise RegistryError(f"registry entry {derived['id']} lacks {missing}")
        if (
            old.get("sha256") not in (None, derived["sha256"])
            and old.get("version") == (derived["version"])
        ):
            raise RegistryError(
                f"{derived['file']} changed: bump 'version' in its header (now "
                f"{derived['version']}) before updating the registry"
            )
        expected.append({**derived, **{name: old[name] for name in HAND_WRITTEN}})
    if by_file:
        raise RegistryError(f"registry entries without a config file: {sorted(by_file)}")
    ids = [entry["id"] for entry in expected]
    if len(set(ids)) != len(ids):
        raise RegistryError(f"duplicate config ids in headers: {ids}")
    return expected


def registry_document(entries: list[JsonObj]) -> str:
    """The registry file's text (stable key order, trailing newline)."""
    return json.dumps({"configs": entries}, indent=2, sort_keys=True) + "\n"
