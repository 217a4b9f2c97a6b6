"""Pages that lie about their charset read right in the sandbox, through ``make_soup()`` and
through ``BeautifulSoup(HTML.encode(), parser)``, with all three parsers."""

from __future__ import annotations

import codecs
import hashlib
import json
from pathlib import Path

import pytest

from bs4_env.episode.engine import Episode
from bs4_env.episode.tool_text import stdout_of
from bs4_env.pages.decode import decode_bytes, decode_page
from bs4_env.pages.pageset import load_page_set
from bs4_env.sandbox.base import Executor
from tests.test_pages_loading import write_rows

TITLE = "«Tatort» aus München – 5 €"
BODY = f"<title>{TITLE}</title></head><body><h1>{TITLE}</h1></body></html>"
# Each case: the page's bytes, as servers send them.
CASES = {
    "utf8-declared-1252": f'<html><head><meta charset="windows-1252">{BODY}'.encode(),
    "utf8-http-equiv-1252": (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252">'
        f"{BODY}"
    ).encode(),
    "utf8-xml-decl-latin1": (
        f'<?xml version="1.0" encoding="iso-8859-1"?><html><head>{BODY}'.encode()
    ),
    "utf8-undeclared": f"<!DOCTYPE html><html><head>{BODY}".encode(),
    "utf8-undeclared-no-head": f"<p>{TITLE}</p><h1>{TITLE}</h1>".encode(),
    "utf8-declared-late": (
        f"<html><head><!--{'x' * 3000}--><meta charset='utf-8'>{BODY}".encode()
    ),
    "cp1252-declared": f'<html><head><meta charset="windows-1252">{BODY}'.encode("cp1252"),
    "cp1252-undeclared": f"<html><head>{BODY}".encode("cp1252"),
    "utf16-bom": codecs.BOM_UTF16_LE + f"<html><head>{BODY}".encode("utf-16-le"),
    "utf8-bom-declared-1252": (
        codecs.BOM_UTF8 + f'<html><head><meta charset="windows-1252">{BODY}'.encode()
    ),
}  # fmt: skip
PROGRAM = """
import json
from bs4 import BeautifulSoup
seen = {}
for parser in ("html.parser", "lxml", "html5lib"):
    soup, raw = make_soup(parser), BeautifulSoup(HTML.encode(), parser)
    seen[parser] = [soup.find("h1").get_text(), raw.find("h1").get_text()]
print(json.dumps(seen, ensure_ascii=False))
"""


def test_decoding_order() -> None:
    assert decode_bytes(CASES["utf8-declared-1252"])[1] == "utf-8"
    assert decode_bytes(CASES["cp1252-declared"])[1] == "declared:cp1252"
    assert decode_bytes(CASES["cp1252-undeclared"])[1] == "cp1252"
    assert decode_bytes(CASES["utf16-bom"])[1] == "bom:utf-16"
    broken = b'<meta charset="utf-8"><p>caf\xe9 \x81</p>'  # not UTF-8 as declared
    text, how, declared = decode_bytes(broken)
    assert (how, declared) == ("cp1252", "utf-8") and "café \x81" in text
    assert decode_bytes("<p>ü</p>".encode("latin-1"), charset="latin-1")[1] == "declared:iso8859-1"


@pytest.mark.parametrize("case", sorted(CASES))
async def test_lying_charset_reads_right_with_every_parser(
    case: str, executor: Executor, tmp_path: Path
) -> None:
    (tmp_path / "page.html").write_bytes(CASES[case])
    row = {"id": case, "request": "The heading.", "answer": TITLE, "html_path": "page.html",
           "sha256": hashlib.sha256(CASES[case]).hexdigest()}  # fmt: skip
    pages = load_page_set(write_rows(tmp_path, [row]), case, "pages", 1_000_000)
    task = pages.task(0)
    assert "windows-1252" not in task.html and "iso-8859-1" not in task.html
    episode = Episode(task, executor)
    reply = await episode.run_python(PROGRAM)
    seen = json.loads(stdout_of(reply))
    assert seen == {parser: [TITLE, TITLE] for parser in seen} and len(seen) == 3, seen
    assert decode_page(CASES[case]).text == task.html
