"""``scripts/gpu_recipe.sh`` on CPU: its ``--dry-run`` plan per shape, and its refusals.

Nothing here needs a GPU, prime-rl or the network: the dry run only prints the commands. The
``integration`` test at the end also runs the recipe's prime-rl commands with prime-rl's own
``--dry-run`` from the cached prime-rl venv (``scripts/primerl_venv.py``).
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "gpu_recipe.sh"
SHAPES = {
    "1xh100": {"sft": "qwen3-4b-lora-sft-1xh100", "rl": "qwen3-4b-lora-1xh100"},
    "2xh100": {"sft": "qwen3-4b-lora-sft-2xh100", "rl": "qwen3-4b-lora-2xh100"},
}
STAGES = ["1: baseline", "2: SFT", "3: merge", "4: RL", "5: eval after", "6: like-for-like"]
LIKE_FOR_LIKE = {
    "--split": "bench",
    "-n": "200",
    "--temperature": "0",
    "--max-tokens": "1024",
    "--max-turns": "10",
    "--max-tool-calls": "8",
    "--max-output-bytes": "3000",
}


def recipe(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), *args], capture_output=True, text=True, timeout=30, check=False
    )


def plan(shape: str, tmp_path: Path) -> tuple[list[str], list[list[str]]]:
    """Stage headers and the printed commands (argv, after the ``cd DIR &&``) of a dry run."""
    proc = recipe("--shape", shape, "--steps", "7", "--prime-rl", str(tmp_path / "prime-rl"),
                  "--out", str(tmp_path / "out"), "--dry-run")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    stages = [
        line[len("== stage ") : -3]
        for line in proc.stdout.splitlines()
        if line.startswith("== stage ")
    ]
    commands = []
    for line in proc.stdout.splitlines():
        if line.startswith("+ cd "):
            argv = shlex.split(line[2:].removesuffix(" &"))
            commands.append(argv[argv.index("&&") + 1 :])
    assert not (tmp_path / "out").exists(), "a dry run must not create anything"
    return stages, commands


def registry() -> dict[str, dict[str, str]]:
    entries = json.loads((ROOT / "configs" / "registry.json").read_text())["configs"]
    return {entry["file"]: entry for entry in entries}


def config_after(argv: list[str], marker: str = "@") -> Path:
    return Path(argv[argv.index(marker) + 1])


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_dry_run_stages_in_order(shape: str, tmp_path: Path) -> None:
    stages, commands = plan(shape, tmp_path)
    assert [s for s in STAGES if any(h.startswith(s) for h in stages)] == STAGES
    assert len(stages) == len(STAGES)

    def output(c: list[str], suffix: str) -> bool:
        return "eval" in c and "-o" in c and c[c.index("-o") + 1].endswith(suffix)

    def entry(c: list[str], name: str) -> bool:
        return "@" in c and c[c.index("@") - 1] == name

    keys = [
        lambda c: output(c, "before.results.json"),
        lambda c: "sft-data" in c,
        lambda c: entry(c, "sft"),
        lambda c: "merge_sft_lora.py" in " ".join(c),
        lambda c: entry(c, "rl"),
        lambda c: output(c, "after.results.json"),
        lambda c: "report" in c,
    ]
    firsts = [next(i for i, c in enumerate(commands) if key(c)) for key in keys]
    assert firsts == sorted(firsts), commands


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_configs_named_are_registered_with_the_right_kind(shape: str, tmp_path: Path) -> None:
    _, commands = plan(shape, tmp_path)
    known = registry()
    seen = {}
    for argv in commands:
        if "@" not in argv:
            continue
        entry = argv[argv.index("@") - 1]
        config = config_after(argv)
        assert config.is_file(), config
        record = known[config.relative_to(ROOT).as_posix()]
        assert record["kind"] == entry, (config, record["kind"], entry)
        seen[entry] = record["id"]
    assert seen["sft"] == SHAPES[shape]["sft"] and seen["rl"] == SHAPES[shape]["rl"]
    if shape == "1xh100":
        assert seen["inference"] == "qwen3-4b-lora-1xh100-inference"
    else:
        assert "inference" not in seen
    # RL starts from the merged warm start and runs the requested steps.
    rl = next(c for c in commands if "@" in c and c[c.index("@") - 1] == "rl")
    merge = next(c for c in commands if "merge_sft_lora.py" in " ".join(c))
    assert rl[rl.index("--max-steps") + 1] == "7"
    assert rl[rl.index("--model.name") + 1] == merge[merge.index("--out") + 1]


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_evals_before_and_after_are_like_for_like(shape: str, tmp_path: Path) -> None:
    _, commands = plan(shape, tmp_path)
    evals = [c[c.index("eval") + 1 :] for c in commands if "bs4-env" in c and "eval" in c]
    assert len(evals) == 2

    def flags(argv: list[str]) -> list[str]:
        drop = {"--model", "-o"}  # the two things that differ: the model and the output file
        return [
            x for i, x in enumerate(argv) if x not in drop and (i == 0 or argv[i - 1] not in drop)
        ]

    before, after = evals
    assert flags(before) == flags(after)
    for flag, value in LIKE_FOR_LIKE.items():
        assert before[before.index(flag) + 1] == value, flag


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--shape", "nope"], "unknown shape 'nope'"),
        (["--shape", "1xh100", "--bogus"], "unknown argument: --bogus"),
        (["--shape", "1xh100", "--steps", "0"], "--steps must be a positive integer"),
        (["--shape", "1xh100", "--steps", "3", "--out", "/tmp/x"], "--prime-rl DIR is required"),
        (["--steps", "3"], "--shape is required"),
    ],
)
def test_refuses_bad_arguments(args: list[str], message: str) -> None:
    full = ["--steps", "3", "--prime-rl", "/nonexistent", "--out", "/tmp/x", "--dry-run", *args]
    if "--prime-rl DIR is required" in message:
        full = [*args, "--dry-run"]
    proc = recipe(*full)
    assert proc.returncode != 0
    assert message in proc.stderr, proc.stderr


def test_bash_syntax() -> None:
    proc = subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.integration
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_prime_rl_accepts_the_recipe_commands(shape: str, tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "e2e"))  # how the e2e tests import their helpers
    from primerl_run import PrimeRLMissing, primerl_venv

    try:
        venv = primerl_venv()
    except PrimeRLMissing as missing:
        pytest.skip(str(missing))
    args = ["--shape", shape, "--steps", "3", "--prime-rl", str(tmp_path / "p")]
    args += ["--out", str(tmp_path / "out"), "--dry-run", "--check-configs"]
    proc = subprocess.run(
        ["bash", str(SCRIPT), *args, "--primerl-venv", str(venv)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    checked = proc.stdout.count("checking with prime-rl's own --dry-run")
    assert checked == (3 if shape == "1xh100" else 2)
