"""Classic verifiers (0.3.x): real classic ``vf-eval`` in its own venv gives the engine's rewards.

verifiers 0.3 cannot share an install with 0.4, so the classic stack runs from a venv built
once under ``build/`` (gitignored) by ``bs4_env.integrations.verifiers_classic.venvs``: this
checkout, editable, with verifiers overridden to 0.3.x. A loopback server plays each scripted
policy; classic ``vf-eval beautiful-soup-env -a '{...}'`` runs against it as the README says
(env server, default local sandbox), and every rollout's reward, score components, tool
replies and final answer must equal the engine's own ``run_rollout`` of the same policy. One
run plays every policy (the server plays a policy per row: every policy plays every
archetype, the reference policy first over ``ROWS``), since each classic vf-eval is mostly
process start-up; its saved outputs must open in ``vf-tui`` (verifiers 0.1.14, its own venv).
(A second run of the reference policy alone over ``ROWS`` repeated the first rows of this one
with the same arguments and policy: its checks are made on those rows.)
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from byo_rows import write_byo_rows
from policy_rows import policy_rows
from scripted_server import POLICY_NAMES, ScriptedServer, policy_for

from bs4_env.episode.executors import make_executor
from bs4_env.episode.tool_schema import openai_tools
from bs4_env.episode.tool_text import without_timing
from bs4_env.evaluation.rollout import Rollout, run_rollout
from bs4_env.evaluation.scripted import MalformedThenReferencePolicy
from bs4_env.grading.rubric import TIMING_COMPONENTS
from bs4_env.integrations.verifiers_classic.transcript import COMPONENTS, text_of
from bs4_env.integrations.verifiers_classic.venvs import ensure_venv
from bs4_env.pages.sets import page_set
from bs4_env.tasks.model import Category
from bs4_env.tasks.modes import DatasetConfig, build_rows
from bs4_env.tasks.registry import build_task
from bs4_env.tasks.splits import Row

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
VENVS = ROOT / "build"
HERE = Path(__file__).resolve().parent
KEY_VAR = "BS4ENV_SCRIPTED_KEY"
ARCHETYPES = ["text_by_id", "js_rendered", "multipage_navigate"]  # single-page, limitation, multi
SPLIT = "bench"
RUN_TIMEOUT_S = 900


def _rows() -> list[Row]:
    """The shortest prefix of the split (for these archetypes) that covers each of them."""
    rows = build_rows(DatasetConfig(split=SPLIT, archetypes=tuple(ARCHETYPES)))
    for n in range(1, len(rows) + 1):
        if {row.archetype_id for row in rows[:n]} == set(ARCHETYPES):
            return list(rows[:n])
    raise AssertionError(f"split {SPLIT} lacks one of {ARCHETYPES}")


ROWS = _rows()
"""The reference policy's rows: it plays them as the run's model."""
PLAN = policy_rows(SPLIT, ARCHETYPES, ROWS)
"""The run's rows and the policy the scripted server plays on each (``ROWS``: the reference)."""
ALL_ROWS, ASSIGNED = PLAN.rows, PLAN.assigned
_policy_of, _rows_of = PLAN.policy_of, PLAN.rows_of


# The README's default sandbox; BS4ENV_CLASSIC_EXECUTOR=subprocess runs the same checks on the
# naive backend (to tell an adapter fault from a sandbox one).
EXECUTOR = os.environ.get("BS4ENV_CLASSIC_EXECUTOR", "local")


def env_args(rows: list[Row]) -> dict[str, str | int]:
    """The classic environment's arguments for the prefix ``rows`` of the split."""
    return {
        "split": SPLIT,
        "archetypes": ",".join(ARCHETYPES),
        "num_examples": len(rows),
        "executor": EXECUTOR,
        "pool_size": 2,
    }


@dataclass
class ClassicRun:
    returncode: int
    output: str
    run_dir: Path | None

    @property
    def records(self) -> list[dict[str, Any]]:
        if self.run_dir is None:
            return []
        lines = (self.run_dir / "results.jsonl").read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]


