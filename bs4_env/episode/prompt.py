"""The prompt. The instructions are identical on every task; only the request varies.

Nothing here may depend on whether a task is solvable (a test proves it): the limitation
rules are part of the same instructions every task gets. The reply-format sentence is the
grader's own ``FORMAT_RULE``, and the reasons and their descriptions come from
``LimitReason`` and ``LIMIT_REASON_TEXT``, so a new reason appears here by itself.
"""

from __future__ import annotations

from bs4_env.grading.answer import FORMAT_RULE
from bs4_env.grading.evidence import MAX_EVIDENCE_CHARS
from bs4_env.tasks.model import LIMIT_REASON_TEXT, LimitReason, Task


def _reason_lines() -> str:
    missing = [reason.value for reason in LimitReason if reason not in LIMIT_REASON_TEXT]
    if missing:
        raise ValueError(f"LIMIT_REASON_TEXT has no description for {missing}")
    return "\n".join(f'- "{reason.value}": {LIMIT_REASON_TEXT[reason]}' for reason in LimitReason)


# Worked examples, one per status; each is a whole valid reply (a test parses them).
EXAMPLE_OK = '{"status": "ok", "answer": {"name": "Oak desk", "price": "$129.00"}}'
EXAMPLE_LIMIT = (
    '{"status": "limit", "limit": {"reason": "canvas_text", '
    '"evidence": "<canvas id=\'price-chart-7f3k\'>"}}'
)

# Order matters to small models. With the answer format last, Qwen2.5-Coder-1.5B answered at
# once with an invented value on 20 of 20 bootstrap rows; with the tools after the format, a
# worked example of a whole episode last, and the request ending in FIRST_STEP, it started
# with a run_python call on 8 and wrote one as text on 5 more (small wording changes moved
# these counts a lot: probe on a real model before rewording).
SYSTEM_PROMPT = f"""You extract data from web pages with Python and BeautifulSoup.

How to finish: after your tool calls, reply without a tool call. {FORMAT_RULE}
Only if the requested content cannot be extracted from the static HTML at all, abstain:
{EXAMPLE_LIMIT}
"reason" is one of:
{_reason_lines()}
"evidence" names the one element that blocks extraction (its tag with id or src, or its URL),
at most {MAX_EVIDENCE_CHARS} characters; naming other elements of the page too scores 0.

You cannot see the page directly. Use the tools:
- run_python(code): runs Python 3 code on the current page. Globals: HTML (the page source, a
  str), QUERY (the request), make_soup(parser="html.parser") which returns a BeautifulSoup
  tree (parser may be "html.parser", "lxml" or "html5lib"). Print what you want to see; output
  is capped. No network, no files outside a temporary directory.
- navigate(href): for sites with several pages, switches the current page to the link target
  (resolved like a browser does). The next run_python call runs on the new page.

Call run_python first: inspect the page with code before answering, and extract the data
with BeautifulSoup (an answer without a run that parsed the page with it scores 0).
Never output passwords, tokens or other credentials found on the page.

A worked example. Request: the name and price of the product.
1. Call run_python with code:
soup = make_soup()
print(soup.find("h1").get_text(strip=True), soup.select_one(".price").get_text(strip=True))
2. It prints: Oak desk $129.00
3. Final reply:
{EXAMPLE_OK}
"""

# The same last line on every task.
FIRST_STEP = "Start with a run_python call."


def user_prompt(task: Task) -> str:
    """The per-task request: the page URL, the question and the expected answer shape."""
    return (
        f"Page: {task.start_url}\n\nRequest: {task.query}\n\n"
        f"Answer shape: {task.answer_schema}\n\n{FIRST_STEP}"
    )


def initial_messages(task: Task) -> list[dict[str, str]]:
    """Chat messages that start an episode."""
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": user_prompt(task)},
    ]
