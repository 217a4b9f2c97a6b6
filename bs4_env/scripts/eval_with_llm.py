"""``python -m bs4_env.scripts.eval_with_llm --model M --num N --output results.json``.

The same evaluation as ``bs4-env eval`` (same engine, same arguments).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bs4_env.cli.eval_cmd import add_eval_arguments, cmd_eval


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="eval_with_llm", description=__doc__)
    add_eval_arguments(parser)
    return cmd_eval(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
