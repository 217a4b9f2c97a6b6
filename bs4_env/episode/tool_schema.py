"""Tool names, descriptions and JSON schemas: one text for every integration."""

from __future__ import annotations

from typing import Any

RUN_PYTHON_DESCRIPTION = (
    "Run Python 3 code on the current page and return its stdout, stderr (or traceback) and "
    "exit status. Globals: HTML (the page source), QUERY (the request) and "
    'make_soup(parser="html.parser") returning a BeautifulSoup tree ("html.parser", "lxml" or '
    '"html5lib"). Print what you need to see; output is capped.'
)
NAVIGATE_DESCRIPTION = (
    "Follow a link: switch the current page to the target of href (relative links are resolved "
    "against the current page like a browser does). The next run_python call runs on the new "
    "page. Only for sites with several pages."
)


def openai_tools() -> list[dict[str, Any]]:
    """The tools in OpenAI chat-completions format."""
    return [
        {
            "type": "function",
            "function": {
                "name": "run_python",
                "description": RUN_PYTHON_DESCRIPTION,
                "parameters": {
                    "type": "object",
                    "properties": {"code": {"type": "string", "description": "Python source"}},
                    "required": ["code"],
                },
            },
        },
        {
            "type": "function",
            "function": {
                "name": "navigate",
                "description": NAVIGATE_DESCRIPTION,
                "parameters": {
                    "type": "object",
                    "properties": {"href": {"type": "string", "description": "link target"}},
                    "required": ["href"],
                },
            },
        },
    ]
