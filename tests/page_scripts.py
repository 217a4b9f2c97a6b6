"""Reading page scripts for ``test_page_claims``: free names, and loaders of JSON blobs.

``free_names`` is a small lexer, enough for the scripts generators write: string literals
and comments are dropped, property names (after ``.``) and object keys are not references,
and ``var``/``let``/``const`` declarations, ``function`` names and parameters, ``catch``
bindings and ``window.x =`` assignments define names. ``blob_loaders`` finds the scripts
that slice a listing's items out of a JSON blob the page holds, and ``slice_offset``
evaluates where they start (a child count or a selector count, on the real elements).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from bs4 import BeautifulSoup, Tag

_STRINGS = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`")
_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_DECLARATION = re.compile(r"\b(?:var|let|const)\s+([^;]+)")
_FUNCTION = re.compile(r"\bfunction\s*([A-Za-z_$][\w$]*)?\s*\(([^)]*)\)")
_CATCH = re.compile(r"\bcatch\s*\(\s*([A-Za-z_$][\w$]*)")
_WINDOW = re.compile(r"\bwindow\.([A-Za-z_$][\w$]*)\s*=(?!=)")

KEYWORDS = frozenset(
    (
        "break",
        "case",
        "catch",
        "const",
        "continue",
        "default",
        "delete",
        "do",
        "else",
        "false",
        "finally",
        "for",
        "function",
        "if",
        "in",
        "instanceof",
        "let",
        "new",
        "null",
        "of",
        "return",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "undefined",
        "var",
        "void",
        "while",
    )
)
BROWSER_GLOBALS = frozenset(
    (
        "window",
        "document",
        "navigator",
        "location",
        "history",
        "console",
        "JSON",
        "Math",
        "Date",
        "Number",
        "String",
        "Boolean",
        "Array",
        "Object",
        "Promise",
        "Error",
        "RegExp",
        "Symbol",
        "Map",
        "Set",
        "parseInt",
        "parseFloat",
        "isNaN",
        "NaN",
        "Infinity",
        "encodeURIComponent",
        "decodeURIComponent",
        "fetch",
        "setTimeout",
        "clearTimeout",
        "setInterval",
        "clearInterval",
        "requestAnimationFrame",
        "IntersectionObserver",
        "MutationObserver",
        "URL",
        "URLSearchParams",
        "localStorage",
        "sessionStorage",
        "CustomEvent",
        "Event",
    )
)


def _declared(code: str) -> set[str]:
    names: set[str] = set()
    for match in _DECLARATION.finditer(code):
        depth, start = 0, 0
        text = match.group(1)
        parts: list[str] = []
        for index, char in enumerate(text):  # split the declaration list at top-level commas
            depth += char in "([{"
            depth -= char in ")]}"
            if depth < 0:
                break
            if char == "," and depth == 0:
                parts.append(text[start:index])
                start = index + 1
        else:
            parts.append(text[start:])
        names.update(m.group(0) for part in parts if (m := _NAME.match(part.strip())))
    for match in _FUNCTION.finditer(code):
        if match.group(1):
            names.add(match.group(1))
        names.update(p.strip() for p in match.group(2).split(",") if p.strip())
    names.update(_CATCH.findall(code))
    names.update(_WINDOW.findall(code))
    return names


def free_names(script: str) -> set[str]:
    """Names ``script`` refers to without defining them (browser globals excluded)."""
    code = _STRINGS.sub('""', _COMMENTS.sub(" ", script))
    used: set[str] = set()
    for match in _NAME.finditer(code):
        before = code[: match.start()].rstrip()[-1:]
        after = code[match.end() :].lstrip()[:1]
        if before == "." or (after == ":" and before in ("{", ",")):
            continue  # a property, or an object literal's key
        used.add(match.group(0))
    return used - _declared(code) - KEYWORDS - BROWSER_GLOBALS


_BY_ID = re.compile(r"(\w+)=document\.getElementById\('([^']+)'\)")
_BLOB_REF = re.compile(r"getElementById\((?:'([^']+)'|(\w+)\.id\+'([^']*)')\)")
_SLICE = re.compile(r"\.slice\((\w+(?:\.\w+)*|\w+\.querySelectorAll\('[^']+'\)\.length)\)")


@dataclass(frozen=True)
class BlobLoader:
    """A script that slices items out of a JSON blob: its code, its element variables (by
    ``getElementById``), and the blob it reads."""

    code: str
    elements: dict[str, Tag]
    blob: Tag

    def slice_offset(self) -> int:
        """The argument of ``.slice(...)``, evaluated on the page: a child or selector count."""
        argument = _SLICE.search(self.code)
        assert argument, f"no slice offset to read in {self.code[:200]!r}"
        expression = argument.group(1)
        assigned = re.search(rf"\b{re.escape(expression)}=([^;,]+)", self.code)
        if re.fullmatch(r"\w+", expression) and assigned:  # a variable: its assignment
            expression = assigned.group(1)
        children = re.fullmatch(r"(\w+)\.children\.length", expression)
        if children:
            return len(self.elements[children.group(1)].find_all(recursive=False))
        selected = re.fullmatch(r"(\w+)\.querySelectorAll\('([^']+)'\)\.length", expression)
        assert selected, f"cannot evaluate the offset {expression!r}"
        return len(self.elements[selected.group(1)].select(selected.group(2)))

    def blob_items(self) -> list[str]:
        """The item names in the blob (its first list of objects)."""
        stack: list[object] = [json.loads(self.blob.get_text())]
        while stack:
            value = stack.pop(0)
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                return [str(v["name"]) for v in value]
            stack.extend(value.values() if isinstance(value, dict) else [])
        raise AssertionError("no items in the blob")


def blob_loaders(soup: BeautifulSoup) -> list[BlobLoader]:
    """The page's scripts that slice items out of a JSON blob the page holds."""
    found: list[BlobLoader] = []
    for script in soup.find_all("script", src=False):
        code = script.get_text()
        if ".slice(" not in code or "JSON.parse" not in code:
            continue
        elements: dict[str, Tag] = {}
        for var, ident in _BY_ID.findall(code):
            element = soup.find(id=ident)
            assert isinstance(element, Tag), f"the script looks up #{ident}, which is not there"
            elements[var] = element
        for literal, var, suffix in _BLOB_REF.findall(code):
            ident = literal or f"{elements[var].get('id')}{suffix}"
            blob = soup.find("script", id=ident, type="application/json")
            if isinstance(blob, Tag):
                found.append(BlobLoader(code, elements, blob))
                break
    return found
