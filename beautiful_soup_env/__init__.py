"""Entry module for ``vf-eval beautiful-soup-env``, prime-rl and the Environments Hub.

Wherever ``verifiers.v1`` is importable (verifiers 0.4, and the 0.3.1 dev snapshot that
prime-rl main pins, which ships both ``verifiers.v1`` and ``verifiers.legacy``) ``__all__``
exports the one ``vf.Taskset`` subclass that the v1 loader looks for, plus the ``vf.Harness``
and ``vf.Env`` subclasses verifiers takes as the taskset's defaults, so a bare
``vf-eval beautiful-soup-env`` plays with the tool-calling harness on the local runtime
(``bs4_env.integrations.verifiers_v1.harness``). ``load_environment``
is always a module attribute: classic ``vf-eval`` (0.3.x) and prime-rl v0.8.0's legacy bridge
look it up by name, and with no classic API installed it raises ImportError saying what to
install. The engine itself lives in ``bs4_env``.

The three v1 classes are imported when first looked up (PEP 562 ``__getattr__``; the v1 loader
reads ``__all__`` and then ``getattr``\\s each name), not on import: a classic process (classic
``vf-eval`` and each of its env-server workers) never touches them, and ``import
verifiers.v1`` there costs ~0.6 CPU-s with bytecode, more without (its judge imports sympy).
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from typing import Any

from bs4_env.integrations.verifiers_classic import load_environment

# Exported name -> the module defining it (imported on first lookup).
_V1_EXPORTS = {
    "BeautifulSoupEnv": "bs4_env.integrations.verifiers_v1.harness",
    "BeautifulSoupHarness": "bs4_env.integrations.verifiers_v1.harness",
    "BeautifulSoupTaskset": "bs4_env.integrations.verifiers_v1.taskset",
}

__all__ = ["load_environment"]

if find_spec("verifiers") is not None and find_spec("verifiers.v1") is not None:
    __all__ = [*sorted(_V1_EXPORTS), "load_environment"]


def __getattr__(name: str) -> Any:
    """The v1 classes, imported on first lookup (only where ``__all__`` exports them)."""
    if name in _V1_EXPORTS and name in __all__:
        value = getattr(import_module(_V1_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
