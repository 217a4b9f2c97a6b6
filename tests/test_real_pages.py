"""``real``: fetched from a loopback copy of the pinned upstream files by the same code that
fetches from GitHub, then loaded and checked; the pages whose charset declaration is wrong for
the text read right with every parser in the sandbox. (That every label scores 1.0, a perturbed
value 0 and no accepted value shows in a prompt is ``test_real_rows_labels.py``'s, page-free.)"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from bs4_env.cli.main import main
from bs4_env.episode.engine import Budgets, Episode
from bs4_env.episode.tool_text import stdout_of
from bs4_env.pages.cache import CACHE_VARIABLE, cached_page
from bs4_env.pages.decode import declared_charset, page_bytes
from bs4_env.pages.fetch import source_url
from bs4_env.pages.pageset import PageSet, load_page_set
from bs4_env.pages.rows import read_rows
from bs4_env.pages.sets import REAL, REAL_ROWS
from bs4_env.sandbox.base import Executor
from tests.real_pages import RawServer, missing_reason, unpack

pytestmark = pytest.mark.integration
ROWS = read_rows(REAL_ROWS)
SOURCES = {row.source for row in ROWS if row.source is not None}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawServer]:
    reason = missing_reason()
    if reason:
        pytest.skip(reason)
    root = tmp_path_factory.mktemp("upstream")
    unpack(SOURCES, root)
    with RawServer(root) as server:
        yield server


@pytest.fixture(scope="module")
def cache(served: RawServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A page cache filled by ``bs4-env real fetch`` from the loopback server."""
    root = tmp_path_factory.mktemp("cache")
    argv = ["real", "fetch", "--base-url", served.base_url, "--cache", str(root), "--quiet"]
    assert main(argv) == 0
    return root


@pytest.fixture(scope="module")
def real(cache: Path) -> Iterator[PageSet]:
    before = os.environ.get(CACHE_VARIABLE)
    os.environ[CACHE_VARIABLE] = str(cache)
    try:
        yield load_page_set(REAL_ROWS, REAL, REAL, 2_500_000)
    finally:
        if before is None:
            os.environ.pop(CACHE_VARIABLE)
        else:
            os.environ[CACHE_VARIABLE] = before


def test_rows_ship_no_pages_and_cover_every_family() -> None:
    assert 300 <= len(ROWS) <= 400
    families = Counter(row.family for row in ROWS)
    assert set(families) == {"product_price", "product_sku", "product_brand", "product_gtin",
                             "article_title", "article_author", "article_date"}  # fmt: skip
    for row in ROWS:
        assert row.html is None and row.html_path is None and row.source and row.sha256
        assert row.license and not row.show_url and row.url


def test_fetch_is_cached_resumable_and_verified(
    served: RawServer, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["real", "fetch", "--base-url", served.base_url, "--cache", str(cache), "--quiet"]
    assert main(base) == 0
    assert f"0 fetched, {len(SOURCES)} already cached, 0 failed" in capsys.readouterr().out
    source = sorted(SOURCES, key=lambda s: s.path)[0]
    target = cached_page(source, cache)
    whole = target.read_bytes()
    target.unlink()
    target.with_name(target.name + ".part").write_bytes(whole[: len(whole) // 2])
    ranges = served.range_requests
    assert main(base) == 0
    assert "1 fetched" in capsys.readouterr().out and served.range_requests == ranges + 1
    assert target.read_bytes() == whole
    target.unlink()
    served.altered[source_url("", source)] = whole[:-1] + b"!"
    try:
        assert main(base) == 1
    finally:
        served.altered.clear()
    err = capsys.readouterr().err
    assert "refused, sha256" in err and source.path.split("/")[-1] in err and not target.exists()
    assert not target.with_name(target.name + ".part").exists()
    assert main(base) == 0 and target.read_bytes() == whole


def _misdeclared(real: PageSet) -> list[int]:
    """One row per page whose own charset declaration is wrong for the text it gets."""
    chosen: dict[str, int] = {}
    for index, loaded in enumerate(real.rows):
        path = loaded.path
        raw = page_bytes(path.read_bytes(), path.name) if path else b""
        declared = (declared_charset(raw) or "").lower().replace("_", "-")
        if declared not in ("utf-8", "utf8") and not raw.isascii():
            chosen.setdefault(str(path), index)
    return sorted(chosen.values())


PROGRAM = """
from bs4 import BeautifulSoup
soup = BeautifulSoup(HTML.encode(), {parser!r})
print(str(soup.original_encoding).lower(), "Ã" in soup.get_text())
"""
"""One parse per parser, of the page's bytes: read as UTF-8, they are exactly ``HTML``, so the
text is what ``make_soup`` gives (a declaration left untrue reads as windows-1252), and the text
has no mojibake (``HTML`` itself was decoded right)."""


async def test_misdeclared_real_pages_read_right_with_every_parser(
    real: PageSet, executor: Executor
) -> None:
    indexes = _misdeclared(real)
    assert len(indexes) >= 5, "the pinned pages include misdeclared ones"
    for index in indexes:
        for parser in ("html.parser", "lxml", "html5lib"):
            # A page of up to 2 MB: room beyond the budget on a busy machine (the per-call
            # time at the default budget is scripts/bench_real_pages.py's job).
            episode = Episode(real.task(index), executor, Budgets(timeout_s=60))
            reply = await episode.run_python(PROGRAM.format(parser=parser))
            assert stdout_of(reply).strip() == "utf-8 False", (
                real.rows[index].row.id,
                parser,
                reply,
            )


def test_reference_policy_runs_through_bs4_env_eval(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_VARIABLE, str(cache))
    output = tmp_path / "real.json"
    argv = ["eval", "--pages", "real", "-n", "14", "-o", str(output), "--quiet", "-c", "2"]
    assert main(argv) == 0
    results = json.loads(output.read_text())
    assert results["split"] == REAL and results["pages"] == REAL and results["n"] == 14
    assert set(results["by_archetype"]) == set(results["families"]) and results["errors"] == 0


def test_a_set_loaded_from_one_cache_is_not_served_from_another(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``page_set`` and ``page_task`` memoise, but per page cache: once ``real`` loaded from a
    filled cache, an empty one must still say its pages are missing (CI ran the lab's
    missing-pages test after this module in one worker and got the filled cache's set)."""
    from bs4_env.pages.sets import page_set, page_task

    monkeypatch.setenv(CACHE_VARIABLE, str(cache))
    assert len(page_set(REAL)) == len(ROWS) and page_task(REAL, 0).html
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path))  # an empty page cache
    with pytest.raises((ValueError, OSError)):
        page_set(REAL)
    with pytest.raises((ValueError, OSError)):
        page_task(REAL, 0)
