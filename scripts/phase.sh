#!/usr/bin/env bash
# Run one phase of `make test` and print its wall time in CI's log, e.g. `phase pytest: 912 s
# (exit 0)`, whether it passed or not; exits with the command's own status.
# Usage: bash scripts/phase.sh NAME COMMAND [ARG...]
set -u
if [ "$#" -lt 2 ]; then
    echo "usage: bash scripts/phase.sh NAME COMMAND [ARG...]" >&2
    exit 2
fi
name=$1
shift
SECONDS=0
"$@"
status=$?
echo "phase ${name}: ${SECONDS} s (exit ${status})"
exit "$status"
