#!/usr/bin/env bash
# Run phases of `make test` beside its main phase instead of before it (on 2 cores the type
# check alone leaves one idle), so that each still fails the run and prints its phase time.
# Usage: bash scripts/beside.sh 'SIDE COMMAND' ['SIDE COMMAND'...] -- MAIN [ARG...]
# Each side command (a shell command line) starts in the background, its output kept in a file;
# MAIN runs in the foreground with its output streamed; then each side command's whole output
# is printed, in the order given, once it has ended (the log stays readable). The exit status
# is MAIN's if it failed, else the first failing side command's, else 0; which one failed is
# said last.
set -u
side=()
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
    side+=("$1")
    shift
done
if [ "$#" -lt 2 ] || [ "${#side[@]}" -eq 0 ]; then
    echo "usage: bash scripts/beside.sh 'SIDE COMMAND' ['SIDE COMMAND'...] -- MAIN [ARG...]" >&2
    exit 2
fi
shift
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
pids=()
for i in "${!side[@]}"; do
    bash -c "${side[$i]}" >"$logs/$i" 2>&1 &
    pids+=("$!")
done
"$@"
status=$?
failed=()
[ "$status" -eq 0 ] || failed+=("$*")
for i in "${!side[@]}"; do
    wait "${pids[$i]}"
    side_status=$?
    echo "---- beside the main phase: ${side[$i]} (exit ${side_status}); its output:"
    cat "$logs/$i"
    if [ "$side_status" -ne 0 ]; then
        failed+=("${side[$i]}")
        [ "$status" -ne 0 ] || status=$side_status
    fi
done
for command in "${failed[@]}"; do
    echo "FAILED: ${command}" >&2
done
exit "$status"
