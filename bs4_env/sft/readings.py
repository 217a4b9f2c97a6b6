"""Ways to read the answer off one element as the request asks, in code and the same here.

Most requests want the text as displayed (``text(el)``: whitespace collapsed). Some want it
repaired first: characters a browser does not draw (a soft hyphen, a zero-width space) left
out, UTF-8 that was decoded as Windows-1252 decoded again, or the part before the request's
own separator (a page title's `` | `` and the site's name). Others want an attribute worked
out: a link resolved against the page's URL the request gives (and the page's ``<base>``), a
base64 destination decoded, the widest candidate of a ``srcset``. A writer tries the plain
text first and the others only where it finds nothing.
"""

from __future__ import annotations

import base64
import binascii
import functools
import re
from collections.abc import Callable, Iterator
from urllib.parse import parse_qs, urljoin, urlsplit

from bs4 import BeautifulSoup, Tag

Read = Callable[[Tag], str]
EL = "\x00"
"""Where the element's variable name goes in the code (no literal holds it: repr escapes it)."""
_UNDRAWN = "[\u00ad\u200b\u2060\ufeff]"
_URL = re.compile(r"https?://[^\s\"']+[^\s\"'.,;)]")
IMPORTS = {
    r"\bre\.": "import re",
    r"\burljoin\(": "from urllib.parse import urljoin",
    r"\bbase64\.": "import base64",
    r"\bparse_qs\(": "from urllib.parse import parse_qs, urlsplit",
}
"""The import a program needs when its code matches the pattern."""


def _text(el: Tag) -> str:
    return " ".join(el.get_text().split())


def _drawn(el: Tag) -> str:
    return " ".join(re.sub(_UNDRAWN, "", el.get_text()).split())


def _repaired(el: Tag) -> str:
    try:
        return " ".join(el.get_text().encode("cp1252").decode("utf-8").split())
    except UnicodeError:
        return ""


def _before(separator: str, el: Tag) -> str:
    return _text(el).rsplit(separator, 1)[0]


def text_readings(quoted: list[str]) -> Iterator[tuple[str, Read]]:
    """(code reading the element ``EL``, the same reading here): plain first, then the
    repairs, then the part before each short separator the request quotes (``quoted``: its
    literals, unstripped)."""
    yield f"text({EL})", _text
    undrawn = _UNDRAWN.encode("unicode_escape").decode()
    yield f'" ".join(re.sub("{undrawn}", "", {EL}.get_text()).split())', _drawn
    yield f'" ".join({EL}.get_text().encode("cp1252").decode("utf-8").split())', _repaired
    for separator in [lit for lit in quoted if len(lit) <= 3 and not lit.strip().isalnum()]:
        code = f"text({EL}).rsplit({separator!r}, 1)[0]"
        yield code, functools.partial(_before, separator)


def _joined(base: str, attr: str, el: Tag) -> str:
    return urljoin(base, str(el.get(attr) or ""))


def _decoded(attr: str, el: Tag) -> str:
    try:
        return base64.b64decode(str(el.get(attr) or ""), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeError):
        return ""


def _parameter(key: str, el: Tag) -> str:
    return (parse_qs(urlsplit(str(el.get("href") or "")).query).get(key) or [""])[0]


def _widest(el: Tag) -> str:
    srcset = str(el.get("srcset") or "").strip()
    candidates = [c.rsplit(" ", 1) for c in re.split(r",\s+", srcset)] if srcset else []
    if not candidates or any(len(c) != 2 or not re.fullmatch(r"\d+w", c[1]) for c in candidates):
        return ""
    return max(candidates, key=lambda c: int(c[1].rstrip("w")))[0]


def attribute_readings(
    soup: BeautifulSoup, query: str, quoted: list[str]
) -> Iterator[tuple[str, list[str], Read]]:
    """(code reading ``EL``, lines it needs first, the same reading here) for answers worked
    out of an attribute (``quoted``: the request's literals, a query parameter's name)."""
    page = _URL.search(query)
    base = soup.find("base", href=True)
    for attr in ("href", "src"):
        if page is not None and isinstance(base, Tag):
            url = urljoin(page.group(), str(base["href"]))
            first = [
                f"page_url = {page.group()!r}",
                'base_url = urljoin(page_url, soup.find("base", href=True)["href"])',
            ]
            yield f"urljoin(base_url, {EL}[{attr!r}])", first, functools.partial(_joined, url, attr)
        if page is not None:
            code = f"urljoin({page.group()!r}, {EL}[{attr!r}])"
            yield code, [], functools.partial(_joined, page.group(), attr)
    for attr in sorted({a for t in soup.find_all(True) for a in t.attrs if a.startswith("data-")}):
        code = f'base64.b64decode({EL}[{attr!r}]).decode("utf-8")'
        yield code, [], functools.partial(_decoded, attr)
    for key in [k for k in quoted if k.isidentifier() and len(k) <= 12]:
        code = f"parse_qs(urlsplit({EL}['href']).query)[{key!r}][0]"
        yield code, [], functools.partial(_parameter, key)
    pairs = f're.split(r",\\s+", {EL}["srcset"].strip())'
    widest = f'max((c.rsplit(" ", 1) for c in {pairs}), key=lambda c: int(c[1].rstrip("w")))[0]'
    yield widest, [], _widest
