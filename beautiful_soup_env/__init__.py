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
"""

from importlib.util import find_spec

from bs4_env.integrations.verifiers_classic import load_environment

__all__ = ["load_environment"]

if find_spec("verifiers") is not None and find_spec("verifiers.v1") is not None:
    from bs4_env.integrations.verifiers_v1.harness import BeautifulSoupEnv, BeautifulSoupHarness
    from bs4_env.integrations.verifiers_v1.taskset import BeautifulSoupTaskset

    __all__ = [
        "BeautifulSoupEnv",
        "BeautifulSoupHarness",
        "BeautifulSoupTaskset",
        "load_environment",
    ]
