#!/usr/bin/env bash
# GPU recipe: baseline eval -> SFT warm start -> merge -> RL -> eval after -> like-for-like report.
#
# One command per hardware shape (docs/warm-start.md), run on the GPU machine from this
# checkout, with a prime-rl checkout at the pinned commit (559b447, `uv sync` done, this
# environment installed into its venv as the README says) and `bs4-env` on PATH:
#
#   scripts/gpu_recipe.sh --shape 1xh100 --steps 150 --prime-rl ~/prime-rl --out ~/bs4-run
#   scripts/gpu_recipe.sh --shape 2xh100 --steps 200 --prime-rl ~/prime-rl --out ~/bs4-run
#   scripts/gpu_recipe.sh --shape 8xh100 --steps 300 --prime-rl ~/prime-rl --out ~/bs4-run
#   scripts/gpu_recipe.sh --shape 2xh100 --steps 5 --prime-rl ~/prime-rl --out /tmp/r --dry-run
#
# Shapes: 1xh100 and 2xh100 train Qwen/Qwen3-4B-Instruct-2507; 8xh100 trains
# Qwen/Qwen2.5-Coder-7B-Instruct (SFT on all eight GPUs, RL with vLLM on GPUs 0-5 as 6
# data-parallel replicas and the trainer on GPUs 6-7, so its eval servers use GPUs 0-5 too).
#
# Stages, in order:
#   1. baseline: vLLM serves the shape's base model; `bs4-env eval --config <shape's rl config>`
#                (its eval source: the bench prefix with training's budgets and sampling)
#   2. sft:      `bs4-env sft-data`, then `uv run sft @ <shape's *.sft.toml>`
#   3. merge:    the SFT LoRA (a DCP checkpoint: prime-rl 559b447 has no merge/export tool)
#                folded into the base model by scripts/merge_sft_lora.py
#   4. rl:       `uv run rl @ <shape's rl config> --max-steps N --model.name <merged>
#                --tokenizer.name <base model>`
#                (1xh100: prime-rl's `inference` on the same GPU first, as the README says)
#   5. after:    vLLM serves the merged model + the RL run's last adapter; the same eval
#   6. report:   `bs4-env report` on both results files and a before/after comparison
#
# --dry-run prints every command in order and runs nothing; with --check-configs it also runs
# the prime-rl commands (sft, inference, rl) with prime-rl's own --dry-run from a prime-rl
# venv (--primerl-venv DIR, default <prime-rl>/.venv), which validates the resolved configs.
# Nothing here has run on a GPU yet.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CONFIGS="$ROOT/configs/prime-rl"
PORT=8000
BASE_URL="http://localhost:$PORT/v1"
LORA_NAME="bs4"
SFT_EPISODES=3000
# Server flags shared by both eval servers (the README's `vllm serve` line); the shape adds its
# GPUs (SERVE_GPUS) and any data parallelism (SERVE_FLAGS).
VLLM_FLAGS=(--port "$PORT" --max-model-len 32768 --enable-auto-tool-choice
  --tool-call-parser hermes)

SHAPE=""
STEPS=""
PRIME_RL=""
OUT=""
DRY_RUN=0
CHECK_CONFIGS=0
PRIMERL_VENV=""
SERVER_PID=""

die() {
  echo "gpu_recipe.sh: error: $*" >&2
  exit 2
}

usage() {
  cat <<'EOF'
usage: scripts/gpu_recipe.sh --shape {1xh100,2xh100,8xh100} --steps N --prime-rl DIR --out DIR
                             [--dry-run [--check-configs] [--primerl-venv DIR]]
EOF
}

parse_args() {
  while (($#)); do
    case "$1" in
      --shape | --steps | --prime-rl | --out | --primerl-venv)
        (($# >= 2)) || die "$1 needs a value"
        case "$1" in
          --shape) SHAPE="$2" ;;
          --steps) STEPS="$2" ;;
          --prime-rl) PRIME_RL="$2" ;;
          --out) OUT="$2" ;;
          --primerl-venv) PRIMERL_VENV="$2" ;;
        esac
        shift 2
        ;;
      --dry-run) DRY_RUN=1 && shift ;;
      --check-configs) CHECK_CONFIGS=1 && shift ;;
      -h | --help) usage && exit 0 ;;
      *) usage >&2 && die "unknown argument: $1" ;;
    esac
  done
  [[ -n "$SHAPE" ]] || die "--shape is required (1xh100, 2xh100 or 8xh100)"
  [[ "$STEPS" =~ ^[1-9][0-9]*$ ]] || die "--steps must be a positive integer, got '${STEPS}'"
  [[ -n "$PRIME_RL" ]] || die "--prime-rl DIR is required (a prime-rl checkout at 559b447)"
  [[ -n "$OUT" ]] || die "--out DIR is required"
  ((CHECK_CONFIGS == 0 || DRY_RUN == 1)) || die "--check-configs only goes with --dry-run"
  PRIME_RL="$(realpath -m "$PRIME_RL")"
  OUT="$(realpath -m "$OUT")"
  PRIMERL_VENV="$(realpath -m "${PRIMERL_VENV:-$PRIME_RL/.venv}")"
}

