"""``bs4-env doctor``: which sandbox isolation layers are active on this machine."""

from __future__ import annotations

import argparse
import json

from bs4_env.sandbox.doctor import doctor


def cmd_doctor(args: argparse.Namespace) -> int:
    statuses = doctor()
    if args.json:
        print(
            json.dumps(
                [{"layer": s.name, "active": s.active, "detail": s.detail} for s in statuses],
                indent=2,
            )
        )
    else:
        for status in statuses:
            print(f"{'active  ' if status.active else 'INACTIVE'} {status.name:20} {status.detail}")
    inactive = [s.name for s in statuses if not s.active]
    if inactive:
        print(
            f"\nWARNING: {len(inactive)} layer(s) inactive: {', '.join(inactive)}; "
            "model code is less isolated here (run as root on Linux >= 5.13 for all layers)."
        )
        return 1
    print(f"\nall {len(statuses)} isolation layers active")
    return 0
