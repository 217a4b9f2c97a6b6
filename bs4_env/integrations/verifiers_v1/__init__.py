"""verifiers >= 0.4 (v1 API) integration: taskset, task, tools, config.

Importing this package imports ``verifiers.v1`` (seconds); the rest of ``bs4_env`` never
does. The Hub/``vf-eval`` entry point is the top-level ``beautiful_soup_env`` module.
"""

from bs4_env.integrations.verifiers_v1.config import BS4TasksetConfig
from bs4_env.integrations.verifiers_v1.taskset import BeautifulSoupTaskset

__all__ = ["BS4TasksetConfig", "BeautifulSoupTaskset"]
