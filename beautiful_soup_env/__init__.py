"""Entry module for ``vf-eval beautiful-soup-env`` and the Environments Hub.

verifiers loads the one ``vf.Taskset`` subclass exported in ``__all__``. Importing this
module imports ``verifiers.v1``; the engine itself lives in ``bs4_env``.
"""

from bs4_env.integrations.verifiers_v1.taskset import BeautifulSoupTaskset

__all__ = ["BeautifulSoupTaskset"]
