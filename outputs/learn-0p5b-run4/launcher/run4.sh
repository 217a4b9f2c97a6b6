#!/usr/bin/env bash
# Learning run 4's launcher: the frozen worktree /work/run4 (38eb201) and its own venv.
set -euo pipefail
cd /work/run4
OUT=outputs/learn-0p5b-run4
WHY=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["design"]["why"])' $OUT/plan.json)
echo -10 > /proc/self/autogroup || true
# ENTRY: another entry point taking the same arguments (real_model.py); the CLI by default.
exec nice -n 5 /work/run4-venv/bin/python ${ENTRY:--m bs4_env.cli.main} learn --out $OUT --seed 1 \
  --held-out-easy 2 --held-out-medium 3 --trained-rows 4 --held-out-rows 12 --limitation-rows 3 \
  --sft-episodes 720 --max-turns 5 --max-tool-calls 3 --samples 0 --ei-iterations 2 --ei-rows 1 \
  --ei-samples 4 --ei-keep 2 --ei-lr 1e-4 --transfer-episodes 12 --real-rows 70 \
  --previous outputs/learn-0p5b-run3-ei --why "$WHY" --stages "$1" --resume
