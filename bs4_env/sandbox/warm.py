"""Warming a worker: import what model code uses and exercise every parser once.

Everything imported and run here happens before the first fork, so each call's child starts
with the modules loaded and the parsers' caches hot, at no cost of its own.

bs4 (4.13 and later) builds its table of the 2,231 HTML5 named character references, and the
regular expressions over it, lazily: at the first named entity a tree meets (``&amp;``,
``&eacute;``; most generated pages have some) or the first ``formatter="html"`` output. Left
to the call, every call over such a page rebuilt it in its own child and threw it away, ~18 ms
CPU a call, more than the sandbox's own cost (docs/development.md, "CI time"). So the warm
page holds named and numeric references, and ``warm`` writes one tree with that formatter.
"""

from __future__ import annotations

import os
import sys

from bs4_env.sandbox.program import PARSERS, install_parse_counter, run_program

# Modules model code commonly imports; importing them before the fork makes them free.
_PRELOAD = (
    *("re", "json", "collections", "itertools", "functools", "html", "html.parser"),
    *("urllib.parse", "datetime", "math", "string", "typing", "dataclasses", "csv"),
    *("textwrap", "unicodedata", "decimal", "statistics", "operator", "copy", "pprint"),
    *("difflib", "fractions", "heapq", "bisect", "random", "enum", "lxml.etree", "lxml.html"),
    *("soupsieve", "html5lib", "bs4.builder._lxml", "bs4.builder._html5lib"),
)
_WARM_PAGE = (
    "<html><head><title>t</title></head><body><div class='a'><p id='x'>hi <b>there</b></p>"
    "<table><tr><td>1</td><td>2</td></tr></table><ul><li>a</li></ul>"
    "<p title='a&amp;b'>caf&eacute; &amp; co&nbsp;&#233;&#x20AC;</p></div></body></html>"
)


def warm() -> None:
    """Import and exercise every parser so forked children start with hot caches."""
    for name in _PRELOAD:
        __import__(name)
    import bs4

    for parser in PARSERS:
        soup = bs4.BeautifulSoup(_WARM_PAGE, parser)
        soup.select("div.a > p#x, td:nth-of-type(2), li:not(.z)")
        soup.find_all(["td", "li"], string=True)
        soup.get_text(" ", strip=True)
        soup.decode(formatter="html")
    install_parse_counter()


def rehearse_call() -> None:
    """Run a program the way a call does, its output and report into /dev/null.

    A forked call copies every page it writes; run here once, the same path leaves the
    interpreter's caches it fills (the type attribute cache, the stdout buffer) filled in the
    template, so calls stop writing them.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    saved = os.dup(1)
    try:
        sys.stdout.flush()
        os.dup2(devnull, 1)
        status = run_program("print(len(HTML))", _WARM_PAGE, "", "rehearsal", report_fd=devnull)
        sys.stdout.flush()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)
    if status != 0:
        raise RuntimeError(f"the rehearsal program failed (status {status})")