# Per shape: the base model (its configs' [model] name), the SFT config, the RL config, the
# hand-started inference config (1x only: prime-rl main has no one-GPU mode), and the GPUs and
# extra flags of the eval servers (the same vLLM layout as the RL config's inference).
select_shape() {
  SERVE_GPUS="0"
  SERVE_FLAGS=()
  case "$SHAPE" in
    1xh100)
      BASE_MODEL="Qwen/Qwen3-4B-Instruct-2507"
      SFT_CONFIG="$CONFIGS/qwen3-4b-lora-sft-1xh100.sft.toml"
      RL_CONFIG="$CONFIGS/qwen3-4b-lora-1xh100.toml"
      INFERENCE_CONFIG="$CONFIGS/qwen3-4b-lora-1xh100.inference.toml"
      ;;
    2xh100)
      BASE_MODEL="Qwen/Qwen3-4B-Instruct-2507"
      SFT_CONFIG="$CONFIGS/qwen3-4b-lora-sft-2xh100.sft.toml"
      RL_CONFIG="$CONFIGS/qwen3-4b-lora-2xh100.toml"
      INFERENCE_CONFIG=""
      ;;
    8xh100)
      # SFT: the trainer on all eight GPUs. RL ([deployment] 6 inference + 2 train GPUs):
      # prime-rl puts vLLM on GPUs 0-5 (6 data-parallel replicas) and the trainer on 6-7; the
      # eval servers take that same vLLM layout.
      BASE_MODEL="Qwen/Qwen2.5-Coder-7B-Instruct"
      SFT_CONFIG="$CONFIGS/qwen25-coder-7b-lora-sft-8xh100.sft.toml"
      RL_CONFIG="$CONFIGS/qwen25-coder-7b-lora-8xh100.toml"
      INFERENCE_CONFIG=""
      SERVE_GPUS="0,1,2,3,4,5"
      SERVE_FLAGS=(--data-parallel-size 6)
      ;;
    *) die "unknown shape '$SHAPE' (known: 1xh100, 2xh100, 8xh100)" ;;
  esac
  local config
  for config in "$SFT_CONFIG" "$RL_CONFIG" ${INFERENCE_CONFIG:+"$INFERENCE_CONFIG"}; do
    [[ -f "$config" ]] || die "config missing: $config"
  done
  # The like-for-like eval flags (docs/training-scale.md): one array, used verbatim by both
  # evals; `--config` takes the RL config's eval source (bench prefix, sampling, turn, tool-call
  # and output caps), so neither eval can drift from what training measured.
  EVAL_FLAGS=(--base-url "$BASE_URL" --api-key-var VLLM_API_KEY --config "$RL_CONFIG")
  SFT_RUN="bs4-$SHAPE-sft"
  RL_RUN="bs4-$SHAPE-warm"
  SFT_DATA="$OUT/sft-data"
  MERGED="$OUT/merged-sft"
  BEFORE="$OUT/before.results.json"
  AFTER="$OUT/after.results.json"
}

preflight() {
  ((DRY_RUN == 0)) || return 0
  [[ -f "$PRIME_RL/pyproject.toml" ]] || die "--prime-rl $PRIME_RL is not a prime-rl checkout"
  local tool
  for tool in uv curl bs4-env python3; do
    command -v "$tool" >/dev/null || die "$tool is not on PATH"
  done
  require_taskset "$PRIME_RL/.venv"
  mkdir -p "$OUT"
}

stage() {
  echo "== stage $1 =="
}

# Print a command (as it would be typed) and run it unless --dry-run. `run_in DIR cmd...` runs
# it in DIR (prime-rl's commands run from its checkout so `uv run` uses its venv).
run_in() {
  local dir="$1"
  shift
  printf '+ cd %q &&' "$dir"
  printf ' %q' "$@"
  printf '\n'
  ((DRY_RUN == 1)) || (cd "$dir" && "$@")
}