def classic_command(
    bin_dir: Path, policy: str, base_url: str, out: Path, rows: list[Row]
) -> list[str]:
    """The README's classic command, pointed at the scripted endpoint."""
    return [
        str(bin_dir / "vf-eval"), "beautiful-soup-env", "-a", json.dumps(env_args(rows)),
        "-m", policy, "-b", base_url, "-k", KEY_VAR,
        "-n", str(len(rows)), "-r", "1", "-c", "4", "-s", "-d", "-A", "-o", str(out),
    ]  # fmt: skip


@pytest.fixture(scope="module")
def classic_bin() -> Path:
    return ensure_venv("classic", VENVS / "venv-classic")


@pytest.fixture(scope="module")
def server() -> Iterator[ScriptedServer]:
    """A strict endpoint: a history whose tool-call arguments are no JSON object is an HTTP
    500 (as llama.cpp and vLLM's chat preprocessing answer), so the malformed and raw-source
    policies score only if the history carries the arguments the engine ran."""
    with ScriptedServer(ALL_ROWS, strict_history=True, policies=ASSIGNED) as srv:
        yield srv


@pytest.fixture(scope="module")
def classic_run(
    classic_bin: Path, server: ScriptedServer, tmp_path_factory: pytest.TempPathFactory
) -> ClassicRun:
    """The classic vf-eval (model ``reference``) over ``ALL_ROWS``, each row played by its
    policy (``ROWS``, its first rows, by the reference policy)."""
    root = tmp_path_factory.mktemp("classic")
    env = {**os.environ, KEY_VAR: "scripted", "PYTHONUNBUFFERED": "1"}
    out = root / "policies"
    command = classic_command(classic_bin, "reference", server.base_url, out, ALL_ROWS)
    proc = subprocess.run(
        command, env=env, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=RUN_TIMEOUT_S, check=False,
    )  # fmt: skip
    found = sorted((out / "evals").glob("*/*/results.jsonl"))
    run = ClassicRun(proc.returncode, proc.stdout, found[-1].parent if found else None)
    assert run.returncode == 0, run.output[-4000:]
    assert len(run.records) == len(ALL_ROWS), run.output[-4000:]
    return run


def _records(run: ClassicRun, rows: list[Row] | tuple[Row, ...]) -> list[dict[str, Any]]:
    """The run's records of ``rows`` (the run ended well and holds one record per row)."""
    assert run.returncode == 0, run.output[-4000:]
    keys = {(row.archetype_id, row.seed) for row in rows}
    records = [r for r in run.records if (r["info"]["archetype"], r["info"]["seed"]) in keys]
    assert len(records) == len(rows), run.output[-4000:]
    return records


def _played(run: ClassicRun, policy: str) -> list[dict[str, Any]]:
    """Every record of ``policy``: one per row it played."""
    return _records(run, _rows_of(policy))


async def _rollouts(policy: str, rows: tuple[Row, ...]) -> dict[tuple[str, int], Rollout]:
    async with make_executor("local", pool_size=2) as executor:
        tasks = [build_task(r.archetype_id, r.seed, r.split) for r in rows]
        rollouts = await asyncio.gather(
            *(run_rollout(t, policy_for(policy, t), executor) for t in tasks)
        )
    return {(r.task.archetype_id, r.task.seed): r for r in rollouts}


@functools.cache
def _engine_rollouts(policy: str) -> dict[tuple[str, int], Rollout]:
    """The engine's own rollouts of ``policy`` over its rows (deterministic: computed once)."""
    return asyncio.run(_rollouts(policy, _rows_of(policy)))


def _calls(message: dict[str, Any]) -> list[dict[str, Any]]:
    """Tool calls of a saved message (classic results keep each as a JSON string)."""
    raw = message.get("tool_calls") or []
    return [json.loads(call) if isinstance(call, str) else call for call in raw]


