"""The tool definitions every path sends: one source, in verifiers' order, pydantic's schema."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, create_model

from bs4_env.episode.engine import TOOL_SPECS
from bs4_env.episode.tool_schema import TOOLS, openai_tools


def test_tools_match_the_engine_specs() -> None:
    assert {tool.name: tool.param for tool in TOOLS} == {
        name: spec.param for name, spec in TOOL_SPECS.items()
    }


def test_tools_are_in_verifiers_order() -> None:
    """verifiers lists a toolset's tools sorted by name (``discover_decorated``)."""
    names = [tool["function"]["name"] for tool in openai_tools()]
    assert names == sorted(names) == ["navigate", "run_python"]


def test_schemas_are_what_pydantic_writes_for_the_tool_signature() -> None:
    """MCP advertises ``<tool>Arguments.model_json_schema()``: titles and all."""
    for tool in TOOLS:
        param = Annotated[str, Field(description=tool.param_description)]
        model = create_model(f"{tool.name}Arguments", **{tool.param: (param, ...)})  # type: ignore[call-overload]
        assert tool.parameters() == model.model_json_schema()
