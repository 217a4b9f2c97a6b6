"""``bs4-env eval --config``: the episode budgets and task selection of a training config.

Every rl config's every source goes through it, so a config key it does not know fails here
(and so does a new taskset argument or classic argument: the last test compares the known
keys with the real ``BS4TasksetConfig`` and ``ClassicOptions`` fields).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bs4_env.cli.config_budget import source_limits, sources
from bs4_env.cli.config_registry import config_files, config_kind, load_toml, read_header
from bs4_env.cli.eval_config import (
    FOLDED_FIELDS,
    NOT_EPISODE_FIELDS,
    TASKSET_ARGUMENTS,
    training_eval,
)
from bs4_env.cli.main import main
from bs4_env.integrations.verifiers_classic.options import VALID_ARGUMENTS

RL_CONFIGS = [p for p in config_files() if config_kind(p) == "rl"]
CONFIG = next(p for p in RL_CONFIGS if p.name == "qwen3-4b-lora-2xh100.toml")


def _taskset(source: dict[str, object]) -> dict[str, object]:
    if "legacy" in source:
        return dict(source["legacy"]["args"])  # type: ignore[index]
    return dict(source["env"]["taskset"])  # type: ignore[index]


@pytest.mark.parametrize("path", RL_CONFIGS, ids=lambda p: p.name)
def test_every_source_of_every_config_maps_to_eval_settings(path: Path) -> None:
    doc = load_toml(path)
    for group, source in sources(doc):
        record, arguments = training_eval(path, source["name"])
        assert record.source == f"{group}/{source['name']}"
        limits = source_limits(doc, group, source)  # what the token-budget test checks
        assert arguments["max_turns"] == limits.max_turns
        assert arguments["max_tokens"] == limits.max_completion_tokens
        assert arguments["max_tool_calls"] == limits.max_tool_calls
        assert arguments["max_output_bytes"] == limits.max_output_bytes
        sampling = {**doc["orchestrator"][group].get("sampling", {}), **source.get("sampling", {})}
        assert arguments["temperature"] == sampling["temperature"]
        taskset = _taskset(source)
        expected = dict(taskset)
        if "pages_part" in taskset:  # folded into pages, as --pages real2#train
            expected["pages"] = f"{taskset['pages']}#{taskset['pages_part']}"
        for field, argument in TASKSET_ARGUMENTS.items():
            if field in taskset:
                assert arguments[argument] == expected[field], (path.name, field)
        assert (record.id, record.version) == read_header(path)


def test_an_unknown_config_key_fails_instead_of_drifting(tmp_path: Path) -> None:
    text = CONFIG.read_text()
    drifted = tmp_path / CONFIG.name
    drifted.write_text(text.replace('split = "bench"\n', 'split = "bench"\npage_limit = 3\n', 1))
    with pytest.raises(ValueError, match=r"does not know \['page_limit'\]"):
        training_eval(drifted, None)
    sampled = tmp_path / "sampled.toml"
    sampled.write_text(text.replace("temperature = 0.0\n", "temperature = 0.0\ntop_p = 0.9\n"))
    with pytest.raises(ValueError, match=r"does not know \['top_p'\]"):
        training_eval(sampled, None)


def test_eval_records_the_config_it_ran(tmp_path: Path) -> None:
    """The reference policy under the config's eval source: its settings run and are recorded."""
    output = tmp_path / "results.json"
    args = ["eval", "--config", str(CONFIG), "-n", "2", "-o", str(output), "--quiet"]
    assert main(args) == 0
    results = json.loads(output.read_text())
    header = {k: results[k] for k in ("split", "temperature", "max_tokens", "max_turns")}
    assert header == {"split": "bench", "temperature": 0.0, "max_tokens": 1024, "max_turns": 10}
    assert (results["max_tool_calls"], results["max_output_bytes"]) == (8, 3000)
    assert results["timeout_s"] == 10.0 and results["n"] == 2
    training = results["training_config"]
    assert training["id"] == "qwen3-4b-lora-2xh100" and training["source"] == "eval/bs4-bench"
    assert training["settings"]["num"] == 200


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--max-turns", "16"], "--max-turns: set by --config"),
        (["--temperature", "0.7", "--split", "eval"], "--split, --temperature: set by --config"),
        (["--source", "bs4-train"], "streams the train split; give --num"),
        (["--source", "nope"], "no source 'nope'"),
        (["-n", "500"], "the config's source has 200 rows"),
    ],
)
def test_flags_the_config_decides_are_refused(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Even a flag given at its default value: the config would silently replace it."""
    output = ["-o", str(tmp_path / "results.json")]
    assert main(["eval", "--config", str(CONFIG), *extra, *output]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "results.json").exists()


@pytest.mark.integration
def test_known_keys_cover_every_taskset_and_classic_argument() -> None:
    """A taskset argument added to ``BS4TasksetConfig`` (or to the classic options) must be
    mapped by ``--config`` or listed as not changing an episode."""
    pytest.importorskip("verifiers.v1")
    import verifiers.v1 as vf

    from bs4_env.integrations.verifiers_v1.config import BS4TasksetConfig

    known = {*TASKSET_ARGUMENTS, *FOLDED_FIELDS, *NOT_EPISODE_FIELDS, "num_examples"}
    ours = set(BS4TasksetConfig.model_fields) - set(vf.TasksetConfig.model_fields)
    assert ours - {"task", "tools"} <= known, sorted(ours - known)
    assert set(VALID_ARGUMENTS) - {"max_turns"} <= known, sorted(set(VALID_ARGUMENTS) - known)
