"""Warming a worker: import what model code uses and exercise every parser once.

Everything imported and run here happens before the first fork, so each call's child starts
with the modules loaded and the parsers' caches hot, at no cost of its own.

bs4 (4.13 and later) builds its table of the 2,231 HTML5 named character references, and the
regular expressions over it, lazily: at the first named entity a tree meets (``&amp;``,
``&eacute;``; most generated pages have some) or the first ``formatter="html"`` output. Left
to the call, every call over such a page rebuilt it in its own child and threw it away, ~18 ms
CPU a call, more than the sandbox's own cost (docs/development.md, "CI time"). So the warm
page holds named and numeric references, and ``warm`` writes one tree with that formatter.

soupsieve (4.1) is lazy the same way: it compiles each regular expression of its selector
tokenizer, and parses each pseudo-class that stands for a selector (``:checked``, ``:link``,
``:nth-child``'s implicit ``of *|*``), the first time a selector needs it. A call whose program
used ``:-soup-contains(...)`` or ``:nth-child(2 of .x)`` paid 15-25 ms CPU for that in its own
child (docs/development.md, "CI time"). ``_WARM_SELECTORS`` reaches every token and every such
pseudo-class once, before the fork.
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
# Every kind of token soupsieve's tokenizer knows (class, id, tag, attribute, combinator,
# pseudo-class and -element, the special pseudo-classes with arguments) and every pseudo-class
# it expands into a selector; tests/sandbox/test_sandbox_template.py checks the coverage.
_WARM_SELECTORS = (
    "div.a > p#x, td:nth-of-type(2), li:not(.z)",
    'p:-soup-contains("hi"), b:-soup-contains-own("there"), p:lang(en), div:dir(ltr)',
    "li:nth-child(1 of .a), li:nth-child(odd), li:nth-last-child(2), td:nth-last-of-type(1)",
    "p[title], p[title^='a' i], [id$=x], div:has(> p) ~ ul, :is(td, li):where(.b) + td, :root",
    ":link, :any-link, :checked, :default, :indeterminate, :disabled, :enabled, :required",
    ":muted, :open, :optional, :read-only, :read-write, :in-range, :out-of-range",
    ":placeholder-shown",
)


def warm() -> None:
    """Import and exercise every parser so forked children start with hot caches."""
    for name in _PRELOAD:
        __import__(name)
    import bs4

    for parser in PARSERS:
        soup = bs4.BeautifulSoup(_WARM_PAGE, parser)
        for selector in _WARM_SELECTORS:
            soup.select(selector)
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
