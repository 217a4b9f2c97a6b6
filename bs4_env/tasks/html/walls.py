"""Bot checks and sign-in gates, in blocking and non-blocking roles.

One builder makes each kind of element for both roles: on a limitation page it stands in
the requested data's slot ("Checking your browser before showing this table…", "Sign in to
see the price"); on its solvable twin the same markup guards something nobody asks for (a
CSV download, posting a review, a member price), while the data is there statically. So
the element's presence, tags and attributes never tell the two apart; only its relation to
the request does.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from random import Random

from bs4_env.tasks.rng import token

_WAIT = (
    "Checking your browser before showing this {}…",
    "One more step: please verify you are human to view this {}.",
    "This {} is protected against automated access. Verifying your browser…",
)
# What an inline check guards on a page whose data is public, per subject of the page.
_GUARDED = {
    "price": ("post a review", "ask a question", "join the waitlist"),
    "phone number": ("send us a message", "book an appointment", "request a callback"),
    "table": ("download this table as CSV", "export the report", "subscribe to updates"),
    "listing": ("get price alerts for this listing", "save this search", "post a review"),
}


# The challenge's action label and button, drawn alike in both roles (a blocking-only label
# would tell).
_HEX = "0123456789abcdef"
_ACTIONS = ("view", "submit", "verify", "managed")
_BUTTONS = ("Verify", "Continue", "Submit")


@dataclass(frozen=True)
class Wall:
    """A built element: its markup and the seed-random identifiers it alone carries."""

    html: str
    tokens: tuple[str, ...]


def _ray_id(rng: Random) -> str:
    """A Ray ID as a CDN prints one: 16 seed-random hex digits."""
    # ``rng.choice("0123456789abcdef")`` per digit, written out: the same ``getrandbits(5)``
    # draw (16 has five bits), drawn again while 16 or more (``rng.between``).
    getrandbits, ray = rng.getrandbits, ""
    for _ in range(16):
        r = getrandbits(5)
        while r >= 16:
            r = getrandbits(5)
        ray += _HEX[r]
    return ray


def challenge(rng: Random, subject: str, blocking: bool) -> Wall:
    """A bot check (turnstile form, ``<noscript>`` notice, Ray ID, challenge script).

    Blocking, it says it stands in for the ``subject``; otherwise it guards another action.
    """
    box_id = f"chk-{token(rng, 7)}"
    form_id = f"challenge-form-{token(rng, 8)}"
    script_key = token(rng, 10)
    ray = _ray_id(rng)
    # Both roles draw from the same words: a blocking-only "Verify" or "Checking your
    # browser" would let a policy point at the blocker without reading the request.
    if blocking or rng.random() < 0.5:
        title = rng.choice(_WAIT).format(subject)
    else:
        title = f"Verify you are human to {rng.choice(_GUARDED[subject])}."
    button = rng.choice(_BUTTONS)
    html = (
        f'<div class="bot-check" id="{box_id}" role="region" aria-label="Security check">'
        f'<p class="bot-check-title">{escape(title)}</p>'
        f'<form id="{form_id}" action="/cdn-cgi/challenge/verify?tk={token(rng, 12)}" '
        f'method="post"><div class="cf-turnstile" data-sitekey="0x{token(rng, 16)}" '
        f'data-action="{rng.choice(_ACTIONS)}"></div>'
        f'<button type="submit">{escape(button)}</button></form>'
        "<noscript>Please enable JavaScript and cookies to continue.</noscript>"
        f'<p class="ray-id">Ray ID: <code>{ray}</code></p>'
        f'<script src="/cdn-cgi/challenge-platform/{script_key}/orchestrate.js" async></script>'
        "</div>"
    )
    return Wall(html, (box_id, form_id, script_key, ray))


# A CDN's line at the foot of a page it fronts. Every page with a bot check prints one, on
# both twins alike, so a bot check's Ray ID is never the only code a page prints: citing
# every Ray ID on the page always names an element besides the blocker (issue 39).
_CDN_LINES = (
    "Performance &amp; security by Cloudflare",
    "Protected and accelerated by Cloudflare",
    "Delivered by Cloudflare",
)
_CDN_TAGS = (("p", "cdn-note"), ("small", "edge-info"), ("div", "cf-footer"))
_CDN_SEPARATORS = (" · ", " | ", " — ")


def cdn_notice(rng: Random) -> str:
    """A CDN's footer line with this page view's Ray ID."""
    ray = _ray_id(rng)
    tag, css = rng.choice(_CDN_TAGS)
    line, separator = rng.choice(_CDN_LINES), rng.choice(_CDN_SEPARATORS)
    return f'<{tag} class="{css}">{line}{separator}Ray ID: <code>{ray}</code></{tag}>'


_GATE_TEXT = {
    "price": ("Sign in to see the price", "Sign in to see this price", "Log in for pricing"),
    "phone number": (
        "Sign in to see the phone number",
        "Log in to show the number",
        "Members only: sign in to call",
    ),
}
_TEASERS = {
    "price": (
        ("Members pay less", "Sign in to see your member price"),
        ("Wish list", "Sign in to save this item to a list"),
        ("Loyalty points", "Sign in to see the points you earn"),
    ),
    "phone number": (
        ("Your account manager", "Sign in to see your account manager's number"),
        ("Order history", "Sign in to see your past orders"),
        ("Saved stores", "Sign in to save this store"),
    ),
}
_LABELS = {"price": ("Price", "Our price", "Your price"), "phone number": ("Phone", "Call us")}
_PLACEHOLDER = {"price": "$•••.••", "phone number": "+•• ••• ••• ••••"}


def sign_in_gate(rng: Random, subject: str, blocking: bool, blur: bool) -> Wall:
    """A sign-in gate: a login link with a return address, after a blurred placeholder if
    ``blur`` (a page's gates all look alike, so the page draws it once).

    Blocking, it stands where the ``subject`` would be; otherwise it is a teaser for a
    members-only extra (a member price, saved lists, an account manager).
    """
    gate_id = f"gate-{token(rng, 7)}"
    ref = token(rng, 9)
    if blocking or rng.random() < 0.5:
        # A teaser for a member price or number says what a blocking gate says.
        label, text = rng.choice(_LABELS[subject]), rng.choice(_GATE_TEXT[subject])
    else:
        label, text = rng.choice(_TEASERS[subject])
    # Either gate returns to the page it is on, as a site's sign-in link does: where it
    # returns to must not tell a blocking gate from a teaser.
    back = {"price": "/p/", "phone number": "/stores/"}[subject]
    link = (
        f'<a class="gate-link" href="/login?next={back}{token(rng, 6)}&amp;ref={ref}">'
        f"{escape(text)}</a>"
    )
    placeholder = (
        f'<span class="gate-blur" aria-hidden="true">{_PLACEHOLDER[subject]}</span> '
        if blur
        else ""
    )
    caption = f'<span class="gate-label">{escape(label)}:</span> '
    html = f'<span class="signin-gate" id="{gate_id}">{caption}{placeholder}{link}</span>'
    return Wall(html, (gate_id, ref))


def teaser_block(rng: Random, subject: str, blur: bool) -> str:
    """A non-blocking sign-in teaser as its own small block of the main region."""
    gate = sign_in_gate(rng, subject, blocking=False, blur=blur)
    return f'<div class="member-teaser">{gate.html}</div>'
