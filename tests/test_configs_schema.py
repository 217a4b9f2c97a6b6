"""Every prime-rl config validates against prime-rl's own schema at the pinned commit.

The schemas are exported from fetched prime-rl checkouts by ``scripts/export_prime_rl_schema.py``
(provenance in ``configs/prime-rl/schema/PROVENANCE.json``). prime-rl resolves
``env.taskset`` to the installed taskset's own config class, so the schema knows only the base
taskset keys; our keys are set aside here and checked by our own config
(``test_configs.py``, ``test_configs_taskset.py``).
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from bs4_env.cli.config_registry import (
    PRIME_RL_DIR,
    config_files,
    config_kind,
    load_toml,
    prime_rl_ref,
    provenance,
    schema_path,
)

Doc = dict[str, Any]


@cache
def _schema(ref: str) -> Doc:
    schema: Doc = json.loads(schema_path(ref).read_text())
    return schema


def _validator(ref: str, kind: str) -> jsonschema.Draft202012Validator:
    if kind == "sft":  # warm-start configs: prime-rl's SFTConfig schema
        sft: Doc = json.loads(schema_path(ref, "sft").read_text())
        return jsonschema.Draft202012Validator(sft)
    schema = _schema(ref)
    root = schema["$ref"] if kind == "rl" else "#/$defs/InferenceConfig"
    return jsonschema.Draft202012Validator({**schema, "$ref": root})


def _without_our_taskset_keys(doc: Doc, ref: str) -> Doc:
    """A copy whose taskset tables keep only the keys prime-rl's base taskset config owns."""
    base = set(_schema(ref)["$defs"]["TasksetConfig"]["properties"])
    doc = copy.deepcopy(doc)
    for group in ("train", "eval"):
        for source in doc.get("orchestrator", {}).get(group, {}).get("source", []):
            taskset = source.get("env", {}).get("taskset", {})
            for key in [k for k in taskset if k not in base]:
                del taskset[key]
    return doc


def _errors(doc: Doc, ref: str, kind: str) -> list[str]:
    validator = _validator(ref, kind)
    found = validator.iter_errors(_without_our_taskset_keys(doc, ref))
    return [f"{'.'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}" for e in found]


def _name(path: Path) -> str:
    return path.relative_to(PRIME_RL_DIR).as_posix()


@pytest.mark.parametrize("path", config_files(), ids=_name)
def test_config_validates_against_the_pinned_prime_rl_schema(path: Path) -> None:
    errors = _errors(load_toml(path), prime_rl_ref(path), config_kind(path))
    assert not errors, "\n".join(errors)


def test_schemas_have_provenance() -> None:
    records = provenance()
    for ref in ("main", "v0.8.0"):
        assert records[ref]["schema"] == schema_path(ref).name
        assert len(records[ref]["commit"]) == 40
        assert "deps/verifiers" in records[ref]["submodules"]


def _main_config() -> Doc:
    return load_toml(PRIME_RL_DIR / "qwen3-4b-lora-2xh100.toml")


@pytest.mark.parametrize(
    ("where", "mutate", "expected"),
    [
        ("stray table", lambda d: d.update(config={"version": 1}), "'config' was unexpected"),
        (
            "stray key",
            lambda d: d["orchestrator"].update(batch_sise=256),
            "'batch_sise' was unexpected",
        ),
        (
            "wrong type",
            lambda d: d["orchestrator"].update(batch_size="256"),
            "orchestrator.batch_size",
        ),
        ("wrong type", lambda d: d.update(seq_len=1.5), "seq_len"),
        (
            "unknown variant",
            lambda d: d["trainer"]["optim"].update(type="adamx"),
            "trainer.optim.type",
        ),
        (
            "key of another variant",
            lambda d: d["trainer"]["optim"].update(momentum=0.9),
            "'momentum' was unexpected",
        ),
        (
            "stray agent key",
            lambda d: d["orchestrator"]["train"]["source"][0]["env"]["agent"].update(mx_turns=3),
            "'mx_turns' was unexpected",
        ),
        (
            "old shape",
            lambda d: d.update(wandb={"project": "x"}),
            "'wandb' was unexpected",
        ),
    ],
)
def test_schema_check_catches_mistakes(where: str, mutate: Any, expected: str) -> None:
    doc = _main_config()
    assert not _errors(doc, "main", "rl")
    mutate(doc)
    errors = _errors(doc, "main", "rl")
    assert any(expected in error for error in errors), f"{where}: {errors}"


def test_schema_accepts_what_the_loader_accepts() -> None:
    doc = _main_config()
    # pydantic-config fills in the default variant's tag, and reads "None" as null.
    doc["trainer"]["optim"] = {"lr": 2e-5}
    doc["inference"]["router"] = "None"
    assert not _errors(doc, "main", "rl")
    doc["trainer"]["optim"] = {"type": "sgd", "lr": 2e-5, "momentum": 0.9}
    assert not _errors(doc, "main", "rl")
