"""Only ``bs4_env.integrations`` (and the ``beautiful_soup_env`` entry module) import verifiers."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_engine_modules_never_import_verifiers() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "bs4_env").rglob("*.py")
        if "integrations" not in path.parts
        and any(name.split(".")[0] == "verifiers" for name in _imports(path))
    ]
    assert offenders == []


def test_cli_import_does_not_load_verifiers() -> None:
    code = (
        "import sys, bs4_env.cli.main, bs4_env.evaluation.runner, bs4_env.episode.engine; "
        "sys.exit('verifiers' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], timeout=120).returncode == 0