run() {
  run_in "$ROOT" "$@"
}

# With --dry-run --check-configs: the same prime-rl command with its own --dry-run, from the
# prime-rl venv, writing under $OUT/check so nothing lands in a real run directory.
check_config() {
  ((CHECK_CONFIGS == 1)) || return 0
  local entry="$1"
  shift
  local check="$OUT/check"
  mkdir -p "$check"
  echo "  (checking with prime-rl's own --dry-run: $entry)"
  (cd "$check" && env -u VIRTUAL_ENV -u PYTHONPATH PATH="$PRIMERL_VENV/bin:$PATH" \
    "$PRIMERL_VENV/bin/$entry" "$@" --dry-run) >"$check/$entry.log" 2>&1 ||
    die "prime-rl '$entry --dry-run' rejected the command; see $check/$entry.log; its end:
$(tail -n 15 "$check/$entry.log")"
}

# prime-rl's rl (its --dry-run included) imports the taskset 'beautiful-soup-env' by name, so
# this package must be installed in prime-rl's venv, not only on this machine's PATH.
require_taskset() {
  local python="$1/bin/python"
  [[ -x "$python" ]] || return 0
  "$python" -I -c 'import beautiful_soup_env' 2>/dev/null ||
    die "prime-rl's venv $1 lacks beautiful-soup-env (rl loads the taskset by name); install it:
  uv pip install --python $python --no-deps $(printf %q "$ROOT")"
}

# Start a server in the background (prime-rl's venv), wait until /v1/models answers.
start_server() {
  printf '+ cd %q &&' "$PRIME_RL"
  printf ' %q' "$@"
  printf ' &\n'
  echo "+ wait until $BASE_URL/models answers"
  ((DRY_RUN == 0)) || return 0
  (cd "$PRIME_RL" && exec "$@") >"$OUT/server-$(date +%s).log" 2>&1 &
  SERVER_PID=$!
  local waited=0
  until curl -sf "$BASE_URL/models" >/dev/null; do
    kill -0 "$SERVER_PID" 2>/dev/null || die "the server exited before answering (logs: $OUT/server-*.log)"
    ((waited < 1800)) || die "the server did not answer within 30 minutes"
    sleep 5
    waited=$((waited + 5))
  done
}

stop_server() {
  echo "+ stop the server"
  [[ -n "$SERVER_PID" ]] || return 0
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
}

# The newest step_N directory under DIR (at run time; a placeholder under --dry-run).
latest_step() {
  if ((DRY_RUN == 1)); then
    echo "$1/step_<latest>"
    return
  fi
  local latest
  latest="$(find "$1" -maxdepth 1 -type d -name 'step_*' | sort -t_ -k2 -n | tail -n 1)"
  [[ -n "$latest" ]] || die "no step_N directory under $1"
  echo "$latest"
}

eval_bench() {
  local model="$1" output="$2"
  run env VLLM_API_KEY=EMPTY bs4-env eval "${EVAL_FLAGS[@]}" --model "$model" -o "$output"
}

stage_baseline() {
  stage "1: baseline eval of $BASE_MODEL"
  start_server env CUDA_VISIBLE_DEVICES="$SERVE_GPUS" uv run vllm serve "$BASE_MODEL" \
    "${VLLM_FLAGS[@]}" "${SERVE_FLAGS[@]}"
  eval_bench "$BASE_MODEL" "$BEFORE"
  stop_server
}

stage_sft() {
  stage "2: SFT warm start ($(basename "$SFT_CONFIG"))"
  run bs4-env sft-data -n "$SFT_EPISODES" --out "$SFT_DATA"
  local args=(@ "$SFT_CONFIG" --data.name "$SFT_DATA" --output-dir "$OUT/sft" --run.name "$SFT_RUN")
  run_in "$PRIME_RL" uv run sft "${args[@]}"
  check_config sft "${args[@]}"
}

stage_merge() {
  stage "3: merge the SFT LoRA into $BASE_MODEL"
  # prime-rl main cannot resume RL from an SFT run (no orchestrator state), and at 559b447 it
  # has no merge or adapter-export entrypoint: an SFT run without online evals leaves only its
  # DCP checkpoint, so our script folds lora_B @ lora_A * alpha/rank into the base weights.
  run_in "$PRIME_RL" uv run python "$ROOT/scripts/merge_sft_lora.py" \
    --run-dir "$OUT/sft/$SFT_RUN" --config "$SFT_CONFIG" --out "$MERGED"
}

