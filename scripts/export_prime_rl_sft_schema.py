"""Export prime-rl's ``sft`` config schema (JSON Schema) from a prime-rl source tree.

The companion of ``scripts/export_prime_rl_schema.py`` (which exports ``rl``): the same
rewrites (discriminated unions as if/then chains with the default variant, ``"None"`` read as
null), applied to ``prime_rl.configs.sft.SFTConfig``. ``SFTConfig`` needs only pydantic,
``prime-pydantic-config`` and ``renderers`` (this project's dev install has all three), so it
can run in the project's venv against the vendored tarball's ``packages/prime-rl-configs``::

    mkdir -p /tmp/prl && tar xzf ../shared/vendor/prime-rl-559b447.tar.gz -C /tmp/prl
    python scripts/export_prime_rl_sft_schema.py --checkout /tmp/prl/prime-rl-559b447 \\
        --out configs/prime-rl/schema/prime-rl-main-sft.schema.json
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any


def _rl_exporter() -> Any:
    path = Path(__file__).with_name("export_prime_rl_schema.py")
    spec = importlib.util.spec_from_file_location("export_prime_rl_schema", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build_schema(checkout: Path) -> dict[str, Any]:
    src = checkout / "packages" / "prime-rl-configs" / "src"
    if not (src / "prime_rl" / "configs" / "sft.py").is_file():
        raise SystemExit(f"{checkout} has no packages/prime-rl-configs/src/prime_rl/configs/sft.py")
    sys.path.insert(0, str(src))
    sft = importlib.import_module("prime_rl.configs.sft")
    top = sft.SFTConfig.model_json_schema(mode="validation")
    defs = top.pop("$defs")
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": "#/$defs/SFTConfig",
        "$defs": {**defs, "SFTConfig": top},
    }
    rewritten: dict[str, Any] = _rl_exporter()._rewrite(schema)
    return rewritten


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--checkout", type=Path, required=True, help="prime-rl source tree")
    parser.add_argument("--out", type=Path, required=True, help="schema file to write")
    args = parser.parse_args()
    schema = build_schema(args.checkout)
    args.out.write_text(json.dumps(schema, indent=1, sort_keys=True) + "\n")
    print(f"wrote {args.out} ({len(schema['$defs'])} definitions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
