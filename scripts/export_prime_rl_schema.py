"""Export prime-rl's ``rl`` config schema (JSON Schema) from a fetched prime-rl checkout.

prime-rl is not on the package index, so CI cannot import it: this script runs once per pinned
prime-rl commit, in a Python 3.12 virtualenv that has the checkout's config package importable
(``packages/prime-rl-configs``: pydantic only, no torch or GPU) plus the verifiers commit that
prime-rl pins as its submodule. It writes the JSON schema that CI validates every
``configs/prime-rl`` TOML against (``tests/test_configs_schema.py``) and records where it came
from in ``configs/prime-rl/schema/PROVENANCE.json``.

The schema is pydantic's own ``model_json_schema`` of ``prime_rl.configs.rl.RLConfig`` with
three rewrites, each mirroring what prime-rl does at load time so the check is neither looser
nor stricter than the real loader:

1. ``env`` of every train/eval source is narrowed from the base ``vf.EnvConfig`` to
   ``vf.SingleAgentEnvConfig``: prime-rl narrows it by id at load time, and a plain taskset
   (ours) resolves to the single-agent env (its ``[env.agent]`` table).
2. pydantic-config injects the default variant's ``type`` into a discriminated-union table
   that omits it, when the field's default is a model: such unions become ``if``/``then``
   chains keyed on ``type`` (JSON Schema's ``oneOf`` would reject a table that fits several
   variants, and ``discriminator`` is not a validation keyword).
3. pydantic-config reads the TOML string ``"None"`` as null: every nullable value accepts it.

The taskset's own fields (``split``, ``mode``, ...) are not in this schema: prime-rl resolves
``env.taskset`` to the installed taskset's config class, so the tests check those keys with our
own ``BS4TasksetConfig`` instead.

Run (see ``configs/prime-rl/schema/PROVENANCE.json`` for the exact commands used)::

    python scripts/export_prime_rl_schema.py --checkout /path/to/prime-rl \\
        --git-dir /path/to/prime-rl/.git --commit <sha> --ref main \\
        --out configs/prime-rl/schema/prime-rl-main.schema.json
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import importlib.metadata
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = "PrimeIntellect-ai/prime-rl"
DIST_VERSIONS = ("verifiers", "pydantic", "prime-pydantic-config", "renderers", "prime-rl-configs")
JsonObj = dict[str, Any]


def _git(git_dir: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", f"--git-dir={git_dir}", *args], capture_output=True, text=True, check=True
    )
    return result.stdout.strip()


def _submodule_pins(git_dir: Path, commit: str) -> dict[str, str]:
    """The commits prime-rl pins its ``deps/`` submodules to (gitlinks in the tree)."""
    pins: dict[str, str] = {}
    for line in _git(git_dir, "ls-tree", commit, "deps/").splitlines():
        meta, path = line.split("\t", 1)
        _mode, kind, sha = meta.split()
        if kind == "commit":
            pins[path] = sha
    return pins


def _import_configs(checkout: Path) -> tuple[type[Any], type[Any]]:
    """``RLConfig`` from the checkout's config package, and verifiers' single-agent env config."""
    src = checkout / "packages" / "prime-rl-configs" / "src"
    if not (src / "prime_rl" / "configs" / "rl.py").is_file():
        raise SystemExit(f"{checkout} has no packages/prime-rl-configs/src/prime_rl/configs/rl.py")
    sys.path.insert(0, str(src))
    rl_module = importlib.import_module("prime_rl.configs.rl")
    loaded_from = Path(rl_module.__file__ or "").resolve()
    if not loaded_from.is_relative_to(src.resolve()):
        raise SystemExit(f"prime_rl.configs.rl was imported from {loaded_from}, not from {src}")
    vf = importlib.import_module("verifiers.v1")
    return rl_module.RLConfig, vf.SingleAgentEnvConfig


def _def_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _narrow_env(defs: JsonObj, env_def: str) -> None:
    """Point every source's ``env`` at the single-agent env config (rewrite 1)."""
    narrowed = 0
    for name, schema in defs.items():
        env = schema.get("properties", {}).get("env")
        if name.endswith("SourceConfig") and env and env.get("$ref") == "#/$defs/EnvConfig":
            env["$ref"] = f"#/$defs/{env_def}"
            narrowed += 1
    if narrowed == 0:
        raise SystemExit(
            "found no *SourceConfig.env referring to EnvConfig: has the shape changed?"
        )


