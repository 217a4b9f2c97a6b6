"""Build (once, cached) the separate venv that runs prime-rl's own ``evals`` / ``env-server`` /
``rl`` over this environment, from the vendored prime-rl source.

prime-rl is not on PyPI; ``../shared/vendor/prime-rl-559b447.tar.gz`` holds its source and
``uv.lock``. Its pinned verifiers (``0.3.1.dev62``, a build of ``a60a606``) cannot share an
install with the verifiers 0.4 the project venv has, hence this venv. What goes in:

* every registry package the lock pins in the closure of prime-rl's dependencies, at the locked
  version, ``--no-deps`` — except the GPU-only parts (vLLM, flash-attention, CUDA libraries,
  training kernels) that neither ``evals``, ``env-server`` nor ``rl --dry-run`` import;
* the lock's editable workspace members at their PyPI builds: ``verifiers==0.3.1.dev62``,
  ``renderers==0.1.12``, ``prime-pydantic-config==0.4.3``;
* torch as the CPU build (``torch==2.13.0+cpu``, from the machine's local wheels), not the
  lock's ``2.11.0+cu128``: prime-rl imports torch at module level even in ``env-server``, and a
  CUDA build is a multi-GB download for code that never touches a GPU here;
* prime-rl and prime-rl-configs themselves from the tarball, ``--no-deps
  --ignore-requires-python``;
* this project's runtime dependencies (not the project: tests put the checkout on
  ``PYTHONPATH``, so one cached venv serves every clone) and ``uv`` (the null harness runs it).

Python 3.11, although prime-rl declares ``~=3.12``: the local CPU torch wheel is cp311 only, and
on 3.12 pip would fetch the multi-GB CUDA torch from PyPI. verifiers 0.3.1.dev62 and renderers
declare ``>=3.11``; prime-rl's sources parse and run on 3.11 (the integration test proves it).

The venv lives outside git at ``~/.cache/bs4-env/primerl-venv-<key>`` (``$BS4ENV_CACHE``
moves the parent), keyed by a hash of everything above; a lock serializes builders.

    python scripts/primerl_venv.py              # build if needed, print the venv path
    python scripts/primerl_venv.py --print-path # the path it would use; builds nothing
    python scripts/primerl_venv.py --check      # exit 1 with the build command if not built
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from packaging.markers import Marker

ROOT = Path(__file__).resolve().parents[1]
VENDOR_NAME = "prime-rl-559b447"
DEFAULT_VENDOR = ROOT.parent / "shared" / "vendor" / f"{VENDOR_NAME}.tar.gz"
BUILD_VERSION = 1  # bump when this script changes what it installs
STAMP = ".bs4env-primerl.json"
PYTHON = (3, 11)
TORCH_DEFAULT = "torch==2.13.0+cpu"
# The lock's editable workspace members, as their PyPI builds (see shared/vendor/README.md).
WORKSPACE_PINS = {
    "verifiers": "0.3.1.dev62",
    "renderers": "0.1.12",
    "prime-pydantic-config": "0.4.3",
}
# Imported by prime-rl's orchestrator/eval code but locked only through vLLM, and torch's own
# dependencies (torch itself is swapped for the CPU build).
EXTRA_ROOTS = ("prometheus-client", "psutil", "nvidia-ml-py", "networkx", "filelock", "fsspec")
# GPU-only or training-only packages none of evals / env-server / rl --dry-run import.
EXCLUDED = frozenset(
    {
        "prime-rl",
        "prime-rl-configs",
        "torch",
        "torchvision",
        "torchaudio",
        "torchdata",
        "torchtitan",
        "torchao",
        "vllm",
        "vllm-router",
        "mooncake-transfer-engine",
        "ring-flash-attn",
        "dion",
        "tilelang",
        "flash-linear-attention",
        "modelexpress",
        "triton",
        "harbor",
        "prime-kernels",
        "quack-kernels",
        "kernels",
    }
)
EXCLUDED_PREFIXES = ("nvidia-", "cuda-", "flash-attn", "flash_attn", "nixl", "deep-")
KEPT_DESPITE_PREFIX = frozenset({"nvidia-ml-py"})
MARKER_ENV = {
    "python_full_version": "3.11.0",
    "python_version": "3.11",
    "platform_machine": "x86_64",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "platform_python_implementation": "CPython",
    "implementation_name": "cpython",
    "os_name": "posix",
}
BUILD_TIMEOUT_S = 1800


class VenvError(RuntimeError):
    """The venv cannot be built or is missing; the message says what to run."""


def vendor_tarball() -> Path:
    return Path(os.environ.get("BS4ENV_PRIMERL_VENDOR", DEFAULT_VENDOR))


def cache_dir() -> Path:
    return Path(os.environ.get("BS4ENV_CACHE", Path.home() / ".cache" / "bs4-env"))


def torch_requirement() -> str:
    return os.environ.get("BS4ENV_PRIMERL_TORCH", TORCH_DEFAULT)


BUILD_COMMAND = f".venv/bin/python {Path(__file__).relative_to(ROOT)}"


def _excluded(name: str) -> bool:
    if name in KEPT_DESPITE_PREFIX:
        return False
    return name in EXCLUDED or name.startswith(EXCLUDED_PREFIXES)


def _applies(dependency: dict[str, object]) -> bool:
    marker = dependency.get("marker")
    return marker is None or Marker(str(marker)).evaluate({**MARKER_ENV, "extra": ""})


def lock_pins(lock_text: str) -> list[str]:
    """``name==version`` for the registry packages in the closure of prime-rl's dependencies
    (plus ``EXTRA_ROOTS``), GPU-only ones excluded, workspace members at their PyPI builds."""
    lock = tomllib.loads(lock_text)
    packages: dict[str, dict[str, object]] = {}
    for package in lock["package"]:
        packages.setdefault(str(package["name"]), package)
    pins: dict[str, str] = {}
    stack: list[tuple[str, tuple[str, ...]]] = [("prime-rl", ())]
    stack += [(name, ()) for name in EXTRA_ROOTS]
    expanded: set[tuple[str, tuple[str, ...]]] = set()
    while stack:
        name, extras = stack.pop()
        if (name, extras) in expanded or (name != "prime-rl" and _excluded(name)):
            continue
        expanded.add((name, extras))
        if name not in packages:
            raise VenvError(f"{name} is not in prime-rl's uv.lock")
        package = packages[name]
        source = package.get("source", {})
        assert isinstance(source, dict)
        if name in WORKSPACE_PINS:
            pins[name] = WORKSPACE_PINS[name]
        elif "registry" in source and name != "prime-rl":
            pins[name] = str(package["version"])
        elif name != "prime-rl":
            raise VenvError(f"{name} has no registry source in uv.lock: {source}")
        dependencies = list(package.get("dependencies", []))  # type: ignore[call-overload]
        optional = package.get("optional-dependencies", {})
        assert isinstance(optional, dict)
        for extra in extras:
            dependencies += optional.get(extra, [])
        for dependency in dependencies:
            if _applies(dependency):
                stack.append((str(dependency["name"]), tuple(dependency.get("extra", ()))))
    return sorted(f"{name}=={version}" for name, version in pins.items())


def project_requirements() -> list[str]:
    """This project's runtime dependencies except verifiers (the venv has prime-rl's)."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    deps = [str(d) for d in pyproject["project"]["dependencies"]]
    return [d for d in deps if not d.replace(" ", "").startswith("verifiers")] + ["uv"]


