#!/usr/bin/env bash
# Run 4's remaining stages in two processes, then the report: `eval-ei` then `transfer` in one,
# `control` then `eval-control` then `eval-real` in the other. Each stage needs only stages
# finished before it: eval-real needs control; transfer reads the eval documents of every
# evaluated arm, so it waits for eval-control's marker. EI's eval rows are the slow ones (its
# adapter writes ~2x the tokens of the control's), so eval-real goes with the control.
# Why two processes: llama.cpp decodes on one thread (`--threads 1`, frozen with the code), so
# one eval alone kept the 2 cores at a load of 1.4-1.7; two side by side journaled 1.6-1.8x the
# rows (2026-12-07). The processes touch disjoint folders and stage markers; a finished stage
# is skipped ("done earlier") and an unfinished eval resumes from its journal.
# Logs: /work/runs/run4.log and /work/runs/run4-b.log. Start it with nohup, weight.sh beside it.
set -uo pipefail
L=$(dirname "$(readlink -f "$0")")
LOG=${LOG:-/work/runs}
STAGES=${STAGES:-/work/run4/outputs/learn-0p5b-run4/stages}
"$L/run4.sh" control,eval-control,eval-real >> "$LOG/run4-b.log" 2>&1 &
second=$!
(
  "$L/run4.sh" eval-ei || exit $?
  while [ ! -f "$STAGES/eval-control.json" ]; do
    kill -0 $second 2>/dev/null || { echo "eval-control's process ended without its marker" >&2; exit 1; }
    sleep 30
  done
  exec "$L/run4.sh" transfer
) >> "$LOG/run4.log" 2>&1 &
first=$!
wait $first
first_rc=$?
wait $second
second_rc=$?
if [ $first_rc -ne 0 ] || [ $second_rc -ne 0 ]; then
  echo "eval-ei,transfer exited $first_rc, control,eval-control,eval-real exited $second_rc: not going on" >&2
  exit 1
fi
exec "$L/run4.sh" report >> "$LOG/run4.log" 2>&1
