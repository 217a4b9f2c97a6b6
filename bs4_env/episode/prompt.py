"""The prompt. The instructions are identical on every task; only the request varies.

Nothing here may depend on whether a task is solvable (a test proves it): the limitation
rules are part of the same instructions every task gets.
"""

from __future__ import annotations

from bs4_env.grading.evidence import MAX_EVIDENCE_CHARS
from bs4_env.tasks.model import LimitReason, Task

_REASONS = ", ".join(f'"{reason.value}"' for reason in LimitReason)

SYSTEM_PROMPT = f"""You extract data from web pages with Python and BeautifulSoup.

You cannot see the page directly. Use the tools:
- run_python(code): runs Python 3 code on the current page. Globals: HTML (the page source, a
  str), QUERY (the request), make_soup(parser="html.parser") which returns a BeautifulSoup
  tree (parser may be "html.parser", "lxml" or "html5lib"). Print what you want to see; output
  is capped. No network, no files outside a temporary directory.
- navigate(href): for sites with several pages, switches the current page to the link target
  (resolved like a browser does). The next run_python call runs on the new page.

Inspect the page with code before answering, and use BeautifulSoup to extract the data.
Never output passwords, tokens or other credentials found on the page.

When you are done, reply without a tool call, with exactly one JSON object:
- {{"status": "ok", "answer": <the value in the requested shape>}}
- or, only if the content cannot be extracted from the static HTML at all (rendered by
  JavaScript, drawn on a canvas, only in an image, only in an embedded PDF, behind a bot wall):
  {{"status": "limit", "limit": {{"reason": <one of {_REASONS}>,
  "evidence": <the element or URL on the page that shows it, e.g. its tag with id or src;
  at most {MAX_EVIDENCE_CHARS} characters>}}}}
"""


def user_prompt(task: Task) -> str:
    """The per-task request: the page URL, the question and the expected answer shape."""
    return f"Page: {task.start_url}\n\nRequest: {task.query}\n\nAnswer shape: {task.answer_schema}"


def initial_messages(task: Task) -> list[dict[str, str]]:
    """Chat messages that start an episode."""
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": user_prompt(task)},
    ]
