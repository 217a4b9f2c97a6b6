"""Where fetched pages live: ``$BS4ENV_CACHE`` (default ``~/.cache/bs4-env``)/pages/<repo>/
<commit>/<path>, one file per upstream file, exactly as the repository holds it."""

from __future__ import annotations

import os
from pathlib import Path

from bs4_env.pages.rows import Source

CACHE_VARIABLE = "BS4ENV_CACHE"


def cache_root() -> Path:
    """The cache folder: ``$BS4ENV_CACHE``, else ``$XDG_CACHE_HOME/bs4-env``, else
    ``~/.cache/bs4-env``."""
    configured = os.environ.get(CACHE_VARIABLE)
    if configured:
        return Path(configured).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "bs4-env"


def cached_page(source: Source, root: Path | None = None) -> Path:
    """The cache file of an upstream page (it may not exist yet)."""
    return (root or cache_root()) / "pages" / source.repo / source.commit / source.path
