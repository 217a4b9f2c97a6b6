#!/usr/bin/env bash
# Rebuild learning run 4's machine state from the repository on a fresh machine (2026-12-07):
# the frozen worktree (/work/run4 at the registration commit 38eb201), its own venv at the
# path the run's tool replies name (/work/run4-venv), the 0.5B GGUF, and the run folder from
# main's committed records. Stages whose adapters were lost (data, sft, ei, control) are moved
# aside so that run4.sh replays them: ei replays its two training rounds from the journaled
# rollouts (nothing is sampled again). Then: run4.sh data,sft,ei and, after it, parallel.sh.
set -euo pipefail
MAIN=${MAIN:-/work/main}
R=outputs/learn-0p5b-run4
if [ -e /work/run4 ] || [ -e /work/run4-venv ]; then
  echo "/work/run4 or /work/run4-venv exists: this machine holds the run; resume it with run4.sh" >&2
  exit 1
fi
bash "$MAIN/../shared/tools/local-model-setup.sh" 0.5b
git -C "$MAIN" worktree add -q /work/run4 38eb201 -b run4
python3 -m venv /work/run4-venv
/work/run4-venv/bin/python -m pip install -q --upgrade pip
(cd /work/run4 && /work/run4-venv/bin/python scripts/install_torch.py 2.13.0 &&
  /work/run4-venv/bin/python -m pip install -q -e '.[dev]' -e ./lab)
# eval-real reads the pinned real pages from the page cache, which a fresh machine lacks (on
# 2026-12-07 eval-real stopped at its first row for it); the archives in ../shared fill it.
(cd /work/run4 && /work/run4-venv/bin/python scripts/fetch_real_from_archives.py)
cp -r "$MAIN/$R/." "/work/run4/$R/"
rm -rf "/work/run4/$R/launcher" "/work/run4/$R/replay-"*
mkdir -p /work/runs/original
for f in stages/data.json stages/sft.json stages/ei.json stages/control.json; do
  if [ -f "/work/run4/$R/$f" ]; then mv "/work/run4/$R/$f" /work/runs/original/; fi
done
# control (committed 2026-12-07) trains from the SFT adapter: it is replayed too, its rounds
# from scratch (a round's done.json without its checkpoint would be skipped, then missed).
rm -f "/work/run4/$R"/sft/sft-log*.jsonl "/work/run4/$R"/ei/iter-*/done.json \
  "/work/run4/$R"/ei/iter-*/train-log.jsonl "/work/run4/$R/sft-data/summary.json"
rm -rf "/work/run4/$R/control"
# An unfinished eval's journaled rows came from adapters a replay rebuilds close to, not bit
# for bit: the stage starts again rather than mixing the two. A finished eval's marker stays:
# if eval-ei finished and eval-control did not (or the reverse), move the finished one's
# stages/*.json aside too, so that both arms of the primary are evaluated on one replay.
rm -f "/work/run4/$R"/eval-*/*.partial.jsonl
echo "ready: cd /work/runs && nohup $MAIN/$R/launcher/run4.sh data,sft,ei >> run4.log 2>&1 &"
echo "then: nohup $MAIN/$R/launcher/parallel.sh >/dev/null 2>&1 &  (weight.sh beside both)"
