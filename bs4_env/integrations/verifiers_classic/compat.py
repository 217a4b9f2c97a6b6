"""Which verifiers API is installed: the classic one (``StatefulToolEnv``) or only v1.

verifiers 0.3.x ships the classic API under ``verifiers.legacy`` (aliased at the top level,
``import verifiers as vf; vf.StatefulToolEnv``); the snapshot that prime-rl v0.8.0 pins
(verifiers commit d30a3f4, between 0.2.1 and 0.3.0) has it at ``verifiers.envs``; 0.4 has
neither. The two cannot share one install (0.4 needs ``mcp==2``, 0.3 ``mcp<2``), so the classic
adapter works only where a classic verifiers is installed. Probing with ``find_spec`` loads
no classic module.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from importlib.util import find_spec

CLASSIC_REQUIREMENT = "verifiers>=0.3,<0.4"
INSTALL_HINT = (
    "install the classic stack in its own environment, from a checkout (uv needed):\n"
    "  python -m bs4_env.integrations.verifiers_classic.venvs classic build/venv-classic\n"
    f"(it installs the checkout with {CLASSIC_REQUIREMENT} as an override; pip alone cannot: "
    "beautiful-soup-env itself requires verifiers>=0.4; see docs/verifiers.md)"
)


def installed_verifiers() -> str | None:
    """The installed verifiers version, or None when verifiers is not installed."""
    try:
        return version("verifiers")
    except PackageNotFoundError:
        return None


def classic_api_installed() -> bool:
    """True when ``import verifiers as vf; vf.StatefulToolEnv`` works in this install."""
    if installed_verifiers() is None:
        return False
    return any(find_spec(name) is not None for name in ("verifiers.legacy", "verifiers.envs"))


def require_classic_api() -> None:
    """Raise a clear ImportError unless a classic verifiers is installed."""
    if not classic_api_installed():
        found = installed_verifiers()
        raise ImportError(
            "the classic beautiful-soup-env environment (load_environment) needs "
            f"{CLASSIC_REQUIREMENT}; this install has "
            f"{'verifiers ' + found if found else 'no verifiers'} (verifiers 0.4 has only the v1 "
            "API: use `vf-eval beautiful-soup-env` with the BeautifulSoupTaskset instead, or "
            f"{INSTALL_HINT})"
        )
