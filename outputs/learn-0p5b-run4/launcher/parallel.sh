#!/usr/bin/env bash
# Run 4's remaining stages in two processes, then the rest in one: `eval-ei` in one process,
# `control` then `eval-control` in the other (each needs only finished stages: sft and ei's
# journals), then `eval-real,transfer,report`. Why: llama.cpp decodes on one thread
# (`--threads 1`, frozen with the code), so one eval alone kept the 2 cores at a load of
# 1.4-1.7. The two processes touch disjoint folders and stage markers; a finished stage is
# skipped ("done earlier") and an unfinished eval resumes from its journal. Logs: /work/runs/run4.log and
# /work/runs/run4-b.log. Start it with nohup, with weight.sh beside it.
set -uo pipefail
L=$(dirname "$(readlink -f "$0")")
LOG=${LOG:-/work/runs}
"$L/run4.sh" eval-ei >> "$LOG/run4.log" 2>&1 &
first=$!
"$L/run4.sh" control,eval-control >> "$LOG/run4-b.log" 2>&1 &
second=$!
wait $first
first_rc=$?
wait $second
second_rc=$?
if [ $first_rc -ne 0 ] || [ $second_rc -ne 0 ]; then
  echo "eval-ei exited $first_rc, control,eval-control exited $second_rc: not going on" >&2
  exit 1
fi
exec "$L/run4.sh" eval-real,transfer,report >> "$LOG/run4.log" 2>&1
