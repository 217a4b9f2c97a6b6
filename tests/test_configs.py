"""The prime-rl configs: registry in step, batch and sequence invariants, taskset arguments.

Schema conformance is in ``test_configs_schema.py``; the v1 taskset tables are built into the
real ``BS4TasksetConfig`` in ``test_configs_taskset.py`` (it imports verifiers).
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from bs4_env.cli.config_budget import (
    PROMPT_ALLOWANCE_CHARS,
    BudgetError,
    episode_budget,
    source_limits,
    sources,
)
from bs4_env.cli.config_registry import (
    PRIME_RL_DIR,
    REPO_ROOT,
    UPDATE_HINT,
    config_files,
    config_kind,
    expected_registry,
    find_entry,
    load_registry,
    load_toml,
    prime_rl_ref,
    read_header,
)
from bs4_env.cli.main import main
from bs4_env.episode.prompt import SYSTEM_PROMPT, user_prompt
from bs4_env.episode.tool_schema import openai_tools
from bs4_env.integrations.verifiers_classic.options import ClassicOptions
from bs4_env.tasks.modes import DatasetConfig, select_archetypes
from bs4_env.tasks.registry import build_task, default_registry
from bs4_env.tasks.splits import SPLIT_BASES, seed_for

RL_CONFIGS = [p for p in config_files() if config_kind(p) == "rl"]
SFT_CONFIGS = [p for p in config_files() if config_kind(p) == "sft"]
# The first header line of an SFT config names the RL config it warms up.
HANDS_OVER_TO = re.compile(r"\(then RL: (?P<id>[a-z0-9.-]+)\)")
QWEN25_RENDERER = {
    "name": "custom",
    "import_path": "bs4_env.integrations.qwen25_renderer.Qwen25Renderer",
}
# One-GPU configs: no [inference] table, vLLM is started by hand from a companion config.
SHARED_GPU = [p for p in RL_CONFIGS if "inference" not in load_toml(p)]
DATASET_KEYS = {f.name for f in fields(DatasetConfig)}


def _name(path: Path) -> str:
    return path.relative_to(PRIME_RL_DIR).as_posix()


def _companion(path: Path) -> dict[str, Any] | None:
    """The hand-started inference config that serves an rl config without [inference]."""
    entry = find_entry(load_registry(), read_header(path)[0])
    if entry["companion"] is None:
        return None
    return load_toml(
        PRIME_RL_DIR.parent.parent / find_entry(load_registry(), entry["companion"])["file"]
    )


def _vllm(doc: dict[str, Any], ref: str, top: bool) -> dict[str, Any]:
    """The vLLM settings of an rl config's [inference] (``top=False``) or an inference config."""
    table = doc if top else doc["inference"]
    inner = table.get("vllm" if ref == "main" else "model", {})
    return {**table, **inner}


def test_registry_matches_files_and_live_environment() -> None:
    current = load_registry()
    expected = expected_registry(current)
    stale = [
        f"{old['id']}.{key}: {old.get(key)!r} -> {new[key]!r}"
        for old, new in zip(current, expected, strict=False)
        for key in new
        if old.get(key) != new[key]
    ]
    assert len(current) == len(expected), f"entries differ in number: {UPDATE_HINT}"
    assert not stale, f"configs/registry.json is stale ({UPDATE_HINT}):\n" + "\n".join(stale)


def test_every_config_is_in_the_registry_with_a_header() -> None:
    files = {e["file"] for e in load_registry()}
    assert RL_CONFIGS and len(files) == len(config_files())
    for path in config_files():
        assert path.relative_to(REPO_ROOT).as_posix() in files
        config_id, version = read_header(path)
        assert version >= 1 and config_id


@pytest.mark.parametrize("path", RL_CONFIGS, ids=_name)
def test_batch_and_sequence_invariants(path: Path) -> None:
    doc = load_toml(path)
    orchestrator = doc["orchestrator"]
    assert orchestrator["batch_size"] % orchestrator["group_size"] == 0
    orch_seq = orchestrator.get("seq_len", doc.get("seq_len"))
    trainer_seq = doc.get("trainer", {}).get("model", {}).get("seq_len", doc.get("seq_len"))
    assert isinstance(orch_seq, int) and isinstance(trainer_seq, int)
    assert trainer_seq >= orch_seq
    ref = prime_rl_ref(path)
    companion = _companion(path)
    vllm = _vllm(companion, ref, top=True) if companion else _vllm(doc, ref, top=False)
    assert vllm["max_model_len"] >= orch_seq
    for group, source in sources(doc):
        budget = episode_budget(source_limits(doc, group, source))
        assert budget.total <= orch_seq, f"{group} {source['name']}: {budget} > {orch_seq}"


