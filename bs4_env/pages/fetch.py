"""Download the pages rows name by ``source`` (repository, commit, path) into the page cache.

Each file comes from ``<base>/<owner>/<name>/<commit>/<path>`` (``base``: raw GitHub, or
``$BS4ENV_PAGES_BASE_URL`` / ``--base-url``, which tests point at a loopback server serving
../shared/real-pages). A file is written only once its SHA-256 equals the row's; a mismatch
is refused with both hashes and nothing is kept. Files already cached with the right hash are
skipped, and an interrupted download resumes from its ``.part`` file (HTTP Range), so a rerun
fetches only what is missing.
"""

from __future__ import annotations

import hashlib
import os
import urllib.error
import urllib.request
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlsplit

from bs4_env.pages.cache import cache_root, cached_page
from bs4_env.pages.rows import PageRow, Source

RAW_BASE = "https://raw.githubusercontent.com"
BASE_VARIABLE = "BS4ENV_PAGES_BASE_URL"
CHUNK_BYTES = 1 << 16
TIMEOUT_S = 60.0
LOOPBACK = ("127.0.0.1", "localhost", "::1")


class FetchError(RuntimeError):
    """A page could not be fetched as labelled; the message says which and why."""


@dataclass(frozen=True)
class Wanted:
    source: Source
    sha256: str


@dataclass
class FetchReport:
    fetched: list[Path] = field(default_factory=list)
    cached: list[Path] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def wanted_pages(rows: Iterable[PageRow]) -> list[Wanted]:
    """One entry per upstream file the rows name; two hashes for one file are an error."""
    found: dict[Source, str] = {}
    for row in rows:
        if row.source is None or row.html is not None or row.html_path is not None:
            continue
        if row.sha256 is None:
            raise FetchError(f"row {row.id!r} names a source but no sha256")
        known = found.setdefault(row.source, row.sha256)
        if known != row.sha256:
            raise FetchError(f"rows disagree on the sha256 of {row.source.path} ({row.id!r})")
    return [Wanted(source, sha) for source, sha in found.items()]


def source_url(base: str, source: Source) -> str:
    return f"{base.rstrip('/')}/{source.repo}/{source.commit}/{quote(source.path)}"


def _opener(base: str) -> urllib.request.OpenerDirector:
    """Direct for a loopback base (no proxy may stand between a test and its server)."""
    if urlsplit(base).hostname in LOOPBACK:
        return urllib.request.build_opener(urllib.request.ProxyHandler({}))
    return urllib.request.build_opener()


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(CHUNK_BYTES), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _download(opener: urllib.request.OpenerDirector, url: str, part: Path) -> None:
    """Fill ``part`` with the file at ``url``, continuing what an earlier try left there."""
    have = part.stat().st_size if part.exists() else 0
    request = urllib.request.Request(url, headers={"Range": f"bytes={have}-"} if have else {})
    try:
        response = opener.open(request, timeout=TIMEOUT_S)
    except urllib.error.HTTPError as error:
        if error.code == 416 and have:  # the part file is already whole
            return
        raise FetchError(f"{url}: HTTP {error.code} {error.reason}") from None
    except (urllib.error.URLError, OSError) as error:
        raise FetchError(f"{url}: {error}") from None
    with response:
        resumed = response.status == 206
        with part.open("ab" if resumed else "wb") as sink:
            for chunk in iter(lambda: response.read(CHUNK_BYTES), b""):
                sink.write(chunk)


def fetch_one(opener: urllib.request.OpenerDirector, base: str, item: Wanted, root: Path) -> bool:
    """Make the cache hold ``item``; True when it was downloaded, False when already there."""
    target = cached_page(item.source, root)
    if target.is_file():
        if _sha256(target) == item.sha256:
            return False
        target.unlink()  # a cached file that is not the labelled one: fetch it again
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(target.name + ".part")
    url = source_url(base, item.source)
    _download(opener, url, part)
    digest = _sha256(part)
    if digest != item.sha256:
        part.unlink()
        raise FetchError(
            f"{url}: refused, sha256 {digest} is not the labelled page's {item.sha256} "
            "(the upstream file changed, or the download was corrupted); nothing was kept"
        )
    os.replace(part, target)
    return True


def fetch_pages(
    rows: Iterable[PageRow],
    base: str | None = None,
    root: Path | None = None,
    jobs: int = 8,
    progress: bool = True,
) -> FetchReport:
    """Fetch every page ``rows`` name by source (see the module docstring)."""
    from tqdm.auto import tqdm

    base = base or os.environ.get(BASE_VARIABLE) or RAW_BASE
    root = root or cache_root()
    items = wanted_pages(rows)
    opener = _opener(base)
    report = FetchReport()
    bar = tqdm(total=len(items), disable=not progress, desc="pages", unit="file")
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(fetch_one, opener, base, item, root): item for item in items}
        for future in as_completed(futures):
            item = futures[future]
            target = cached_page(item.source, root)
            try:
                (report.fetched if future.result() else report.cached).append(target)
            except (FetchError, OSError) as error:
                report.failed.append(str(error))
            bar.update(1)
    bar.close()
    return report
