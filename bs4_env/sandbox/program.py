"""Child-side program execution shared by ``runner.py`` and the warm pool's forked children.

One implementation of what the model's code sees (``HTML``, ``QUERY``, ``make_soup``), how
BeautifulSoup parses are counted, and how tracebacks are trimmed, so every backend grades
the same program the same way.

Only trees built from the page itself count (``make_soup()``, ``BeautifulSoup(HTML, ...)``,
also from ``HTML.encode()``); ``BeautifulSoup('')`` or a tree of any other markup does not.
The count is self-reported: it is kept and written by code in the program's own process, so
code that reaches into this module's frames or objects can change it. The report is keyed
with a per-call secret from the payload, so blind writes to its descriptor do not count.
"""

from __future__ import annotations

import linecache
import os
import sys
import traceback
from typing import Any

import bs4

PARSERS = ("html.parser", "lxml", "html5lib")
MODEL_FILENAME = "<model-code>"
_REPORT = '{{"key":"{}","soup_parses":{}}}'  # JSON, read by ``protocol.parse_report``


class _ParseCounter:
    """Counts trees built from the current call's page.

    Installed over ``BeautifulSoup.__init__`` once per process (in the warm template, by
    ``install_parse_counter``), so a forked call only points it at its own page: replacing a
    class attribute in every call would write (copy-on-write) the pages of the class and of
    the interpreter's type caches.
    """

    def __init__(self) -> None:
        self.installed = False
        self.html: str | None = None
        self.encoded: bytes | None = None
        self.parses = 0

    def start(self, html: str) -> None:
        self.html, self.encoded, self.parses = html, None, 0

    def is_page(self, markup: object) -> bool:
        html = self.html
        if html is None:
            return False
        if isinstance(markup, str):
            return markup is html or markup == html
        if isinstance(markup, (bytes, bytearray)):
            if self.encoded is None:
                self.encoded = html.encode("utf-8", "surrogatepass")
            return len(markup) == len(self.encoded) and markup == self.encoded
        return False


_counter = _ParseCounter()


def install_parse_counter() -> None:
    """Wrap ``BeautifulSoup.__init__`` (once per process) so trees of the page are counted."""
    original_init = bs4.BeautifulSoup.__init__
    if getattr(original_init, "_counts_parses", False):
        _counter.installed = True
        return

    def counting_init(self: bs4.BeautifulSoup, *args: Any, **kwargs: Any) -> None:
        original_init(self, *args, **kwargs)
        if _counter.is_page(args[0] if args else kwargs.get("markup", "")):
            _counter.parses += 1

    counting_init._counts_parses = True  # type: ignore[attr-defined]
    bs4.BeautifulSoup.__init__ = counting_init  # type: ignore[method-assign]
    _counter.installed = True


def _exit_status(stop: SystemExit) -> int:
    if isinstance(stop.code, int):
        return stop.code
    if stop.code is not None:
        # sys.exit("message") prints the message like the interpreter would.
        print(stop.code, file=sys.stderr)
        return 1
    return 0


def run_program(code: str, html: str, query: str, key: str, report_fd: int) -> int:
    """Run ``code`` as ``__main__`` over ``html``; write the keyed parse count to ``report_fd``.

    Returns the exit status the program would have had as a script. ``key`` must be
    alphanumeric (it is written into the report as is).
    """
    if not key.isalnum():
        raise ValueError("the report key must be alphanumeric")
    if not _counter.installed:  # a warm template's calls find it installed: no class lookups
        install_parse_counter()
    _counter.start(html)

    def make_soup(parser: str = "html.parser") -> bs4.BeautifulSoup:
        """Parse the current page with 'html.parser', 'lxml' or 'html5lib'."""
        if parser not in PARSERS:
            raise ValueError(f"parser must be one of {PARSERS}, got {parser!r}")
        return bs4.BeautifulSoup(html, parser)

    namespace: dict[str, Any] = {"__name__": "__main__", "HTML": html, "QUERY": query}
    namespace["make_soup"] = make_soup
    # Registering the source lets tracebacks show the model's own lines.
    linecache.cache[MODEL_FILENAME] = (len(code), None, code.splitlines(True), MODEL_FILENAME)
    status = 0
    try:
        exec(compile(code, MODEL_FILENAME, "exec"), namespace)
    except SystemExit as stop:
        status = _exit_status(stop)
    except BaseException as error:  # the model's own error is reported as a traceback
        # Drop this function's frame so the traceback starts in the model's code.
        tb = error.__traceback__.tb_next if error.__traceback__ else None
        traceback.print_exception(type(error), error, tb)
        status = 1
    finally:
        _flush_std_streams()
        try:
            # Formatted, not json.dumps: the encoder's first use in a forked call copies some
            # 120 of the template's pages.
            os.write(report_fd, _REPORT.format(key, _counter.parses).encode())
        except OSError as error:
            # The program closed or replaced the descriptor: its parse count is lost (a
            # missing report counts as no parse). Say so on stderr.
            print(f"[sandbox] could not write report: {error}", file=sys.__stderr__)
    return status


def _flush_std_streams() -> None:
    """Flush stdout/stderr; a program may have closed or replaced them."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError) as error:
            # The model closed or broke its own stream; its output is what it is.
            print(f"[sandbox] flush failed: {error!r}", file=sys.__stderr__)
