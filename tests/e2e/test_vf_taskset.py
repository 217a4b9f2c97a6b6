"""The verifiers taskset without a model: loading, config checking, task data, tools."""

from __future__ import annotations

import subprocess
from types import SimpleNamespace

import pytest
from vf_run import BIN, vf_env

from bs4_env.episode.prompt import SYSTEM_PROMPT, user_prompt
from bs4_env.episode.tool_schema import NAVIGATE_DESCRIPTION, RUN_PYTHON_DESCRIPTION
from bs4_env.tasks.registry import build_task

pytestmark = pytest.mark.integration

# verifiers.v1 takes seconds to import: it is imported by the ``api`` fixture, never at
# collection, so the default (non-integration) test run does not pay for it.


@pytest.fixture(scope="module")
def api() -> SimpleNamespace:
    pytest.importorskip("verifiers.v1")
    import verifiers.v1 as vf

    from bs4_env.integrations.verifiers_v1 import config, task, taskset, toolset

    return SimpleNamespace(
        vf=vf,
        Config=config.BS4TasksetConfig,
        Taskset=taskset.BeautifulSoupTaskset,
        Toolset=toolset.BS4Toolset,
        runs_on_toolset=task.runs_on_toolset,
    )


DATA_COLUMNS = {"archetype", "seed", "split", "difficulty", "category"}


def test_project_install_provides_vf_eval_and_uv() -> None:
    """``pip install -e '.[dev]'`` puts both next to the interpreter (CI on a fresh machine)."""
    for tool in ("vf-eval", "uv"):
        assert (BIN / tool).is_file(), f"{tool} missing from {BIN}; reinstall with '.[dev]'"


def test_entry_module_exports_exactly_one_taskset_harness_and_env(api: SimpleNamespace) -> None:
    """verifiers resolves each from ``__all__`` and refuses two of a kind."""
    import beautiful_soup_env

    exported = [getattr(beautiful_soup_env, name) for name in beautiful_soup_env.__all__]
    for base, name in (
        (api.vf.Taskset, "BeautifulSoupTaskset"),
        (api.vf.Harness, "BeautifulSoupHarness"),
        (api.vf.Env, "BeautifulSoupEnv"),
    ):
        found = [c for c in exported if isinstance(c, type) and issubclass(c, base)]
        assert [c.__name__ for c in found] == [name]
    # classic loaders (vf-eval 0.3, prime-rl v0.8.0) look load_environment up by name
    assert beautiful_soup_env.__all__ == [
        "BeautifulSoupEnv",
        "BeautifulSoupHarness",
        "BeautifulSoupTaskset",
        "load_environment",
    ]


def test_load_is_lazy_and_builds_our_prompts(api: SimpleNamespace) -> None:
    """A finite selection's rows carry the real request (the train stream's rows defer it to
    the env worker: test_vf_train_stream.py)."""
    taskset = api.Taskset(api.Config(split="eval"))
    tasks = list(taskset.take(3))
    assert len(tasks) == 3
    for task in tasks:
        data = task.data
        engine_task = build_task(data.archetype, data.seed, data.split)
        assert data.prompt == user_prompt(engine_task)
        assert data.system_prompt == SYSTEM_PROMPT
        assert data.difficulty == engine_task.difficulty.value
        assert data.category == engine_task.category.value
        assert task.key == f"eval/{data.archetype}/{data.seed}"


def test_task_data_never_carries_the_truth(api: SimpleNamespace) -> None:
    taskset = api.Taskset(api.Config(split="bench", num_examples=20))
    for task in taskset:
        data = task.data
        dumped = data.model_dump(mode="json", exclude_none=True)
        extra = set(dumped) - set(api.vf.TaskData.model_fields)
        assert extra == DATA_COLUMNS
        truth = build_task(data.archetype, data.seed, data.split).truth
        if isinstance(truth, str) and len(truth) > 3:
            assert truth not in data.prompt


def test_unknown_fields_are_rejected(api: SimpleNamespace) -> None:
    with pytest.raises(ValueError, match="Extra inputs are not permitted"):
        api.Config(bogus=1)
    with pytest.raises(ValueError, match="Extra inputs are not permitted"):
        api.Config.model_validate({"task": {"bogus": 1}})


def test_bad_values_get_our_messages(api: SimpleNamespace) -> None:
    with pytest.raises(ValueError, match="split must be one of"):
        api.Config(split="nope")
    with pytest.raises(ValueError, match="mode must be one of"):
        api.Config(mode="nope")
    with pytest.raises(ValueError, match=r"unknown archetype|nope"):
        api.Config(archetypes="nope")
    with pytest.raises(ValueError, match="invalid budgets"):
        api.Config(max_tool_calls=0)


def test_engine_settings_reach_task_and_tools(api: SimpleNamespace) -> None:
    config = api.Config(max_tool_calls=5, executor="subprocess", difficulty="easy,hard")
    assert config.task.engine.max_tool_calls == config.tools.engine.max_tool_calls == 5
    assert config.tools.engine.executor == "subprocess"
    again = api.Config.model_validate(config.model_dump())  # config round trip
    assert again.task.engine == config.task.engine
    with pytest.raises(ValueError, match=r"not on taskset\.task\.engine"):
        api.Config(max_tool_calls=5, task={"engine": {"max_tool_calls": 7}})


def test_cli_rejects_unknown_taskset_field() -> None:
    command = [
        str(BIN / "vf-eval"), "beautiful-soup-env", "--model", "x", "--dry-run",
        "--env.taskset.bogus", "1",
    ]  # fmt: skip
    proc = subprocess.run(command, env=vf_env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode != 0
    assert "bogus" in proc.stdout + proc.stderr


def test_tools_use_the_engine_texts(api: SimpleNamespace) -> None:
    assert api.Toolset.TOOL_PREFIX is None
    assert api.Toolset.run_python.__doc__ == RUN_PYTHON_DESCRIPTION
    assert api.Toolset.navigate.__doc__ == NAVIGATE_DESCRIPTION


@pytest.mark.parametrize(
    ("name", "arguments", "toolset"),
    [
        ("run_python", '{"code": "print(1)"}', True),
        ("navigate", '{"href": "/a"}', True),
        ("run_python", '{"code": "print(1)"', False),  # truncated
        ("run_python", '{"source": "print(1)"}', False),  # wrong key
        ("run_python", '"{\\"code\\": \\"print(1)\\"}"', False),  # double-encoded
        ("run_python", '{"code": 1}', False),
        ("run_python", '{"code": "x", "extra": 1}', False),
        ("bash", '{"command": "ls"}', False),
    ],
)
def test_which_calls_the_host_answers(
    api: SimpleNamespace, name: str, arguments: str, toolset: bool
) -> None:
    assert api.runs_on_toolset(name, arguments) is toolset
