"""``bs4-env report RESULTS.json [--out report.html]``: the eval results as one HTML page."""

from __future__ import annotations

import argparse
from pathlib import Path

from bs4_env.evaluation.report_input import ReportInputError


def add_report_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("results", type=Path, help="a results JSON written by `bs4-env eval`")
    parser.add_argument(
        "--out", "-o", type=Path, help="HTML file to write (default: RESULTS with .html)"
    )


def cmd_report(args: argparse.Namespace) -> int:
    """Write the report; bad input raises ``ReportInputError`` (a ValueError: exit 2)."""
    # Imported here: the plotting stack loads only for this command.
    from bs4_env.evaluation.html_report import write_report

    try:
        output = write_report(args.results, args.out)
    except OSError as error:  # the output cannot be written (no such folder, permissions)
        target = error.filename or args.out
        raise ReportInputError(f"{target}: cannot write the report ({error.strerror})") from None
    print(f"report: {output}")
    return 0