@dataclass(frozen=True)
class Plan:
    tarball: Path
    tarball_sha256: str
    pins: list[str]
    extras: list[str]
    torch: str

    def stamp(self) -> str:
        return json.dumps(
            {
                "build": BUILD_VERSION,
                "python": list(PYTHON),
                "tarball_sha256": self.tarball_sha256,
                "pins": self.pins,
                "extras": self.extras,
                "torch": self.torch,
            },
            sort_keys=True,
        )

    @property
    def key(self) -> str:
        return hashlib.sha256(self.stamp().encode()).hexdigest()[:12]

    @property
    def path(self) -> Path:
        return cache_dir() / f"primerl-venv-{self.key}"


def _read_member(tarball: Path, name: str) -> str:
    with tarfile.open(tarball) as archive:
        member = archive.extractfile(f"{VENDOR_NAME}/{name}")
        if member is None:
            raise VenvError(f"{tarball} has no {VENDOR_NAME}/{name}")
        return io.TextIOWrapper(member, encoding="utf-8").read()


def plan() -> Plan:
    tarball = vendor_tarball()
    if not tarball.is_file():
        raise VenvError(
            f"the vendored prime-rl source is missing: {tarball} (set BS4ENV_PRIMERL_VENDOR, or "
            "run from a checkout with ../shared/vendor beside it)"
        )
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    pins = lock_pins(_read_member(tarball, "uv.lock"))
    return Plan(tarball, digest, pins, project_requirements(), torch_requirement())


