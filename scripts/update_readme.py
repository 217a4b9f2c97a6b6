"""Regenerate docs/archetypes.md's archetype table (linked from the README) from the registry."""

import re
from pathlib import Path

from bs4_env.cli.catalog import markdown_table

if __name__ == "__main__":
    page = Path(__file__).resolve().parents[1] / "docs" / "archetypes.md"
    text = page.read_text(encoding="utf-8")
    block = f"<!-- archetypes:start -->\n{markdown_table()}\n<!-- archetypes:end -->"
    text = re.sub(r"<!-- archetypes:start -->.*?<!-- archetypes:end -->", block, text, flags=re.S)
    page.write_text(text, encoding="utf-8")
    print(f"updated {page}")
