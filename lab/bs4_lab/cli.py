"""``bs4-env learn``: a staged CPU learning run (baseline, LoRA SFT, RL, evals, report).

The lab adds this command to ``bs4-env`` through the ``bs4_env.commands`` entry-point group
(``register``), so the environment never imports the lab. Needs the lab installed
(``pip install -e ./lab``: torch, transformers, peft, gguf, xllamacpp, scipy) and, for the
real run, the Qwen2.5-Coder GGUF of ``../shared/tools/local-model-setup.sh 0.5b``.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from bs4_lab.model_source import DEFAULT_GGUF
from bs4_lab.stages import STAGES

STAGE_HELP = "comma-separated stages (default: all, in order): " + ",".join(STAGES)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``learn`` to ``bs4-env``'s subcommands (the ``bs4_env.commands`` entry point)."""
    parser = sub.add_parser("learn", help="CPU learning run: baseline, LoRA SFT, RL, report")
    add_learn_arguments(parser)
    parser.set_defaults(func=cmd_learn)


def add_learn_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, default=Path("outputs/learn"), help="run folder")
    parser.add_argument(
        "--model", default=str(DEFAULT_GGUF), help="base model GGUF, or 'tiny' (plumbing test)"
    )
    parser.add_argument("--stages", help=STAGE_HELP)
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the run in --out (finished stages are skipped); without it an "
        "existing run folder is refused",
    )
    parser.add_argument("--seed", type=int, default=0, help="held-out draw, rows and order")
    parser.add_argument("--sft-episodes", type=int, default=300)
    parser.add_argument("--sft-epochs", type=int, default=1)
    parser.add_argument("--sft-lr", type=float, default=2e-4)
    parser.add_argument("--lora-rank", type=int, default=16)
    parser.add_argument(
        "--trained-archetypes",
        type=int,
        default=0,
        help="train on N archetypes (the evaluated ones plus a seeded draw); 0: all not held out",
    )
    parser.add_argument(
        "--held-out-easy", type=int, default=2, help="held-out primer/easy archetypes"
    )
    parser.add_argument("--held-out-medium", type=int, default=2, help="held-out medium ones")
    parser.add_argument("--eval-archetypes", type=int, default=8, help="trained ones evaluated")
    parser.add_argument("--eval-rows", type=int, default=3, help="eval rows per archetype")
    parser.add_argument(
        "--trained-rows",
        type=int,
        default=0,
        help="powered plan: eval rows of every trained solvable archetype (0: the draw of"
        " --eval-archetypes x --eval-rows)",
    )
    parser.add_argument(
        "--held-out-rows", type=int, default=0, help="powered plan: rows per held-out archetype"
    )
    parser.add_argument(
        "--limitation-rows",
        type=int,
        default=0,
        help="powered plan: rows per limitation archetype, trained or held out",
    )
    parser.add_argument(
        "--why", help="why this plan's seed or trained set differs from the --previous run"
    )
    parser.add_argument(
        "--allow-uncommitted-plan",
        action="store_true",
        help="trials only: run eval stages of a run-4 plan that is not committed to git"
        " (stage files record plan_uncommitted); a registered run commits plan.json first",
    )
    parser.add_argument(
        "--previous", type=Path, help="an earlier run folder the plan is compared with"
    )
    parser.add_argument("--samples", type=int, default=4, help="sampled runs per row (spread)")
    parser.add_argument("--rl-steps", type=int, default=8)
    parser.add_argument("--rl-rows", type=int, default=4, help="train rows per RL step")
    parser.add_argument("--rl-group", type=int, default=4, help="samples per row (>= 2)")
    parser.add_argument("--rl-lr", type=float, default=5e-5)
    parser.add_argument("--ei-iterations", type=int, default=2, help="expert-iteration rounds")
    parser.add_argument(
        "--ei-rows", type=int, default=2, help="train rows per trained archetype per round"
    )
    parser.add_argument("--ei-samples", type=int, default=4, help="rollouts per row (>= 2)")
    parser.add_argument(
        "--ei-keep", type=int, default=2, help="best-reward rollouts kept per row, at most"
    )
    parser.add_argument("--ei-temperature", type=float, default=1.0)
    parser.add_argument("--ei-lr", type=float, default=1e-4)
    parser.add_argument(
        "--transfer-episodes",
        type=int,
        default=12,
        help="verified episodes per held-out archetype for the NLL measure",
    )
    parser.add_argument(
        "--real-pages",
        default="real",
        help="page set of stage eval-real: 'real' (bs4-env real fetch first) or a rows file",
    )
    parser.add_argument("--real-rows", type=int, default=70, help="its first N rows")
    parser.add_argument("--max-tokens", type=int, default=768, help="per model turn")
    parser.add_argument("--max-turns", type=int, default=6, help="model turns per episode")
    parser.add_argument("--max-tool-calls", type=int, default=4, help="tool calls per episode")
    parser.add_argument(
        "--max-seq-tokens", type=int, default=3072, help="longer SFT episodes are dropped"
    )
    parser.add_argument("--parallel", type=int, default=4, help="llama.cpp slots")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")