def _tagged_union(node: JsonObj) -> JsonObj:
    """A discriminated ``oneOf`` as an ``if``/``then`` chain on the tag (rewrite 2)."""
    tag = node["discriminator"]["propertyName"]
    mapping: dict[str, str] = node["discriminator"]["mapping"]
    union: JsonObj = {
        "type": "object",
        "required": [tag],
        "properties": {tag: {"enum": sorted(mapping)}},
        "allOf": [
            {"if": {"properties": {tag: {"const": value}}}, "then": {"$ref": ref}}
            for value, ref in sorted(mapping.items())
        ],
    }
    default = node.get("default")
    if isinstance(default, dict) and default.get(tag) in mapping:
        # pydantic-config fills in the default variant's tag when a table leaves it out.
        union = {
            "if": {"type": "object", "not": {"required": [tag]}},
            "then": {"$ref": mapping[default[tag]]},
            "else": union,
        }
    kept = {k: v for k, v in node.items() if k not in ("oneOf", "discriminator")}
    return {**kept, **union}


def _rewrite(node: Any) -> Any:
    """Apply rewrites 2 and 3 everywhere below ``node``."""
    if isinstance(node, list):
        return [_rewrite(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _rewrite(value) for key, value in node.items()}
    if "discriminator" in node and "oneOf" in node:
        node = _tagged_union(node)
    any_of = node.get("anyOf")
    if isinstance(any_of, list) and {"type": "null"} in any_of:
        node["anyOf"] = [*any_of, {"const": "None"}]
    return node


def build_schema(checkout: Path) -> JsonObj:
    """The rewritten JSON schema of ``RLConfig`` (root) with every definition in ``$defs``."""
    from pydantic.json_schema import models_json_schema

    rl_config, env_config = _import_configs(checkout)
    refs, top = models_json_schema([(rl_config, "validation"), (env_config, "validation")])
    defs: JsonObj = top["$defs"]
    _narrow_env(defs, _def_name(refs[(env_config, "validation")]["$ref"]))
    schema: JsonObj = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": refs[(rl_config, "validation")]["$ref"],
        "$defs": defs,
    }
    rewritten: JsonObj = _rewrite(schema)
    return rewritten


def provenance(args: argparse.Namespace, out: Path) -> JsonObj:
    """Where the schema came from: repository, commit, its date, pins, versions, command."""
    versions = {name: importlib.metadata.version(name) for name in DIST_VERSIONS}
    return {
        "repo": REPO,
        "ref": args.ref,
        "commit": args.commit,
        "commit_date": _git(args.git_dir, "show", "-s", "--format=%cI", args.commit),
        "submodules": _submodule_pins(args.git_dir, args.commit),
        "python": sys.version.split()[0],
        "installed": versions,
        "exported": dt.datetime.now(dt.UTC).date().isoformat(),
        "command": shlex.join(["python", "scripts/export_prime_rl_schema.py", *sys.argv[1:]]),
        "schema": out.name,
        "rewrites": [
            "sources' env narrowed to vf.SingleAgentEnvConfig",
            "discriminated unions as if/then on the tag; default variant when the tag is absent",
            'nullable values accept the TOML string "None"',
        ],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--checkout", type=Path, required=True, help="prime-rl source tree")
    parser.add_argument("--git-dir", type=Path, required=True, help="git dir holding --commit")
    parser.add_argument("--commit", required=True, help="the commit the checkout is of")
    parser.add_argument("--ref", required=True, help="branch or tag name, e.g. main or v0.8.0")
    parser.add_argument("--out", type=Path, required=True, help="schema file to write")
    args = parser.parse_args()
    resolved = _git(args.git_dir, "rev-parse", f"{args.commit}^{{commit}}")
    if resolved != args.commit:
        raise SystemExit(f"--commit must be a full sha; {args.commit!r} is {resolved}")
    schema = build_schema(args.checkout)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(schema, indent=1, sort_keys=True) + "\n")
    record_path = args.out.parent / "PROVENANCE.json"
    records: JsonObj = json.loads(record_path.read_text()) if record_path.exists() else {}
    records[args.ref] = provenance(args, args.out)
    record_path.write_text(json.dumps(records, indent=2, sort_keys=True) + "\n")
    print(f"wrote {args.out} ({len(schema['$defs'])} definitions) and {record_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
