"""Client-side mount nodes: where a script renders data fetched from an endpoint.

The same mount (an element with an id, a ``data-endpoint`` and ``aria-busy``, followed by a
``<noscript>``, filled by a renderer script) is used on pages that cannot be read statically
and on their solvable twins, where the data is still in the HTML: rendered on the server
inside the mount, as a ``<noscript>`` fallback, or in a JSON state blob the renderer reads
first. Only whether the requested data is anywhere in the page tells them apart.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from random import Random

from bs4_env.tasks.rng import token

_KINDS = {
    # subject: (tag, id prefix, class, endpoint prefix, renderer name)
    "table": ("div", "grid", "data-table", "/api/tables/", "table-renderer"),
    "price": ("span", "price", "price current", "/api/prices/", "price-widget"),
    "listing": ("div", "list", "items-mount", "/api/listings/", "listing-app"),
}
RENDER_CALLS = {"renderTable": "table", "renderPrice": "price", "renderList": "listing"}
"""The function each renderer bundle defines, and the subject it renders."""


def bundle_of(call: str) -> str:
    """The file-name stem of the bundle that defines ``call`` (``/static/js/<stem>.<hash>.js``)."""
    return _KINDS[RENDER_CALLS[call]][4]


_SPINNERS = {
    "table": '<div class="spinner">Loading…</div>',
    "price": "…",
    "listing": '<p class="spinner">Loading items…</p>',
}


@dataclass(frozen=True)
class Mount:
    """One mount node: ids, endpoint and renderer script, for a given ``subject``."""

    subject: str
    element_id: str
    endpoint: str
    script_url: str

    @property
    def tokens(self) -> tuple[str, ...]:
        """What locates the mount: its id, its endpoint and its renderer's file name."""
        return (self.element_id, self.endpoint, self.script_url.rsplit("/", 1)[-1])

    def node(self, inner: str | None, spinner: bool = True) -> str:
        """The mount element: ``inner`` already rendered in it, or when None empty but for a
        loading indicator (if ``spinner``)."""
        tag, _, klass, _, _ = _KINDS[self.subject]
        busy = "true" if inner is None else "false"
        body = (_SPINNERS[self.subject] if spinner else "") if inner is None else inner
        return (
            f'<{tag} id="{self.element_id}" class="{klass}" '
            f'data-endpoint="{self.endpoint}" aria-busy="{busy}">{body}</{tag}>'
        )

    def scripts(self) -> str:
        """The renderer bundle and the inline call that mounts it (refreshing live data)."""
        call = next(name for name, kind in RENDER_CALLS.items() if kind == self.subject)
        return (
            f'<script src="{self.script_url}" defer></script>'
            "<script>window.addEventListener('DOMContentLoaded',function(){"
            f"{call}(document.getElementById('{self.element_id}'),"
            f"'{self.endpoint}');}});</script>"
        )


def mount(rng: Random, subject: str) -> Mount:
    _, prefix, _, endpoint, renderer = _KINDS[subject]
    suffix = ".json" if subject == "table" else rng.choice(("", "?v=2", ".json"))
    return Mount(
        subject=subject,
        element_id=f"{prefix}-{token(rng, 7)}",
        endpoint=f"{endpoint}{token(rng, 10)}{suffix}",
        script_url=f"/static/js/{renderer}.{token(rng, 8)}.js",
    )


def noscript(subject: str, fallback: str | None = None) -> str:
    """A ``<noscript>``: the server's fallback markup, or a plea to enable JavaScript."""
    body = fallback if fallback is not None else f"Please enable JavaScript to view this {subject}."
    return f"<noscript>{body}</noscript>"


def state_blob(rng: Random, state: dict[str, object]) -> str:
    """App state embedded for hydration: a ``__NEXT_DATA__`` script or a window global."""
    if rng.random() < 0.5:
        state = {"props": {"pageProps": state}, "page": f"/{token(rng, 5)}"}
        text = _json(rng, state)
        return f'<script id="__NEXT_DATA__" type="application/json">{text}</script>'
    return f"<script>window.__INITIAL_STATE__ = {_json(rng, state)};</script>"


def _json(rng: Random, data: object) -> str:
    # Real serializers escape "</" so the JSON cannot close the script element early.
    return json.dumps(data, ensure_ascii=rng.random() < 0.5).replace("</", "<\\/")