@pytest.mark.parametrize("path", RL_CONFIGS, ids=_name)
def test_splits_curriculum_and_gpus(path: Path) -> None:
    doc = load_toml(path)
    entry = find_entry(load_registry(), read_header(path)[0])
    for group, source in sources(doc):
        args = source["legacy"]["args"] if "legacy" in source else source["env"]["taskset"]
        assert args["split"] == ("train" if group == "train" else "bench")
    train = doc["orchestrator"]["train"]["source"]
    if prime_rl_ref(path) == "main":
        gates = [s.get("curriculum", {}).get("gates", {}) for s in train]
        assert all(any(g["type"] == "advantage_range" for g in s.values()) for s in gates)
    else:
        filters = doc["orchestrator"]["pre_batch_filters"]
        assert {"type": "zero_advantage", "enforce": True} in filters
    deployment = doc["deployment"]
    shared = "inference" not in doc
    if deployment.get("type") == "multi_node":  # whole nodes: trainer nodes + inference nodes
        nodes = deployment["num_train_nodes"] + deployment["num_infer_nodes"]
        used = nodes * deployment["gpus_per_node"]
    else:
        used = deployment["num_train_gpus"] + (0 if shared else deployment["num_infer_gpus"])
    assert entry["gpus"] == used
    assert (entry["companion"] is not None) == shared


MULTI_NODE = [p for p in RL_CONFIGS if load_toml(p)["deployment"].get("type") == "multi_node"]
# prime-rl's SLURM settings that describe the job, not the cluster it lands on.
JOB_SETTINGS = {"job_name", "time", "cleanup_grace_period"}


@pytest.mark.parametrize("path", MULTI_NODE, ids=_name)
def test_multi_node_config_says_how_each_cluster_setting_is_set(path: Path) -> None:
    """prime-rl writes its defaults (partition ``cluster``, no account, the current directory
    as the project) into the sbatch script unless told otherwise: the header names the flag
    for each cluster setting of prime-rl's ``SlurmConfig`` the config leaves unset."""
    schema = json.loads(
        (REPO_ROOT / find_entry(load_registry(), read_header(path)[0])["schema"]).read_text()
    )
    slurm = set(schema["$defs"]["SlurmConfig"]["properties"])
    header = "\n".join(line for line in path.read_text().splitlines() if line.startswith("#"))
    unset = slurm - JOB_SETTINGS - set(load_toml(path).get("slurm", {}))
    undocumented = sorted(
        name for name in unset if f"--slurm.{name.replace('_', '-')} " not in header
    )
    assert unset and not undocumented, undocumented
    assert "[cluster" in header, "say that prime-rl's default partition is 'cluster'"


@pytest.mark.parametrize(
    "path", [p for p in RL_CONFIGS if "inference" not in load_toml(p)], ids=_name
)
def test_hand_started_inference_matches_its_rl_config(path: Path) -> None:
    doc, companion = load_toml(path), _companion(path)
    assert companion is not None
    vllm = _vllm(companion, prime_rl_ref(path), top=True)
    name = vllm["model"] if prime_rl_ref(path) == "main" else vllm["name"]
    assert name == doc["model"]["name"]
    assert vllm["enable_lora"] is True
    assert vllm["max_lora_rank"] >= doc["trainer"]["model"]["lora"]["rank"]
    # The orchestrator's default client URL is http://localhost:8000/v1.
    assert companion["server"]["port"] == 8000 and companion["router"] == "None"


@pytest.mark.parametrize("path", RL_CONFIGS, ids=_name)
def test_taskset_arguments_are_accepted_by_our_config(path: Path) -> None:
    doc = load_toml(path)
    for _, source in sources(doc):
        if "legacy" in source:
            options = ClassicOptions.from_kwargs(**source["legacy"]["args"])
            assert options.max_tool_calls >= 1
        else:
            table = source["env"]["taskset"]
            assert table["id"] == "beautiful-soup-env"
            dataset = {k: v for k, v in table.items() if k in DATASET_KEYS}
            assert select_archetypes(DatasetConfig.from_kwargs(**dataset))