def _messages(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [*record["prompt"], *record["completion"]]


def test_every_policy_plays_every_archetype() -> None:
    for policy in POLICY_NAMES:
        assert {row.archetype_id for row in _rows_of(policy)} == set(ARCHETYPES), policy
    assert _rows_of("reference") == tuple(ROWS)


@pytest.mark.parametrize("policy", POLICY_NAMES)
def test_classic_vf_eval_matches_engine(policy: str, classic_run: ClassicRun) -> None:
    records = _played(classic_run, policy)
    expected = _engine_rollouts(policy)
    for record in records:
        assert record["error"] is None, record["error"]
        info = record["info"]
        engine = expected[(info["archetype"], info["seed"])]
        task = engine.task
        key = (task.archetype_id, task.seed)
        assert (info["split"], info["difficulty"], info["category"]) == (
            task.split, task.difficulty.value, task.category.value,
        ), key  # fmt: skip
        assert "truth" not in info and "truth" not in record
        assert info["explanation"] == engine.score.explanation, key
        assert record["reward"] == engine.score.reward, key
        metrics = record["metrics"]
        for name in COMPONENTS:
            if name not in TIMING_COMPONENTS:  # wall-clock figures differ run to run
                assert metrics[name] == engine.score.components[name], (key, name)
        assert metrics["bad_arguments"] == info["bs4"]["episode"]["bad_arguments"]
        # The transcripts themselves: prompt, every tool call and reply, the final answer.
        messages, engine_messages = _messages(record), engine.messages
        assert [m["role"] for m in messages] == [m["role"] for m in engine_messages], key
        assert [text_of(m["content"]) for m in messages[:2]] == [
            m["content"] for m in engine_messages[:2]
        ]
        calls = [(c["name"], c["arguments"]) for m in messages for c in _calls(m)]
        engine_calls = [
            (c["function"]["name"], c["function"]["arguments"])
            for m in engine_messages
            for c in m.get("tool_calls") or ()
        ]
        assert calls == engine_calls, key
        replies = [without_timing(text_of(m["content"])) for m in messages if m["role"] == "tool"]
        engine_replies = [
            without_timing(str(m["content"])) for m in engine_messages if m["role"] == "tool"
        ]
        assert replies == engine_replies, key
        assert text_of(messages[-1]["content"]) == engine.final_text, key


def test_classic_vf_eval_runs_a_byo_rows_file(
    classic_bin: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """``load_environment(pages=...)``: a rows file of labelled pages through classic vf-eval
    gets the engine's rewards (the reference programs solve every row)."""
    root = tmp_path_factory.mktemp("classic-pages")
    rows = write_byo_rows(root)
    pages = page_set(str(rows))
    tasks = [pages.task(index) for index in range(len(pages))]

    async def play() -> list[Rollout]:
        async with make_executor("local", pool_size=2) as executor:
            return await asyncio.gather(
                *(run_rollout(t, policy_for("reference", t), executor) for t in tasks)
            )

    expected = {r.task.row_id: r for r in asyncio.run(play())}
    args = {"pages": str(rows), "executor": EXECUTOR, "pool_size": 2}
    with ScriptedServer([], tasks=tasks) as server:
        command = [
            str(classic_bin / "vf-eval"), "beautiful-soup-env", "-a", json.dumps(args),
            "-m", "reference", "-b", server.base_url, "-k", KEY_VAR,
            "-n", str(len(tasks)), "-r", "1", "-c", "4", "-s", "-d", "-A", "-o", str(root / "o"),
        ]  # fmt: skip
        env = {**os.environ, KEY_VAR: "scripted", "PYTHONUNBUFFERED": "1"}
        proc = subprocess.run(command, env=env, cwd=root, capture_output=True, text=True,
                              timeout=RUN_TIMEOUT_S, check=False)  # fmt: skip
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    found = sorted((root / "o" / "evals").glob("*/*/results.jsonl"))
    records = ClassicRun(proc.returncode, "", found[-1].parent).records
    assert len(records) == len(tasks)
    for record in records:
        engine = expected[record["info"]["row_id"]]
        assert record["info"]["pages"] == str(rows.resolve())
        assert record["reward"] == engine.score.reward == 1.0


def test_classic_advertises_the_engine_tools(classic_run: ClassicRun) -> None:
    expected = [tool["function"] for tool in openai_tools()]
    for record in classic_run.records:
        tools = [
            {k: t[k] for k in ("name", "description", "parameters")} for t in record["tool_defs"]
        ]
        assert tools == expected


def test_malformed_arguments_repaired_by_the_engine(classic_run: ClassicRun) -> None:
    """The truncated first call is refused by the engine's repair, not verifiers' json.loads;
    the saved completion keeps the model's raw text (the strict endpoint got ``{}``)."""
    for record in _played(classic_run, "malformed"):
        first_call = next(c for m in record["completion"] for c in _calls(m))
        assert first_call["arguments"] == MalformedThenReferencePolicy.TRUNCATED
        first_reply = next(m for m in record["completion"] if m["role"] == "tool")
        assert text_of(first_reply["content"]).startswith("error: ")
        assert "Expecting" not in text_of(first_reply["content"])  # json.JSONDecodeError text
        assert record["metrics"]["bad_arguments"] == 1.0


def test_reference_policy_scores(classic_run: ClassicRun) -> None:
    """Sanity: the reference policy solves every task (1.0, or 0.5 for a justified abstention),
    and multi-page tasks go through navigate."""
    records = _played(classic_run, "reference")
    assert {r["info"]["archetype"] for r in records} == set(ARCHETYPES)
    for record in records:
        solvable = record["info"]["category"] != Category.LIMITATION.value
        assert record["reward"] == (1.0 if solvable else 0.5), record["info"]["explanation"]
        if record["info"]["category"] == Category.MULTIPAGE.value:
            names = {c["name"] for m in record["completion"] for c in _calls(m)}
            assert "navigate" in names


def test_classic_outputs_open_in_vf_tui(classic_run: ClassicRun, tmp_path: Path) -> None:
    """``vf-tui`` (verifiers 0.1.14, Textual) finds the classic run with all its rollouts, and
    the reference policy's rollouts (found by their place in results.jsonl, vf-tui's order)
    show their reward, the tool exchange and the final answer (exact in its raw-text view;
    the default Markdown view drops backslash escapes such as ``\\"``)."""
    run_dir = classic_run.run_dir
    assert run_dir is not None
    tui_bin = ensure_venv("tui", VENVS / "venv-tui")
    outputs = run_dir.parents[2]  # <outputs>/evals/<env>--<model>/<run>
    records = classic_run.records
    shown = [
        index
        for index, r in enumerate(records)
        if _policy_of((r["info"]["archetype"], r["info"]["seed"])) == "reference"
    ]
    assert len(shown) == len(ROWS)
    screenshot = tmp_path / "vf-tui.svg"
    probe = [str(tui_bin / "python"), str(HERE / "classic_tui_probe.py")]
    proc = subprocess.run(
        [*probe, str(outputs), str(screenshot), ",".join(map(str, shown))],
        capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-4000:]
    report = json.loads(proc.stdout)
    assert report["found"] == {"beautiful-soup-env": {"reference": 1}}
    [view_run] = report["runs"]
    assert view_run["count"] == len(records) == len(ALL_ROWS)
    assert [view["index"] for view in view_run["views"]] == shown
    for view in view_run["views"]:
        record = records[view["index"]]
        assert "Current Reward" in view["#metadata-reward"]
        assert "exit status: 0" in view["history"]  # the tool reply
        assert text_of(record["completion"][-1]["content"]) in view["raw_history"]  # the answer
        assert view["raw_history"] != view["history"]  # the default view renders Markdown
        assert '"archetype"' in view["#info-content"]
    assert screenshot.is_file() and "beautiful-soup-env" in screenshot.read_text()


UVLOOP_SANDBOX = """
import asyncio, json, uvloop
from bs4_env.episode.executors import make_executor
from bs4_env.sandbox.base import ExecRequest
async def main():
    async with make_executor("local", 1) as executor:
        request = ExecRequest(code="print(make_soup().title.string)", html="<title>t</title>",
                              query="q", timeout_s=10, max_output_bytes=1000)
        result = await executor.run(request)
    print(json.dumps([result.infra_error, result.stdout]))
uvloop.run(main())
"""


def test_local_sandbox_runs_under_uvloop(classic_bin: Path) -> None:
    """verifiers' env server (and prime-rl's orchestrator) run their event loop on uvloop,
    whose subprocess pipes are socket pairs: the sandbox must work there too."""
    proc = subprocess.run(
        [str(classic_bin / "python"), "-c", UVLOOP_SANDBOX],
        capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False, cwd=VENVS,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-4000:]
    infra_error, stdout = json.loads(proc.stdout.strip().splitlines()[-1])
    assert infra_error is None, f"{infra_error}; worker log: {proc.stderr[-2000:]}"
    assert stdout == "t\n"


CLASSIC_CHECKS = """
import json, sys
import beautiful_soup_env as entry
from bs4_env.integrations.verifiers_classic.dataset import cached_task
from bs4_env.tasks.modes import ConfigError, DatasetConfig, build_rows
def v1_modules():
    return sorted(m for m in sys.modules if m.startswith("verifiers.v1"))
out = {"all": entry.__all__, "v1_on_import": v1_modules()}
try:
    entry.load_environment(split="bench", bogus=1)
except ConfigError as error:
    out["unknown"] = str(error)
env = entry.load_environment(split="train")
train = env.get_dataset()
row = train[12345]
out["train"] = [len(train), len(build_rows(DatasetConfig(split="train"))), row["info"]]
out["generated"] = cached_task.cache_info().currsize
bench = entry.load_environment(split="bench")
ours = bench._get_eval_inputs(5, 2, shuffle=True, shuffle_seed=3)
theirs = type(bench).__mro__[1]._get_eval_inputs(bench, 5, 2, shuffle=True, shuffle_seed=3)
out["selection"] = [[r["row"], r["example_id"]] for r in ours] == [
    [r["row"], r["example_id"]] for r in theirs
]
out["prompts"] = [r["prompt"] is not None for r in ours] + [r["prompt"] for r in theirs[:1]]
out["v1_after_classic"] = v1_modules()
import verifiers.v1 as vf
bases = {"BeautifulSoupEnv": vf.Env, "BeautifulSoupHarness": vf.Harness,
         "BeautifulSoupTaskset": vf.Taskset}
out["v1_exports"] = {name: issubclass(getattr(entry, name), base) for name, base in bases.items()}
print(json.dumps(out))
"""


def test_classic_entry_module_and_lazy_rows(classic_bin: Path) -> None:
    """In the classic install (0.3.1 ships ``verifiers.v1`` beside ``verifiers.legacy``, as the
    snapshot prime-rl main pins does): the entry module exports the v1 taskset, harness and env
    for prime-rl main (each name of ``__all__`` resolves to its ``vf`` subclass) and
    ``load_environment`` for the classic loaders, the classic path never imports
    ``verifiers.v1`` (the v1 classes load on first lookup), unknown arguments fail loudly, the
    1M-row train split builds lazily (reading one row generates one task), and eval rows are
    verifiers' own selection, with prompts."""
    proc = subprocess.run(
        [str(classic_bin / "python"), "-c", CLASSIC_CHECKS],
        capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False, cwd=VENVS,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-4000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["all"] == [
        "BeautifulSoupEnv",
        "BeautifulSoupHarness",
        "BeautifulSoupTaskset",
        "load_environment",
    ]
    assert out["v1_on_import"] == out["v1_after_classic"] == []
    assert out["v1_exports"] == dict.fromkeys(out["all"][:3], True)
    assert "unknown argument(s) ['bogus']" in out["unknown"] and "'max_turns'" in out["unknown"]
    length, expected_length, info = out["train"]
    assert length == expected_length > 1_000_000
    assert set(info) == {"archetype", "seed", "split", "difficulty", "category"}
    assert out["generated"] == 1
    assert out["selection"] is True
    assert out["prompts"] == [True] * 10 + [None]  # verifiers' to_list() skips the transform