def cmd_learn(args: argparse.Namespace) -> int:
    from bs4_lab.ei_stage import EiSettings
    from bs4_lab.model_source import ModelSource
    from bs4_lab.pipeline import run_stages
    from bs4_lab.plan import PlanSettings
    from bs4_lab.real_settings import RealSettings
    from bs4_lab.rl_stage import RlSettings
    from bs4_lab.run import LearnSettings
    from bs4_lab.serving_eval import EvalSettings
    from bs4_lab.sft_stage import SftSettings
    from bs4_lab.trainer import TrainConfig

    if args.out.exists() and any(args.out.iterdir()) and not args.resume:
        print(f"bs4-env learn: {args.out} holds a run; pass --resume to continue it")
        return 2
    if args.rl_group < 2:
        print("bs4-env learn: --rl-group must be >= 2 (advantages are relative to the group)")
        return 2
    stages = args.stages.split(",") if args.stages else list(STAGES)
    lora = {"lora_rank": args.lora_rank, "lora_alpha": 2 * args.lora_rank, "seed": args.seed}
    settings = LearnSettings(
        source=ModelSource.parse(args.model),
        plan=PlanSettings(
            seed=args.seed,
            held_out_easy=args.held_out_easy,
            held_out_medium=args.held_out_medium,
            eval_trained_archetypes=args.eval_archetypes,
            eval_rows_per_archetype=args.eval_rows,
            sft_episodes=args.sft_episodes,
            trained_archetypes=args.trained_archetypes,
            trained_rows=args.trained_rows,
            held_out_rows=args.held_out_rows,
            limitation_rows=args.limitation_rows,
        ),
        evaluation=EvalSettings(
            max_tokens=args.max_tokens,
            max_turns=args.max_turns,
            max_tool_calls=args.max_tool_calls,
            samples=args.samples,
            parallel=args.parallel,
        ),
        sft=SftSettings(epochs=args.sft_epochs, max_tokens=args.max_seq_tokens),
        sft_train=TrainConfig(learning_rate=args.sft_lr, **lora),
        rl=RlSettings(steps=args.rl_steps, rows_per_step=args.rl_rows, group_size=args.rl_group),
        rl_train=TrainConfig(learning_rate=args.rl_lr, **lora),
        ei=EiSettings(
            iterations=args.ei_iterations,
            rows_per_archetype=args.ei_rows,
            samples_per_row=args.ei_samples,
            temperature=args.ei_temperature,
            keep_per_row=args.ei_keep,
        ),
        ei_train=TrainConfig(learning_rate=args.ei_lr, **lora),
        transfer_episodes=args.transfer_episodes,
        real=RealSettings(pages=args.real_pages, rows=args.real_rows),
        why=args.why,
        previous=args.previous,
        progress=not args.quiet,
        allow_uncommitted_plan=args.allow_uncommitted_plan,
    )
    asyncio.run(run_stages(args.out, settings, stages, print))
    return 0
