"""The executor interface: an async ``run`` of one program over one page, typed results.

Backends are swappable (a plain subprocess backend, a hardened warm-pool backend, remote
sandboxes); every backend takes an ``ExecRequest`` and returns an ``ExecResult``.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Literal

Parser = Literal["html.parser", "lxml", "html5lib"]
PARSERS: tuple[Parser, ...] = ("html.parser", "lxml", "html5lib")

DEFAULT_TIMEOUT_S = 10.0
DEFAULT_MAX_OUTPUT_BYTES = 16_000


@dataclass(frozen=True)
class ExecRequest:
    """One program to run; the sandbox sees ``HTML`` and ``QUERY`` and nothing else of the task."""

    code: str
    html: str
    query: str = ""
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES


@dataclass(frozen=True)
class ExecResult:
    """What happened. ``infra_error`` is set only when the sandbox itself failed.

    ``duration_s`` is the run time (from a sandbox taking the call to its answer);
    ``queue_wait_s`` is the time spent before that, waiting for a free sandbox.
    """

    stdout: str
    stderr: str
    exit_code: int | None
    timed_out: bool
    duration_s: float
    stdout_truncated_bytes: int = 0
    stderr_truncated_bytes: int = 0
    soup_parses: int = 0
    infra_error: str | None = None
    queue_wait_s: float = 0.0

    @property
    def ok(self) -> bool:
        """The program ran to completion with exit status 0."""
        return self.infra_error is None and not self.timed_out and self.exit_code == 0

    @property
    def parsed_page(self) -> bool:
        """A successful run that built at least one BeautifulSoup tree."""
        return self.ok and self.soup_parses > 0


class Executor(abc.ABC):
    """Runs programs; ``run`` never blocks the event loop and may be called concurrently."""

    @abc.abstractmethod
    async def run(self, request: ExecRequest) -> ExecResult: ...

    async def aclose(self) -> None:  # noqa: B027 - optional hook, most backends hold nothing
        """Release workers and child processes."""

    async def __aenter__(self) -> Executor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def truncation_marker(dropped: int) -> str:
    """The visible marker appended to capped output."""
    return f"\n[... {dropped} bytes truncated]"


def cap_output(data: bytes, limit: int) -> tuple[str, int]:
    """Decode at most ``limit`` bytes (invalid UTF-8 replaced); return text and bytes dropped."""
    dropped = max(0, len(data) - limit)
    text = data[:limit].decode("utf-8", errors="replace")
    return (text + truncation_marker(dropped) if dropped else text), dropped
