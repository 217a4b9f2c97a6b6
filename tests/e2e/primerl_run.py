"""prime-rl's cached venv for its own entry points (``evals``, ``rl``, ``env-server``).

The venv is built by ``scripts/primerl_venv.py`` from the vendored prime-rl source (see that
script for what it holds and why Python 3.11), by the first test that needs it when it is not
built yet (the script's lock makes the xdist workers build it once), so that ``make test``
builds it while the other worker runs tests. A missing vendor tarball raises
``PrimeRLMissing`` with the command that fixes it; a failed build fails. Before use, this
checkout is installed into the venv ``--no-deps`` (as the README tells users to install it into
prime-rl's venv): the sandbox workers start with ``python -I``, so the package must be
installed, not on ``PYTHONPATH``.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import socket
import subprocess
import sys
import tomllib
from pathlib import Path

from vf_run import UV_CACHE, UV_EXCLUDE_NEWER

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "primerl_venv.py"
BUILD_COMMAND = f"{sys.executable} {SCRIPT}"
KEY_VAR = "BS4ENV_SCRIPTED_KEY"


class PrimeRLMissing(RuntimeError):
    """The vendored prime-rl or its venv is missing; the message says what to run."""


def _script(*args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True, text=True, check=False, timeout=timeout,
    )  # fmt: skip


def primerl_venv() -> Path:
    """The built prime-rl venv, built first when it is not (``PrimeRLMissing`` with the fix
    when the vendored source is not there; ``RuntimeError`` when the build fails)."""
    built = _script("--check", timeout=60)
    if built.returncode == 0:
        return Path(built.stdout.strip())
    # --print-path reads the vendored tarball only: it fails when the source is missing.
    source = _script("--print-path", timeout=60)
    if source.returncode != 0:
        raise PrimeRLMissing(
            f"{source.stderr.strip()}\nbuild it with: {BUILD_COMMAND} "
            "(needs ../shared/vendor/prime-rl-559b447.tar.gz beside the checkout, or "
            "BS4ENV_PRIMERL_VENDOR)"
        )
    build = _script(timeout=1200)
    if build.returncode != 0:
        raise RuntimeError(f"building the prime-rl venv failed ({BUILD_COMMAND}):\n{build.stderr}")
    return Path(build.stdout.strip())


def _checkout_key() -> str:
    """A hash of what installing the checkout puts in a venv: the wheel's packages and pyproject."""
    digest = hashlib.sha256()
    pyproject = ROOT / "pyproject.toml"
    wheel = tomllib.loads(pyproject.read_text())["tool"]["hatch"]["build"]["targets"]["wheel"]
    files = [pyproject]
    files += sorted(p for pkg in wheel["packages"] for p in (ROOT / pkg).rglob("*")
                    if p.is_file() and "__pycache__" not in p.parts)  # fmt: skip
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def install_checkout(venv: Path) -> None:
    """Install this checkout into the venv, ``--no-deps``, under the venv's build lock.

    Once per checkout content (a stamp in the venv): test modules on other xdist workers run
    prime-rl from this venv meanwhile, and a reinstall would pull the package from under them.
    """
    uv = Path(sys.executable).parent / "uv"
    lock_path = venv.parent / f".{venv.name}.lock"
    stamp = venv / f".bs4env-checkout-{_checkout_key()}"
    with lock_path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stamp.exists():
            return
        proc = subprocess.run(
            [str(uv), "pip", "install", "--quiet", "--python", str(venv / "bin" / "python"),
             "--no-deps", "--reinstall-package", "beautiful-soup-env", str(ROOT)],
            capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
        if proc.returncode != 0:
            raise RuntimeError(f"installing the checkout into {venv} failed:\n{proc.stderr}")
        for old in venv.glob(".bs4env-checkout-*"):
            old.unlink()
        stamp.touch()


def primerl_env(venv: Path) -> dict[str, str]:
    """Environment for prime-rl's commands: its venv first on PATH (``env-server`` is spawned
    by name, and the null harness runs ``uv``), the shared uv cache, a dummy key."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["UV_CACHE_DIR"] = str(UV_CACHE)
    env["UV_EXCLUDE_NEWER"] = UV_EXCLUDE_NEWER
    env[KEY_VAR] = "scripted"
    env["PYTHONUNBUFFERED"] = "1"
    return env


def free_port_block(size: int) -> int:
    """A base port whose ``size`` consecutive ports are free now on 127.0.0.1."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            base = int(probe.getsockname()[1])
        if base + size > 65535:
            continue
        try:
            for port in range(base, base + size):
                with socket.socket() as other:
                    other.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    raise RuntimeError("no block of free ports")