def is_built(path: Path, stamp: str) -> bool:
    stamp_file = path / STAMP
    return stamp_file.is_file() and stamp_file.read_text(encoding="utf-8") == stamp


def _run(command: list[str], log: Path) -> None:
    print("+", " ".join(command), file=sys.stderr, flush=True)
    with log.open("a", encoding="utf-8") as out:
        out.write(f"+ {' '.join(command)}\n")
        out.flush()
        proc = subprocess.run(
            command, stdout=out, stderr=subprocess.STDOUT, timeout=BUILD_TIMEOUT_S, check=False
        )
    if proc.returncode != 0:
        tail = log.read_text(encoding="utf-8")[-4000:]
        raise VenvError(f"{command[0]} ... failed (exit {proc.returncode}); log {log}:\n{tail}")


def _uv() -> str:
    beside = Path(sys.executable).parent / "uv"
    found = str(beside) if beside.is_file() else shutil.which("uv")
    if found is None:
        raise VenvError("uv not found: install the project's dev extra ('.[dev]')")
    return found


def build(target: Plan) -> Path:
    """Create the venv at ``target.path``; its stamp is written last, so a build that died
    half way is rebuilt from scratch next time (venv scripts record their own path, so the
    venv is built in place, never moved)."""
    if sys.version_info[:2] != PYTHON:
        raise VenvError(
            f"run this with Python {PYTHON[0]}.{PYTHON[1]} (the project venv); got "
            f"{sys.version.split()[0]}: the local CPU torch wheel is cp311 only"
        )
    uv = _uv()
    venv = target.path
    if venv.exists():
        shutil.rmtree(venv)
    venv.parent.mkdir(parents=True, exist_ok=True)
    log = venv.parent / f"{venv.name}.log"
    log.write_text("", encoding="utf-8")
    python = str(venv / "bin" / "python")
    _run([uv, "venv", "--quiet", "--seed", "--python", sys.executable, str(venv)], log)
    with tempfile.TemporaryDirectory(prefix="bs4env-primerl-") as tmp:
        work = Path(tmp)
        pins_file = work / "pins.txt"
        pins_file.write_text("\n".join(target.pins) + "\n", encoding="utf-8")
        install = [uv, "pip", "install", "--python", python]
        _run([*install, "--no-deps", "-r", str(pins_file)], log)
        # pip, not uv: pip reads the machine's config that points at the local CPU wheel.
        _run([python, "-m", "pip", "install", "--quiet", "--no-deps", target.torch], log)
        _run([*install, "--constraint", str(pins_file), *target.extras], log)
        with tarfile.open(target.tarball) as archive:
            archive.extractall(work, filter="data")
        prime_rl = work / VENDOR_NAME
        _run(
            [python, "-m", "pip", "install", "--quiet", "--no-deps", "--ignore-requires-python",
             str(prime_rl / "packages" / "prime-rl-configs"), str(prime_rl)],
            log,
        )  # fmt: skip
    (venv / STAMP).write_text(target.stamp(), encoding="utf-8")
    return venv


def ensure(target: Plan) -> Path:
    """The built venv (building it first if needed); safe to call from concurrent runs."""
    target.path.parent.mkdir(parents=True, exist_ok=True)
    with (target.path.parent / f".{target.path.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not is_built(target.path, target.stamp()):
            build(target)
    return target.path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--print-path", action="store_true", help="print the path; build nothing")
    group.add_argument("--check", action="store_true", help="exit 1 unless the venv is built")
    group.add_argument("--pins", action="store_true", help="print the pinned requirements")
    args = parser.parse_args()
    try:
        target = plan()
        if args.pins:
            print("\n".join([*target.pins, target.torch, *target.extras]))
        elif args.print_path:
            print(target.path)
        elif args.check:
            if not is_built(target.path, target.stamp()):
                raise VenvError(f"prime-rl venv not built at {target.path}; run: {BUILD_COMMAND}")
            print(target.path)
        else:
            print(ensure(target))
    except VenvError as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(1) from error


if __name__ == "__main__":
    main()
