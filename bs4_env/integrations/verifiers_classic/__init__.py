"""Classic verifiers (0.3.x, and prime-rl v0.8.0's legacy bridge) integration.

``load_environment(**kwargs)`` checks its arguments first (in any install), then builds the
``StatefulToolEnv`` over the episode engine, which needs the classic verifiers API: with
verifiers 0.4 it raises ImportError saying what to install. Nothing here imports
``verifiers.v1``.
"""

from __future__ import annotations

from typing import Any

from bs4_env.integrations.verifiers_classic.compat import (
    CLASSIC_REQUIREMENT,
    classic_api_installed,
    require_classic_api,
)
from bs4_env.integrations.verifiers_classic.options import VALID_ARGUMENTS, ClassicOptions

__all__ = [
    "CLASSIC_REQUIREMENT",
    "VALID_ARGUMENTS",
    "ClassicOptions",
    "classic_api_installed",
    "load_environment",
]


def load_environment(**kwargs: Any) -> Any:
    """The classic environment: ``vf-eval beautiful-soup-env -a '{"split": "bench"}'`` or
    prime-rl v0.8.0 ``[orchestrator.train.source.legacy] args``.

    Arguments: ``split``, ``mode``, ``difficulty``, ``archetypes``, ``seed``, ``num_examples``
    (which tasks), or ``pages`` (``real`` or a rows file of labelled pages) with
    ``max_page_bytes`` and ``num_examples``, then ``executor``, ``pool_size``,
    ``max_tool_calls``, ``timeout_s``, ``max_output_bytes`` (how tool calls run) and
    ``max_turns``. Unknown ones raise ``ConfigError`` with the valid list; without a classic
    verifiers this raises ImportError.
    """
    options = ClassicOptions.from_kwargs(**kwargs)
    require_classic_api()
    from bs4_env.integrations.verifiers_classic.env import build_environment

    return build_environment(options)
