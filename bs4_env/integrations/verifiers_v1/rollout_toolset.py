"""The same tools as a per-rollout server (``--env.taskset.tool-scope rollout``).

One process (and one sandbox executor) per rollout: simpler isolation, but every rollout
pays a Python start, ``import verifiers`` and an executor start (see scripts/bench_vf.py).
verifiers launches it as ``python -m bs4_env.integrations.verifiers_v1.rollout_toolset``.
"""

from __future__ import annotations

import verifiers.v1 as vf

from bs4_env.integrations.verifiers_v1.config import BS4RolloutToolsetConfig
from bs4_env.integrations.verifiers_v1.state import BS4State
from bs4_env.integrations.verifiers_v1.toolset import EngineTools


class BS4RolloutToolset(EngineTools, vf.Toolset[BS4RolloutToolsetConfig, BS4State]):
    """Per-rollout tool server: started by ``BS4Task.toolsets`` for every rollout."""


if __name__ == "__main__":
    BS4RolloutToolset.run()
