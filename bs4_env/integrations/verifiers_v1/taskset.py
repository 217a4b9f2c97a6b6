"""``BeautifulSoupTaskset``: the verifiers v1 taskset (``vf-eval beautiful-soup-env``).

``load()`` walks our dataset rows lazily (``build_rows``): a task is generated only when
verifiers reads it, so ``-n 5`` on the 440k-row train split builds five tasks.
"""

from __future__ import annotations

from collections.abc import Iterator

import verifiers.v1 as vf

from bs4_env.episode.prompt import SYSTEM_PROMPT, user_prompt
from bs4_env.integrations.verifiers_v1.config import BS4TasksetConfig
from bs4_env.integrations.verifiers_v1.state import cached_task
from bs4_env.integrations.verifiers_v1.task import BS4Task, BS4TaskData
from bs4_env.integrations.verifiers_v1.toolset import BS4Toolset
from bs4_env.tasks.modes import build_rows
from bs4_env.tasks.splits import Row


def task_data(row: Row) -> BS4TaskData:
    """The verifiers task data of one row: prompts, identity and labels (no truth)."""
    task = cached_task(row.archetype_id, row.seed, row.split)
    return BS4TaskData(
        id=f"{task.split}/{task.archetype_id}/{task.seed}",
        name=task.archetype_id,
        prompt=user_prompt(task),
        system_prompt=SYSTEM_PROMPT,
        archetype=task.archetype_id,
        seed=task.seed,
        split=task.split,
        difficulty=task.difficulty.value,
        category=task.category.value,
    )


class BeautifulSoupTaskset(vf.Taskset[BS4Task, BS4TasksetConfig]):
    """HTML extraction with BeautifulSoup over seeded pages, graded deterministically."""

    def load(self) -> Iterator[BS4Task]:
        config: BS4TasksetConfig = self.config
        for row in build_rows(config.dataset_config()):
            yield BS4Task(task_data(row), config.task)

    @classmethod
    def toolsets(cls, config: BS4TasksetConfig) -> list[vf.Toolset]:
        if config.tool_scope != "shared":
            return []
        return [BS4Toolset(config.tools)]
