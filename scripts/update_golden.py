"""Rewrite tests/data/golden_hashes.json after an intended, version-bumped generator change."""

from pathlib import Path

from bs4_env.checks.golden import write_golden

if __name__ == "__main__":
    target = Path(__file__).resolve().parents[1] / "tests" / "data" / "golden_hashes.json"
    write_golden(target)
    print(f"wrote {target}")
