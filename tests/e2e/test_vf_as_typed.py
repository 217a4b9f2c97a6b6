"""``vf-eval beautiful-soup-env`` and ``vf-validate beautiful-soup-env`` as a user types them.

No harness, runtime or push flag, no ``uv`` on PATH, and no network: each command runs in a
network namespace of its own that has only loopback (``unshare --net``), the scripted
OpenAI-compatible server inside it. The eval is verifiers' own smoke run of every taskset
(its ``tests/v1/test_envs.py``: ``-n 1 -r 1``, 4 turns, 512 tokens per turn, ``--no-rich``);
the package's exported harness and env pick the tool-calling harness and the local runtime.
``vf-validate`` runs its gold check (``Task.validate``: the reference program through the
engine) and its noop check (no agent turn) on the bench prefix that covers every archetype.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from vf_run import BIN, total_reward

from bs4_env.tasks.modes import DatasetConfig, build_rows
from bs4_env.tasks.registry import default_registry

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "tests" / "e2e" / "scripted_server.py"
DOCS = ROOT / "docs" / "verifiers.md"
PORT = 8765
KEY_VAR = "BS4ENV_TYPED_KEY"
# What a machine has without this project's venv on PATH: no uv, no vf-eval.
BARE_PATH = "/usr/local/bin:/usr/bin:/bin"
_PROBE = f"import urllib.request; urllib.request.urlopen('http://127.0.0.1:{PORT}/v1/models')"


def _isolation() -> list[str]:
    """``unshare`` into a new network namespace (as root, else through a user namespace)."""
    command = ["unshare", "--net"] + ([] if os.geteuid() == 0 else ["--map-root-user"])
    probe = subprocess.run([*command, "true"], capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        pytest.skip(f"cannot make a network namespace here ({probe.stderr.strip()})")
    return command


def _offline(script: str, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run ``script`` (bash) with loopback only, no uv on PATH, the scripted key set."""
    env = {**os.environ, "PATH": BARE_PATH, KEY_VAR: "scripted", "PYTHONUNBUFFERED": "1"}
    prelude = "set -e\nip link set lo up\n"
    return subprocess.run(
        [*_isolation(), "bash", "-c", prelude + script],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip


def _run_dir(cwd: Path) -> Path:
    runs = sorted((cwd / "outputs").iterdir())
    assert len(runs) == 1, runs
    return runs[0]


def test_bare_vf_eval_is_local_and_offline(tmp_path: Path) -> None:
    first = build_rows(DatasetConfig(split="train", num_examples=1))[0]
    server = [sys.executable, str(SERVER), "--port", str(PORT), "--split", "train", "--num", "1"]
    eval_command = [
        str(BIN / "vf-eval"), "beautiful-soup-env", "-m", "reference",
        "--client.base-url", f"http://127.0.0.1:{PORT}/v1", "--client.api-key-var", KEY_VAR,
        "-n", "1", "-r", "1", "--env.agent.max-turns", "4",
        "--sampling.max-tokens", "512", "--no-rich",
    ]  # fmt: skip
    probe = shlex.join([sys.executable, "-c", _PROBE])
    script = (
        f"{shlex.join(server)} > server.log 2>&1 &\n"
        'trap "kill $!" EXIT\n'  # the server must not outlive the test
        f"for i in $(seq 100); do {probe} 2>/dev/null && break; "
        "sleep 0.2; done\n"
        f"{shlex.join(eval_command)}\n"
    )
    proc = _offline(script, tmp_path)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output[-3000:]
    run = _run_dir(tmp_path)
    assert "--beautiful-soup-env--" in run.name, "the package's harness names the run"
    config = json.loads((run / "configs" / "resolved" / "eval.json").read_text())
    assert config["env"]["agent"]["runtime"]["type"] == "subprocess"
    episodes = [json.loads(line) for line in (run / "traces.jsonl").read_text().splitlines()]
    traces: list[dict[str, Any]] = [t for e in episodes for t in e["traces"]]
    assert len(traces) == 1
    assert traces[0]["info"]["archetype"] == first.archetype_id
    assert total_reward(traces[0]) == 1.0, traces[0]["info"].get("explanation")
    # docs/verifiers.md's way to browse traces, as printed there (run with this venv's Python).
    snippet = DOCS.read_text(encoding="utf-8").split("<!-- traces-snippet:start -->")[1]
    script = (
        snippet.split("```bash\n")[1].split("```")[0].replace(".venv/bin/python", sys.executable)
    )
    shown = subprocess.run(
        ["bash", "-c", script], env={**os.environ, "RUN": str(run)},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith(f"{first.archetype_id} {first.seed} 1.0 ")
    assert "    assistant " in shown.stdout and "    tool exit status: 0" in shown.stdout


def _validate(tmp_path: Path, *arguments: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    command = [
        str(BIN / "vf-validate"), "beautiful-soup-env", "--taskset.split", "bench",
        "--runtime.type", "subprocess", "--no-rich", *arguments,
    ]  # fmt: skip
    proc = _offline(shlex.join(command), tmp_path)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    run = _run_dir(tmp_path)
    summary = json.loads((run / "summary.json").read_text())
    rows = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    return summary, rows


def test_vf_validate_gold_is_valid_and_noop_scores_zero_on_every_archetype(
    tmp_path: Path,
) -> None:
    registry = default_registry()
    rows = build_rows(DatasetConfig(split="bench"))
    # The shortest bench prefix covering every archetype the manifest holds (any prefix is
    # balanced, so that is one row per archetype).
    wanted = {row.archetype_id for row in rows}
    n = next(i for i in range(1, len(rows) + 1) if {r.archetype_id for r in rows[:i]} == wanted)
    summary, results = _validate(tmp_path, "-n", str(n))
    assert summary["checks"]["gold"]["valid"] == n, summary
    assert summary["checks"]["noop"]["valid"] == n, summary
    assert summary["valid_rate"] == 1.0
    assert {r["name"] for r in results} == wanted
    assert wanted <= set(registry.ids())
    assert {r["noop"]["reward"] for r in results} == {0.0}
    limitation = {s.id for s in registry if not s.solvable} & wanted
    assert limitation, "limitation archetypes are checked too"


def test_vf_validate_gold_fails_when_the_reference_cannot_finish(tmp_path: Path) -> None:
    """The control: one tool call is too few for the multi-page reference (run, navigate,
    run), so the gold check must report the task invalid."""
    summary, results = _validate(
        tmp_path,
        "--taskset.archetypes", "multipage_navigate", "--taskset.max-tool-calls", "1",
        "-n", "1", "--only-gold",
    )  # fmt: skip
    assert summary["outcomes"]["invalid"] == 1, summary
    assert results[0]["valid"] is False


def test_the_remote_runtime_is_one_flag_away(tmp_path: Path) -> None:
    """What vf-eval resolves (``--dry-run`` writes the resolved config and starts nothing):
    the package's harness stays, the seat's runtime is the one the flag names."""
    command = [
        str(BIN / "vf-eval"), "beautiful-soup-env", "-m", "reference",
        "--client.base-url", f"http://127.0.0.1:{PORT}/v1", "--client.api-key-var", KEY_VAR,
        "-n", "1", "--dry-run", "--env.agent.runtime.type", "prime",
    ]  # fmt: skip
    proc = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    run = _run_dir(tmp_path)
    assert run.name.split("--")[2] == "beautiful-soup-env"
    config = json.loads((run / "configs" / "resolved" / "eval.json").read_text())
    assert config["env"]["agent"]["runtime"]["type"] == "prime"


def test_the_chat_program_needs_nothing_this_python_lacks() -> None:
    """The harness runs verifiers' chat program under this interpreter only because every
    package the program declares is installed here; a missing or too-old one is named."""
    from verifiers.v1.harnesses.utils.launch import CHAT_PROGRAM

    from bs4_env.integrations.verifiers_v1.harness import script_requirements, unmet_requirements

    assert {r.name for r in script_requirements(CHAT_PROGRAM)} >= {"openai", "mcp"}
    assert unmet_requirements(CHAT_PROGRAM) == []
    header = '# /// script\n# dependencies = ["openai<1", "no-such-package-bs4env"]\n# ///\n'
    unmet = unmet_requirements(header)
    assert unmet[0].startswith("openai<1 (installed: ") and unmet[1].endswith("(not installed)")
