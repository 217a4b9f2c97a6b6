"""The pinned real-page archives (../shared/real-pages from the repository root) unpacked and
served on loopback the way raw GitHub serves them: ``/<owner>/<repo>/<commit>/<path>``.

Only the files the rows name are unpacked (each archive is streamed once: the three take about
3 s of CPU to read through). The server answers ``Range`` requests (an
interrupted download resumes), counts them, and can serve altered bytes for a path (to prove
a mismatch is refused).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tarfile
import tempfile
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

from bs4_env.cli.config_registry import REPO_ROOT
from bs4_env.cli.main import main
from bs4_env.pages.cache import CACHE_VARIABLE, cached_page
from bs4_env.pages.rows import Source, read_rows
from bs4_env.real.families import ARTICLE_REPO, PRODUCT_REPO, RECIPE_REPO

SHARED = REPO_ROOT.parent / "shared" / "real-pages"
ARCHIVES = {
    PRODUCT_REPO.repo: "product-extraction-benchmark-cba97d7.tar.xz",
    ARTICLE_REPO.repo: "trafilatura-e90b0ef5.tar.xz",
    RECIPE_REPO.repo: "recipe-scrapers-d08ddd02.tar.xz",
}


def missing_reason() -> str | None:
    absent = [name for name in ARCHIVES.values() if not (SHARED / name).is_file()]
    if absent:
        return f"the pinned real-page archives are not at {SHARED} ({', '.join(absent)})"
    return None


def unpack(sources: Iterable[Source], dest: Path) -> None:
    """Extract the files ``sources`` name to ``dest/<repo>/<commit>/<path>`` (streamed: each
    archive is read once, in order)."""
    wanted: dict[str, dict[str, Source]] = {}
    for source in sources:
        wanted.setdefault(source.repo, {})[source.path] = source
    for repo, paths in wanted.items():
        with tarfile.open(SHARED / ARCHIVES[repo], "r|xz") as archive:
            for member in archive:
                inner = member.name.split("/", 1)[-1]
                source = paths.get(inner)
                if source is None or not member.isfile():
                    continue
                target = dest / source.repo / source.commit / source.path
                target.parent.mkdir(parents=True, exist_ok=True)
                handle = archive.extractfile(member)
                if handle is None:
                    raise OSError(f"{member.name}: cannot read from the archive")
                target.write_bytes(handle.read())


def fill_cache(rows_files: Iterable[Path], cache: Path) -> None:
    """Fetch the pages of ``rows_files`` into ``cache`` with ``bs4-env real fetch``, from a
    loopback copy of the archives; only the files not in the cache yet are unpacked (the cache
    is keyed by upstream path and checked by sha256, so one cache serves every caller)."""
    files = list(rows_files)
    sources = {row.source for path in files for row in read_rows(path) if row.source}
    missing = {source for source in sources if not cached_page(source, cache).is_file()}
    with tempfile.TemporaryDirectory() as folder:
        unpack(missing, Path(folder))
        with RawServer(Path(folder)) as server:
            for path in files:
                argv = ["real", "fetch", "--pages", str(path), "--base-url", server.base_url]
                if main([*argv, "--cache", str(cache), "--quiet"]) != 0:
                    raise OSError(f"fetching the pages of {path} from the archives failed")


_SHARED_CACHE: list[Path] = []


def shared_cache(rows_files: Iterable[Path]) -> Path:
    """One page cache per test process, filled with the pages of ``rows_files`` (modules that
    need the same pages unpack them once)."""
    if not _SHARED_CACHE:
        folder = Path(tempfile.mkdtemp(prefix="bs4env-real-pages-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _SHARED_CACHE.append(folder)
    fill_cache(rows_files, _SHARED_CACHE[0])
    return _SHARED_CACHE[0]


@contextmanager
def page_cache_set(cache: Path) -> Iterator[Path]:
    """``cache`` as the process's page cache while the block runs."""
    before = os.environ.get(CACHE_VARIABLE)
    os.environ[CACHE_VARIABLE] = str(cache)
    try:
        yield cache
    finally:
        if before is None:
            os.environ.pop(CACHE_VARIABLE)
        else:
            os.environ[CACHE_VARIABLE] = before


class RawServer:
    """Serves ``root`` on 127.0.0.1; ``altered`` maps a URL path to the bytes to send instead."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.altered: dict[str, bytes] = {}
        self.range_requests = 0
        self.requests = 0
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def __enter__(self) -> RawServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                return

            def do_GET(self) -> None:
                server.requests += 1
                path = unquote(self.path)
                if path in server.altered:
                    body = server.altered[path]
                else:
                    file = (server.root / path.lstrip("/")).resolve()
                    if server.root.resolve() not in file.parents or not file.is_file():
                        self.send_error(404)
                        return
                    body = file.read_bytes()
                start = 0
                wanted = self.headers.get("Range", "")
                if wanted.startswith("bytes=") and wanted.endswith("-"):
                    server.range_requests += 1
                    start = int(wanted[len("bytes=") : -1])
                    if start >= len(body):
                        self.send_error(416)
                        return
                self.send_response(206 if start else 200)
                self.send_header("Content-Length", str(len(body) - start))
                self.end_headers()
                self.wfile.write(body[start:])

        return Handler