stage_rl() {
  stage "4: RL from the warm start ($(basename "$RL_CONFIG"), $STEPS steps)"
  # --tokenizer.name: with a local merged folder as the model, renderer `auto` cannot map the
  # path to the qwen3 renderer and prime-rl refuses the config; the tokenizer is unchanged (the
  # Qwen2.5 configs document the same handover: --tokenizer.name Qwen/Qwen2.5-Coder-7B-Instruct).
  local args=(@ "$RL_CONFIG" --max-steps "$STEPS" --model.name "$MERGED"
    --tokenizer.name "$BASE_MODEL" --output-dir "$OUT/rl" --run.name "$RL_RUN")
  if [[ -n "$INFERENCE_CONFIG" ]]; then
    # One GPU: vLLM first (it sizes its 40% from free memory), then the trainer, same GPU.
    local infer=(@ "$INFERENCE_CONFIG" --vllm.model "$MERGED")
    start_server env CUDA_VISIBLE_DEVICES=0 uv run inference "${infer[@]}"
    check_config inference "${infer[@]}"
    run_in "$PRIME_RL" env CUDA_VISIBLE_DEVICES=0 uv run rl "${args[@]}"
    check_config rl "${args[@]}"
    stop_server
  else
    run_in "$PRIME_RL" uv run rl "${args[@]}"
    check_config rl "${args[@]}"
  fi
}

stage_after() {
  stage "5: eval after (merged model + the RL adapter)"
  # The RL adapter was trained on top of the merged weights, so the merged model is the base
  # it is served with; the broadcast directory holds it in PEFT form.
  local adapter
  adapter="$(latest_step "$OUT/rl/$RL_RUN/broadcasts")"
  start_server env CUDA_VISIBLE_DEVICES="$SERVE_GPUS" uv run vllm serve "$MERGED" \
    "${VLLM_FLAGS[@]}" "${SERVE_FLAGS[@]}" \
    --enable-lora --max-lora-rank 32 --lora-modules "$LORA_NAME=$adapter"
  eval_bench "$LORA_NAME" "$AFTER"
  stop_server
}

stage_report() {
  stage "6: like-for-like report"
  run bs4-env report "$BEFORE" -o "${BEFORE%.json}.html"
  run bs4-env report "$AFTER" -o "${AFTER%.json}.html"
  # The comparison's code is $COMPARE below: printed by name, not inline, to keep this readable.
  # shellcheck disable=SC2016  # "$COMPARE" is printed literally on purpose
  printf '+ python3 -c "$COMPARE" %q %q\n' "$BEFORE" "$AFTER"
  ((DRY_RUN == 1)) || python3 -c "$COMPARE" "$BEFORE" "$AFTER"
}

# Before/after on the same n; a mismatch in n means the runs are not like for like.
COMPARE="$(
  cat <<'PY'
import json, sys
before, after = (json.load(open(path)) for path in sys.argv[1:3])
if before["n"] != after["n"]:
    sys.exit(f"not like for like: n before {before['n']} != n after {after['n']}")
print(f"{'':10} {'n':>5} {'errors':>6} {'avg_reward':>10} {'errors_as_0':>11}")
for name, r in (("before", before), ("after", after)):
    print(f"{name:10} {r['n']:5d} {r['errors']:6d} {r['avg_reward']:10.4f} "
          f"{r['avg_reward_errors_as_zero']:11.4f}")
delta = after["avg_reward"] - before["avg_reward"]
print(f"avg reward {before['avg_reward']:.4f} -> {after['avg_reward']:.4f} "
      f"({delta:+.4f}), n={after['n']} each")
PY
)"

cleanup() {
  if [[ -n "$SERVER_PID" ]]; then
    kill "$SERVER_PID" 2>/dev/null || true
  fi
}

main() {
  parse_args "$@"
  select_shape
  if ((CHECK_CONFIGS == 1)); then
    [[ -x "$PRIMERL_VENV/bin/rl" ]] ||
      die "--check-configs needs a prime-rl venv with rl/sft/inference (tried $PRIMERL_VENV)"
    require_taskset "$PRIMERL_VENV"
  fi
  preflight
  trap cleanup EXIT
  echo "# shape $SHAPE, $STEPS RL steps, prime-rl $PRIME_RL, outputs $OUT"
  stage_baseline
  stage_sft
  stage_merge
  stage_rl
  stage_after
  stage_report
}

main "$@"
