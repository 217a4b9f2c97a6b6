"""Build (once) the separate virtualenvs the classic stack needs, from a source checkout.

verifiers 0.3 and 0.4 cannot share one install, and ``vf-tui`` exists for real only in
verifiers 0.1.14, so each gets its own venv, made with ``uv`` (a dev dependency):

* ``classic``: this checkout, editable, with verifiers overridden to ``verifiers>=0.3,<0.4``
  (``uv pip install -e . --override``; pip cannot override our own ``verifiers>=0.4``);
* ``tui``: ``verifiers==0.1.14`` alone (its Textual ``vf-tui`` reads classic outputs).

A venv is rebuilt only when what it was built from changes (requirements, ``pyproject.toml``,
the Python version); a lock serializes concurrent builders. The tests use this; so can a
developer: ``python -m bs4_env.integrations.verifiers_classic.venvs classic build/venv-classic``.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

from bs4_env.integrations.verifiers_classic.compat import CLASSIC_REQUIREMENT

TUI_REQUIREMENT = "verifiers==0.1.14"
STAMP = ".bs4env-venv.json"
ROOT = Path(__file__).resolve().parents[3]
BUILD_TIMEOUT_S = 900


def source_root() -> Path:
    """The checkout this package runs from; raises outside a source checkout."""
    if not (ROOT / "pyproject.toml").is_file() or not (ROOT / "bs4_env").is_dir():
        raise FileNotFoundError(f"{ROOT} is not a beautiful-soup-env source checkout")
    return ROOT


def uv_binary() -> str:
    """``uv`` next to this interpreter (the dev install) or on PATH."""
    beside = Path(sys.executable).parent / "uv"
    found = str(beside) if beside.is_file() else shutil.which("uv")
    if found is None:
        raise FileNotFoundError("uv not found: install it (pip install uv, or '.[dev]')")
    return found


def _plan(kind: str) -> tuple[list[str], list[str]]:
    """(requirements, overrides) of a venv kind."""
    if kind == "classic":
        return ["-e", str(source_root())], [CLASSIC_REQUIREMENT]
    if kind == "tui":
        return [TUI_REQUIREMENT], []
    raise ValueError(f"unknown venv kind {kind!r}; valid: classic, tui")


def _stamp(kind: str, requirements: list[str], overrides: list[str]) -> str:
    pyproject = (source_root() / "pyproject.toml").read_bytes() if kind == "classic" else b""
    return json.dumps(
        {
            "kind": kind,
            "requirements": requirements,
            "overrides": overrides,
            "python": sys.version.split()[0],
            "pyproject": hashlib.sha256(pyproject).hexdigest(),
        },
        sort_keys=True,
    )


def ensure_venv(kind: str, path: Path) -> Path:
    """The venv at ``path`` for ``kind`` (built or rebuilt if needed); returns its bin dir."""
    requirements, overrides = _plan(kind)
    stamp = _stamp(kind, requirements, overrides)
    path.parent.mkdir(parents=True, exist_ok=True)
    with (path.parent / f".{path.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp_file = path / STAMP
        if stamp_file.is_file() and stamp_file.read_text(encoding="utf-8") == stamp:
            return path / "bin"
        if path.exists():
            shutil.rmtree(path)
        uv = uv_binary()
        _run([uv, "venv", "--quiet", "--python", sys.executable, str(path)])
        command = [uv, "pip", "install", "--quiet", "--python", str(path / "bin" / "python")]
        if overrides:
            override_file = path / "overrides.txt"
            override_file.write_text("\n".join(overrides) + "\n", encoding="utf-8")
            command += ["--override", str(override_file)]
        _run([*command, *requirements])
        stamp_file.write_text(stamp, encoding="utf-8")
    return path / "bin"


def _run(command: list[str]) -> None:
    proc = subprocess.run(
        command, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S, check=False
    )
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{proc.stdout}{proc.stderr}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["classic", "tui"])
    parser.add_argument("path", type=Path)
    args = parser.parse_args()
    print(ensure_venv(args.kind, args.path))


if __name__ == "__main__":
    main()
