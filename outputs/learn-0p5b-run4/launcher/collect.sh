#!/usr/bin/env bash
# Copy learning run 4's finished stages' records from the frozen worktree into main's run
# folder and stage them for commit: every file of a stage whose marker (stages/STAGE.json)
# exists, except weights (*.gguf, checkpoint/), llama.cpp logs, unfinished eval journals
# (*.partial.jsonl) and training data a seed rebuilds (*/data/*.jsonl, sft-data/train.jsonl,
# transfer-data/*.jsonl) and the report's per-row HTML pages (~1 MB each; `bs4-env report
# EVAL.json` rebuilds any of them from the committed eval document). A stage without a marker
# is refused, so nothing half-done is copied.
# Usage: collect.sh STAGE [STAGE ...]   (e.g. collect.sh eval-ei control)
set -euo pipefail
MAIN=${MAIN:-/work/main}
R=outputs/learn-0p5b-run4
FROM=${RUN:-/work/run4}/$R
[ $# -gt 0 ] || { echo "usage: $0 STAGE [STAGE ...]" >&2; exit 2; }
for stage in "$@"; do
  case $stage in
    data|sft|ei)  # replayed on 2026-12-07: main keeps the originals at their paths
      echo "$stage: its replay's records are in $R/replay-2026-12-07/, not copied over the original's" >&2
      exit 1 ;;
  esac
  if [ ! -f "$FROM/stages/$stage.json" ]; then
    echo "$stage: no $FROM/stages/$stage.json, the stage has not finished; nothing copied" >&2
    exit 1
  fi
done
for stage in "$@"; do
  case $stage in
    report) folders=(summary.json summary.md) ;;
    transfer) folders=(transfer transfer-data) ;;
    *) folders=("$stage") ;;
  esac
  files=("stages/$stage.json")
  for folder in "${folders[@]}"; do
    [ -e "$FROM/$folder" ] || continue
    while IFS= read -r f; do files+=("$f"); done < <(cd "$FROM" && find "$folder" -type f \
      ! -name '*.gguf' ! -path '*/checkpoint/*' ! -name '*server.log' ! -name '*.partial.jsonl' \
      ! -path '*/data/*.jsonl' ! -path 'sft-data/train.jsonl' ! -path 'transfer-data/*.jsonl' |
      sort)
  done
  for f in "${files[@]}"; do
    mkdir -p "$(dirname "$MAIN/$R/$f")"
    cp "$FROM/$f" "$MAIN/$R/$f"
    echo "$stage: $f"
  done
  git -C "$MAIN" add -f -- "${files[@]/#/$R/}"
done
