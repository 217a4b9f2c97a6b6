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
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "gpu_recipe.sh"
QWEN3 = "Qwen/Qwen3-4B-Instruct-2507"
QWEN25_CODER = "Qwen/Qwen2.5-Coder-7B-Instruct"
# Per shape: the registry ids of its configs (inference: the hand-started companion, 1x only),
# its base model, and the GPUs its eval servers use (the RL config's vLLM GPUs).
SHAPES = {
    "1xh100": {"sft": "qwen3-4b-lora-sft-1xh100", "rl": "qwen3-4b-lora-1xh100",
               "inference": "qwen3-4b-lora-1xh100-inference", "model": QWEN3, "serve": "0"},
    "2xh100": {"sft": "qwen3-4b-lora-sft-2xh100", "rl": "qwen3-4b-lora-2xh100",
               "inference": None, "model": QWEN3, "serve": "0"},
    "8xh100": {"sft": "qwen25-coder-7b-lora-sft-8xh100", "rl": "qwen25-coder-7b-lora-8xh100",
               "inference": None, "model": QWEN25_CODER, "serve": "0,1,2,3,4,5"},
}  # fmt: skip
STAGES = ["1: baseline", "2: SFT", "3: merge", "4: RL", "5: eval after", "6: like-for-like"]
# Flags ``--config`` decides (from the RL config's eval source): the evals must not give them.
CONFIG_DECIDED = {"--split", "-n", "--temperature", "--max-tokens", "--max-turns",
                  "--max-tool-calls", "--max-output-bytes", "--timeout-s", "--mode"}  # fmt: skip


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


def value(argv: list[str], flag: str) -> str:
    return argv[argv.index(flag) + 1]


def config_model(path: Path) -> str:
    """The model a prime-rl config names: [model] name, or [vllm] model for inference."""
    table = tomllib.loads(path.read_text())
    return table["model"]["name"] if "model" in table else table["vllm"]["model"]


def servers(commands: list[list[str]]) -> list[list[str]]:
    """The two eval servers' ``vllm serve`` commands (before, after)."""
    return [c for c in commands if "vllm" in c and c[c.index("vllm") + 1] == "serve"]


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
    assert seen.get("inference") == SHAPES[shape]["inference"]
    # RL starts from the merged warm start and runs the requested steps.
    rl = next(c for c in commands if "@" in c and c[c.index("@") - 1] == "rl")
    merge = next(c for c in commands if "merge_sft_lora.py" in " ".join(c))
    assert rl[rl.index("--max-steps") + 1] == "7"
    assert rl[rl.index("--model.name") + 1] == merge[merge.index("--out") + 1]


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_shapes_model_throughout(shape: str, tmp_path: Path) -> None:
    """Baseline served and evaluated, every config's model, the merge base, the RL tokenizer:
    all the shape's base model (the documented merge-then-RL handover)."""
    stages, commands = plan(shape, tmp_path)
    model = SHAPES[shape]["model"]
    assert stages[0] == f"1: baseline eval of {model}"
    assert stages[2] == f"3: merge the SFT LoRA into {model}"
    before, _ = servers(commands)
    assert before[before.index("serve") + 1] == model
    evals = [c for c in commands if "bs4-env" in c and "eval" in c]
    assert value(evals[0], "--model") == model
    for argv in commands:
        if "@" in argv:
            assert config_model(config_after(argv)) == model, argv
    merge = next(c for c in commands if "merge_sft_lora.py" in " ".join(c))
    assert config_model(Path(value(merge, "--config"))) == model
    rl = next(c for c in commands if "@" in c and c[c.index("@") - 1] == "rl")
    assert value(rl, "--tokenizer.name") == model
    assert value(rl, "--model.name") == value(merge, "--out")
    other = {spec["model"] for spec in SHAPES.values()} - {model}
    assert not any(name in arg for c in commands for arg in c for name in other)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_eval_servers_take_the_rl_configs_vllm_gpus(shape: str, tmp_path: Path) -> None:
    """Both eval servers run where the RL config puts vLLM: GPUs 0..num_infer_gpus-1 (GPU 0
    when the RL config starts none: 1x, whose hand-started companion shares GPU 0), one
    data-parallel replica per GPU."""
    _, commands = plan(shape, tmp_path)
    rl = next(c for c in commands if "@" in c and c[c.index("@") - 1] == "rl")
    rl_config = tomllib.loads(config_after(rl).read_text())
    infer_gpus = max(rl_config["deployment"]["num_infer_gpus"], 1)
    tensor_parallel = rl_config.get("inference", {}).get("vllm", {}).get("tensor_parallel_size", 1)
    assert tensor_parallel == 1
    expected = ",".join(str(gpu) for gpu in range(infer_gpus))
    assert expected == SHAPES[shape]["serve"]
    both = servers(commands)
    assert len(both) == 2
    for server in both:
        assert f"CUDA_VISIBLE_DEVICES={expected}" in server, server
        replicas = int(value(server, "--data-parallel-size")) if infer_gpus > 1 else 1
        assert replicas == infer_gpus, server
        assert ("--data-parallel-size" in server) == (infer_gpus > 1), server
    # The after server serves the RL adapter at the RL config's LoRA rank.
    rank = rl_config["trainer"]["model"]["lora"]["rank"]
    assert value(both[1], "--max-lora-rank") == str(rank)
    # RL itself: prime-rl splits the GPUs by [deployment]; only 1x pins its one GPU.
    pinned = [arg for arg in rl if arg.startswith("CUDA_VISIBLE_DEVICES=")]
    assert pinned == (["CUDA_VISIBLE_DEVICES=0"] if shape == "1xh100" else [])


