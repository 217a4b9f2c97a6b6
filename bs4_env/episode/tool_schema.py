"""Tool names, descriptions and JSON schemas: one definition for every integration.

``TOOLS`` is the single source. The verifiers toolset builds its MCP tools from it (method
docstrings and ``Annotated`` parameter descriptions), and MCP advertises them the way pydantic
writes a function's arguments model; ``openai_tools()`` writes exactly that schema here, in the
order verifiers lists tools (by name), so ``bs4-env eval``, the classic adapter and the null
harness (``vf-eval``, prime-rl) send the model byte-identical tool definitions. A test
compares this against the live MCP listing, and another the request bodies of both paths.
"""

from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(frozen=True)
class ToolText:
    """One tool: its name, description and its single required string parameter."""

    name: str
    description: str
    param: str
    param_description: str

    def parameters(self) -> dict[str, Any]:
        """The JSON schema pydantic writes for ``def name(param: Annotated[str, Field(...)])``
        (what MCP's ``inputSchema`` carries): titles included."""
        return {
            "properties": {
                self.param: {
                    "description": self.param_description,
                    "title": self.param.replace("_", " ").title(),
                    "type": "string",
                }
            },
            "required": [self.param],
            "title": f"{self.name}Arguments",
            "type": "object",
        }


# In the order verifiers advertises a toolset's tools: sorted by name.
TOOLS: tuple[ToolText, ...] = (
    ToolText("navigate", NAVIGATE_DESCRIPTION, "href", "link target"),
    ToolText("run_python", RUN_PYTHON_DESCRIPTION, "code", "Python source"),
)
TOOL_TEXTS: dict[str, ToolText] = {tool.name: tool for tool in TOOLS}


def openai_tools() -> list[dict[str, Any]]:
    """The tools in OpenAI chat-completions format, as the verifiers path sends them."""
    return [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": tool.parameters(),
            },
        }
        for tool in TOOLS
    ]
