"""Look-then-answer episodes on the solvable twins of the limitation archetypes.

A twin page carries the very element that blocks its limitation archetype (the mount node,
the PDF viewer, the canvas, the bot check, the sign-in gate, the load-more trigger, the
custom font, the player, the post form, the text image), but the data is in the static HTML
too. Its episode first looks at that element in the request's block (its markup, then the
block's text) and, the output showing the data is there, answers with the plan's own program
instead of abstaining. The look is kept only where its output shows (part of) the answer.
"""

from __future__ import annotations

import dataclasses
from random import Random

from bs4 import BeautifulSoup, Tag

from bs4_env.sft import locate
from bs4_env.sft.plan import Plan, Step, host_run, soup_line
from bs4_env.sft.targeted import truth_strings
from bs4_env.sft.targeted_common import find_call
from bs4_env.tasks.model import LimitReason, Task

# Each twin archetype and the limitation kind whose page it reads like (the twin tests:
# tests/archetypes/test_limitation_twins.py, test_static_copy_twins.py).
TWIN_OF: dict[str, LimitReason] = {
    "hydrated_mount": LimitReason.JS_RENDERED,
    "noscript_fallback": LimitReason.JS_RENDERED,
    "pdf_beside_table": LimitReason.PDF_EMBED,
    "bot_check_inline": LimitReason.BOT_WALL,
    "signin_teaser_public": LimitReason.LOGIN_REQUIRED,
    "load_more_static": LimitReason.INFINITE_SCROLL,
    "load_more_json": LimitReason.INFINITE_SCROLL,
    "custom_font_value": LimitReason.FONT_OBFUSCATION,
    "video_transcript": LimitReason.MEDIA_ONLY,
    "media_show_notes": LimitReason.MEDIA_ONLY,
    "form_default_results": LimitReason.FORM_SUBMISSION,
    "canvas_fallback_content": LimitReason.CANVAS_TEXT,
    "image_text_alternative": LimitReason.IMAGE_TEXT,
}
# The element of each kind, as a CSS selector a person would write after seeing the page.
SUSPECTS: dict[LimitReason, str] = {
    LimitReason.JS_RENDERED: "[data-endpoint], [aria-busy], noscript",
    LimitReason.PDF_EMBED: "iframe, embed, object",
    LimitReason.BOT_WALL: "[data-sitekey], form[action*='challenge'], .bot-check",
    LimitReason.LOGIN_REQUIRED: "a[href*='login'], .signin-gate",
    LimitReason.INFINITE_SCROLL: "[data-next-page], .load-more, [data-endpoint]",
    LimitReason.FONT_OBFUSCATION: "[style*='font-family'], [class*='ff-']",
    LimitReason.MEDIA_ONLY: "video, audio, iframe",
    LimitReason.FORM_SUBMISSION: "form",
    LimitReason.CANVAS_TEXT: "canvas",
    LimitReason.IMAGE_TEXT: "img, [role='img']",
}
LOOK_SHARE = 0.75
_TEXT_CHARS = 700
_NOTE = "The {what} is there, but the data is in the page's HTML too; reading it."
_WHAT = {
    LimitReason.JS_RENDERED: "script-filled element",
    LimitReason.PDF_EMBED: "PDF viewer",
    LimitReason.BOT_WALL: "bot check",
    LimitReason.LOGIN_REQUIRED: "sign-in link",
    LimitReason.INFINITE_SCROLL: "load-more trigger",
    LimitReason.FONT_OBFUSCATION: "custom font",
    LimitReason.MEDIA_ONLY: "player",
    LimitReason.FORM_SUBMISSION: "form",
    LimitReason.CANVAS_TEXT: "canvas",
    LimitReason.IMAGE_TEXT: "image",
}


def _shows_answer(stdout: str, truth: object) -> bool:
    flat = "".join(stdout.split())
    return any("".join(value.split()) in flat for value in truth_strings(truth))


def _look(task: Task, soup: BeautifulSoup, selector: str, parser: str) -> str | None:
    """The look program: the request's block, the suspect's markup in it, the block's text."""
    for literal in locate.quoted_literals(task.query):
        for heading in soup.find_all(locate.HEADINGS):
            if locate.collapse(heading.get_text()) != locate.collapse(literal):
                continue
            for suspect in soup.select(selector):
                box = locate.container(heading, [suspect])
                if box is None or not isinstance(heading, Tag):
                    continue
                code = "\n".join(
                    [
                        soup_line(parser),
                        f"title = {find_call(heading, literal)}",
                        f"box = title.find_parent({box.name!r})",
                        f"for el in box.select({selector!r})[:3]:",
                        "    print(str(el)[:200])",
                        f"print(box.get_text(' ', strip=True)[:{_TEXT_CHARS}])",
                    ]
                )
                stdout = host_run(task, code)
                if stdout is not None and _shows_answer(stdout, task.truth):
                    return code
    return None


def with_twin_look(task: Task, plan: Plan, rng: Random, parser: str) -> Plan:
    """``plan`` preceded by a look at the twin's blocking-looking element (replacing the
    plan's own inspection), where the archetype is a twin and the look shows the answer."""
    reason = TWIN_OF.get(task.archetype_id)
    if reason is None or not task.solvable or rng.random() >= LOOK_SHARE:
        return plan
    look = _look(task, locate.parse(task.html), SUSPECTS[reason], parser)
    if look is None:
        return plan
    answer = dataclasses.replace(plan.steps[-1], note=_NOTE.format(what=_WHAT[reason]))
    steps = (Step("run_python", look), answer)
    return dataclasses.replace(plan, steps=steps, tags=(*plan.tags, "twin_look"))
