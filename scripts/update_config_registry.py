"""Rewrite ``configs/registry.json`` from the config files and the live environment.

Run it after editing a config under ``configs/prime-rl`` (bump the ``version`` in its header
first), after adding one (add an entry with its hand-written fields: purpose, hardware, gpus,
gpu_split, companion), or when the archetype set or the bench manifest changed. ``--check``
only reports whether the registry is current (what ``tests/test_configs.py`` asserts).
"""

from __future__ import annotations

import argparse
import sys

from bs4_env.cli.config_registry import (
    REGISTRY_PATH,
    RegistryError,
    expected_registry,
    load_registry,
    registry_document,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="report only; exit 1 if stale")
    args = parser.parse_args()
    try:
        text = registry_document(expected_registry(load_registry()))
    except RegistryError as error:
        print(f"update_config_registry: {error}", file=sys.stderr)
        return 2
    if REGISTRY_PATH.read_text() == text:
        print(f"{REGISTRY_PATH} is current")
        return 0
    if args.check:
        print(f"{REGISTRY_PATH} is stale; run without --check", file=sys.stderr)
        return 1
    REGISTRY_PATH.write_text(text)
    print(f"wrote {REGISTRY_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
