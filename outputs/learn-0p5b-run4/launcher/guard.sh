#!/usr/bin/env bash
# Used with real_model.py on 2026-12-07: started beside it, it ends when EI's real document exists.
# Stop eval-real's stage process before it reaches the control while real_model.py writes it.
D=/work/run4/outputs/learn-0p5b-run4/eval-real
while sleep 1; do
  if [ -f $D/ei-greedy.json ]; then
    if [ ! -f $D/control-greedy.json ]; then
      pkill -INT -f -- "--stages control,eval-control,eval-real" && echo "$(date +%H:%M:%S) guard: SIGINT to the stage process (control not finished)" >> /work/runs/pauses.txt
    fi
    exit 0
  fi
done