def test_usage_names_every_shape() -> None:
    proc = recipe("--help")
    assert proc.returncode == 0, proc.stderr
    assert "{" + ",".join(SHAPES) + "}" in proc.stdout
    assert ", ".join(SHAPES) in recipe("--shape", "nope", "--steps", "1", "--prime-rl", "/p",
                                       "--out", "/tmp/x", "--dry-run").stderr  # fmt: skip


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
    rl_config = ROOT / "configs" / "prime-rl" / f"{SHAPES[shape]['rl']}.toml"
    assert Path(before[before.index("--config") + 1]) == rl_config
    assert not CONFIG_DECIDED & set(before), "the config sets these"


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
    from primerl_run import PrimeRLMissing, install_checkout, primerl_venv

    try:
        venv = primerl_venv()
    except PrimeRLMissing as missing:
        pytest.skip(str(missing))
    install_checkout(venv)  # rl loads the taskset by name: the README installs it there too
    args = ["--shape", shape, "--steps", "3", "--prime-rl", str(tmp_path / "p")]
    args += ["--out", str(tmp_path / "out"), "--dry-run", "--check-configs"]
    proc = subprocess.run(
        ["bash", str(SCRIPT), *args, "--primerl-venv", str(venv)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    checked = proc.stdout.count("checking with prime-rl's own --dry-run")
    assert checked == (3 if SHAPES[shape]["inference"] else 2)  # sft, rl (+ inference on 1x)


def test_check_configs_names_the_missing_taskset(tmp_path: Path) -> None:
    # A prime-rl venv whose python cannot import beautiful_soup_env: rl would fail to load the
    # taskset by name, so the script stops first and prints the install command.
    bin_dir = tmp_path / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name, body in (("rl", "exit 0"), ("python", "exit 1")):
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    proc = recipe("--shape", "1xh100", "--steps", "3", "--prime-rl", str(tmp_path / "p"),
                  "--out", str(tmp_path / "out"), "--dry-run", "--check-configs",
                  "--primerl-venv", str(tmp_path / "venv"))  # fmt: skip
    assert proc.returncode == 2
    assert "lacks beautiful-soup-env" in proc.stderr, proc.stderr
    assert f"uv pip install --python {bin_dir / 'python'} --no-deps {ROOT}" in proc.stderr
