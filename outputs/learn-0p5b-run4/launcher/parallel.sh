#!/usr/bin/env bash
# Run 4's remaining stages in two processes, then the report: `eval-ei` then `eval-real` in
# one, `control` then `eval-control` then `transfer` in the other (each stage needs only stages
# finished before it: eval-real needs control; transfer reads the eval documents of every
# evaluated arm, so the second process waits for eval-ei's marker before it), then `report`.
# Why: llama.cpp decodes on one thread (`--threads 1`, frozen with the code), so one eval alone
# kept the 2 cores at a load of 1.4-1.7; two side by side journaled 1.6-1.8x the rows
# (2026-12-07). The processes touch disjoint folders and stage markers; a finished stage is
# skipped ("done earlier") and an unfinished eval resumes from its journal.
# Logs: /work/runs/run4.log and /work/runs/run4-b.log. Start it with nohup, weight.sh beside it.
set -uo pipefail
L=$(dirname "$(readlink -f "$0")")
LOG=${LOG:-/work/runs}
STAGES=${STAGES:-/work/run4/outputs/learn-0p5b-run4/stages}
"$L/run4.sh" eval-ei,eval-real >> "$LOG/run4.log" 2>&1 &
first=$!
(
  "$L/run4.sh" control,eval-control || exit $?
  while [ ! -f "$STAGES/eval-ei.json" ]; do
    kill -0 $first 2>/dev/null || { echo "eval-ei's process ended without its marker" >&2; exit 1; }
    sleep 30
  done
  exec "$L/run4.sh" transfer
) >> "$LOG/run4-b.log" 2>&1 &
second=$!
wait $first
first_rc=$?
wait $second
second_rc=$?
if [ $first_rc -ne 0 ] || [ $second_rc -ne 0 ]; then
  echo "eval-ei,eval-real exited $first_rc, control,eval-control,transfer exited $second_rc: not going on" >&2
  exit 1
fi
exec "$L/run4.sh" report >> "$LOG/run4.log" 2>&1