@pytest.mark.parametrize("path", SFT_CONFIGS, ids=_name)
def test_sft_config_hands_over_to_its_rl_config(path: Path) -> None:
    """An SFT config trains the model and LoRA shape of the RL config it names (so the merged
    adapter is the one RL goes on training), on the registry's GPUs, from the sft-data folder
    with prime-rl's default (assistant-only) loss mask, with a typed renderer: ``auto`` only
    for a model renderers registers one for (prime-rl's SFT validator refuses the rest), else
    this package's Qwen2.5 renderer."""
    from renderers.base import MODEL_RENDERER_MAP

    doc = load_toml(path)
    registry = load_registry()
    entry = find_entry(registry, read_header(path)[0])
    match = HANDS_OVER_TO.search(path.read_text().splitlines()[0])
    assert match is not None, f"{_name(path)}: no '(then RL: <id>)' in its first line"
    rl_entry = find_entry(registry, match["id"])
    assert rl_entry["kind"] == "rl" and prime_rl_ref(path) == "main"
    rl = load_toml(REPO_ROOT / rl_entry["file"])
    assert doc["model"]["name"] == rl["model"]["name"] == entry["model"]
    assert doc["model"]["lora"] == rl["trainer"]["model"]["lora"]
    data, gpus = doc["data"], doc["deployment"]["num_train_gpus"]
    assert gpus == entry["gpus"]
    # prime-rl's SFT trainer asserts this when it starts (the validator does not).
    assert data["batch_size"] % (gpus * data["micro_batch_size"]) == 0
    assert data["seq_len"] <= doc["model"]["seq_len"]
    assert data["type"] == "sft" and data["name"] == "outputs/sft-data"
    assert "loss_mask" not in data
    renderer = doc.get("renderer", {"name": "auto"})
    if renderer["name"] == "auto":
        assert doc["model"]["name"] in MODEL_RENDERER_MAP
    else:
        assert doc["model"]["name"].startswith("Qwen/Qwen2.5") and renderer == QWEN25_RENDERER


def test_every_rl_model_has_sft_configs_on_one_gpu_and_more() -> None:
    """Each model with a main RL config has an SFT warm start on one GPU and on several."""
    rl_models = {load_toml(p)["model"]["name"] for p in RL_CONFIGS if prime_rl_ref(p) == "main"}
    gpus: dict[str, set[int]] = {}
    for path in SFT_CONFIGS:
        doc = load_toml(path)
        gpus.setdefault(doc["model"]["name"], set()).add(doc["deployment"]["num_train_gpus"])
    assert set(gpus) == rl_models
    assert all(1 in counts and max(counts) > 1 for counts in gpus.values()), gpus


def test_legacy_argument_check_rejects_typos_and_bad_types() -> None:
    source = load_toml(PRIME_RL_DIR / "legacy" / "qwen3-4b-lora-2xh100.toml")["orchestrator"]
    args = source["train"]["source"][0]["legacy"]["args"]
    with pytest.raises(ValueError, match="unknown argument"):
        ClassicOptions.from_kwargs(**{**args, "mdoe": "tiered"})
    with pytest.raises(ValueError, match="max_tool_calls"):
        ClassicOptions.from_kwargs(**{**args, "max_tool_calls": "8"})


def test_budget_check_catches_an_overflow_and_a_missing_cap() -> None:
    doc = load_toml(PRIME_RL_DIR / "qwen3-4b-lora-2xh100.toml")
    source = copy.deepcopy(doc["orchestrator"]["train"]["source"][0])
    source["env"]["taskset"].pop("max_output_bytes")  # the engine default, 16000 per stream
    assert episode_budget(source_limits(doc, "train", source)).total > doc["seq_len"]
    del source["env"]["agent"]["max_turns"]
    with pytest.raises(BudgetError, match="max_turns"):
        source_limits(doc, "train", source)


def _longest_prompt_chars(seeds_per_split: int, splits: tuple[str, ...]) -> tuple[int, str]:
    fixed = len(SYSTEM_PROMPT) + len(json.dumps(openai_tools()))
    longest, where = 0, ""
    registry = default_registry()
    for spec in registry:
        for split in splits:
            for index in range(seeds_per_split):
                task = build_task(spec.id, seed_for(split, index), split, registry)
                chars = fixed + len(user_prompt(task))
                if chars > longest:
                    longest, where = chars, f"{spec.id} {split} #{index}"
    return longest, where


def test_prompt_allowance_covers_the_longest_prompt() -> None:
    # A margin for seeds not sampled here; the slow test samples many more.
    longest, where = _longest_prompt_chars(2, tuple(SPLIT_BASES))
    assert longest * 1.5 <= PROMPT_ALLOWANCE_CHARS, f"{longest} chars ({where})"


@pytest.mark.slow
def test_prompt_allowance_covers_the_longest_prompt_on_many_seeds() -> None:
    longest, where = _longest_prompt_chars(30, ("train",))
    assert longest * 1.25 <= PROMPT_ALLOWANCE_CHARS, f"{longest} chars ({where})"


def test_configs_command_lists_and_shows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["configs", "list"]) == 0
    listing = capsys.readouterr().out
    assert all(e["id"] in listing for e in load_registry())
    assert main(["configs", "show", "qwen3-4b-lora-1xh100"]) == 0
    shown = capsys.readouterr().out
    assert "uv run inference" in shown and "<= seq_len 32768" in shown
    assert main(["configs", "show", "no-such-config"]) == 2
    assert "known:" in capsys.readouterr().err
