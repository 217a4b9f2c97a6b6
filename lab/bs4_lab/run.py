"""One learning run's settings and its output folder (:class:`Run`), shared by every stage.

A module of its own, below the stage runner (:mod:`bs4_lab.pipeline`) and the stages that take
a ``Run`` (:mod:`bs4_lab.ei_loop`, :mod:`bs4_lab.transfer_stage`), so that none of them imports
another in a circle.
"""

from __future__ import annotations

import hashlib
import json
import platform
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from bs4_env.tasks.registry import default_registry
from bs4_lab.control_settings import ControlSettings
from bs4_lab.design import check_stage_settings, make_design, previous_run_facts
from bs4_lab.ei_stage import EiSettings
from bs4_lab.model_source import ModelSource
from bs4_lab.plan import PlanSettings, load_or_make_plan
from bs4_lab.real_settings import RealSettings
from bs4_lab.rl_stage import RlSettings
from bs4_lab.serving_eval import EvalSettings
from bs4_lab.sft_stage import SftSettings
from bs4_lab.trainer import TrainConfig

# What shapes a stage's bytes and numbers besides the code: the parsers (tool replies print
# their trees and tracebacks), the trainer's stack and the server. Run 4's data stage, rebuilt
# on another machine on 2026-12-07, gave the same rows but other bytes, and the packages it had
# first run with were nowhere recorded.
RECORDED_PACKAGES = (
    "beautifulsoup4", "lxml", "html5lib", "numpy", "torch", "transformers", "peft", "gguf",
    "tokenizers", "xllamacpp",
)  # fmt: skip


def installed_packages() -> dict[str, str | None]:
    """Python's and each of ``RECORDED_PACKAGES``' installed version (None: not installed)."""
    versions: dict[str, str | None] = {"python": platform.python_version()}
    for name in RECORDED_PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


# Run 4 on: EI against the equal-compute imitation control (runs 1-3 registered sft -> ei).
PRIMARY_PAIR = ("control", "ei")


@dataclass(frozen=True)
class LearnSettings:
    source: ModelSource
    plan: PlanSettings = field(default_factory=PlanSettings)
    evaluation: EvalSettings = field(default_factory=EvalSettings)
    sft: SftSettings = field(default_factory=SftSettings)
    sft_train: TrainConfig = field(default_factory=TrainConfig)
    rl: RlSettings = field(default_factory=RlSettings)
    rl_train: TrainConfig = field(default_factory=lambda: TrainConfig(learning_rate=5e-5))
    ei: EiSettings = field(default_factory=EiSettings)
    ei_train: TrainConfig = field(default_factory=lambda: TrainConfig(learning_rate=1e-4))
    control: ControlSettings = field(default_factory=ControlSettings)
    real: RealSettings = field(default_factory=RealSettings)
    transfer_episodes: int = 12  # verified episodes per held-out archetype
    # Why this plan's seed or trained set differs from the run in ``previous`` (see design).
    why: str | None = None
    previous: Path | None = None
    progress: bool = True
    # Trials outside git only (see plan_commit); never part of the registered settings.
    allow_uncommitted_plan: bool = False

    def registered(self) -> dict[str, Any]:
        """Each stage's settings, as the plan registers them and its marker records them."""
        return {
            "data": {"episodes": self.plan.sft_episodes},
            "evaluation": asdict(self.evaluation),
            "sft": {"train": asdict(self.sft_train), "sft": asdict(self.sft)},
            "rl": {"train": asdict(self.rl_train), "rl": asdict(self.rl)},
            "ei": {"train": asdict(self.ei_train), "ei": asdict(self.ei), "sft": asdict(self.sft)},
            "transfer": {"episodes_per_archetype": self.transfer_episodes},
            # The control trains with EI's LoRA, learning rate and loss (see control_stage).
            "control": {
                "train": asdict(self.ei_train),
                "sft": asdict(self.sft),
                "control": asdict(self.control),
            },
            "eval-real": self.real.registered(),
        }


class Run:
    """One output folder: its plan, stage markers and artefacts."""

    def __init__(self, out: Path, settings: LearnSettings) -> None:
        self.out = out
        self.settings = settings
        self.registry = default_registry()
        previous = None if settings.previous is None else previous_run_facts(settings.previous)
        self.plan = load_or_make_plan(
            out,
            self.registry,
            settings.plan,
            lambda plan: make_design(
                plan, settings.registered(), PRIMARY_PAIR, settings.why, previous
            ),
        )

    def check(self, stage: str) -> dict[str, Any]:
        """The registered settings of ``stage`` (refused if they differ from the plan's)."""
        settings: dict[str, Any] = self.settings.registered()[stage]
        check_stage_settings(self.plan, stage, settings)
        return settings

    def marker(self, stage: str) -> Path:
        return self.out / "stages" / f"{stage}.json"

    def done(self, stage: str) -> bool:
        return self.marker(stage).is_file()

    def generators(self) -> str:
        """A digest of the plan's archetypes and their generator versions: every stage of a
        run must see the same pages, so a version bump between stages is refused."""
        names = sorted(set(self.plan.trained) | set(self.plan.held_out))
        pairs = [(name, self.registry.get(name).version) for name in names]
        return hashlib.sha256(json.dumps(pairs).encode()).hexdigest()[:16]

    def check_generators(self) -> None:
        """Refuse to run a stage when an earlier one recorded other generator versions."""
        current = self.generators()
        for marker in sorted((self.out / "stages").glob("*.json")):
            recorded = json.loads(marker.read_text()).get("generators")
            if recorded is not None and recorded != current:
                raise ValueError(
                    f"{marker} ran with other archetype generator versions ({recorded}, now"
                    f" {current}): its pages differ from this code's; finish the run with the"
                    " code it started with"
                )

    def finish(self, stage: str, figures: dict[str, Any]) -> None:
        path = self.marker(stage)
        path.parent.mkdir(parents=True, exist_ok=True)
        figures = {**figures, "generators": self.generators(), "packages": installed_packages()}
        path.write_text(json.dumps(figures, indent=1, default=str) + "\n")

    def adapter_gguf(self, stage: str) -> Path:
        return self.out / stage / "adapter.gguf"

    def checkpoint(self, stage: str) -> Path:
        return self.out / stage / "checkpoint"

    def base_gguf(self) -> Path:
        return self.settings.source.serving_file(self.out / "model")

    def model(self) -> tuple[Any, Any]:
        """A fresh base model and its tokenizer (each training stage adds its own LoRA)."""
        return self.settings.source.load()
