"""Child-side program runner. Runs as a script (``python -I runner.py REPORT_FD``).

Reads ``{"code", "html", "query", "key"}`` as JSON from stdin and runs the program with the shared
child-side implementation in ``program.py`` (the same one the warm pool's children use).
"""

import json
import os
import sys

from bs4_env.sandbox.program import run_program


def main() -> int:
    report_fd = int(sys.argv[1])
    request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    sys.stdin = open(os.devnull)  # noqa: SIM115 - the model's code must not read the request
    return run_program(
        request["code"], request["html"], request["query"], request["key"], report_fd
    )


if __name__ == "__main__":
    sys.exit(main())
