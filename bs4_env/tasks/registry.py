"""Archetype registry: discovers one module per archetype and fails loudly on bad metadata.

Each module under ``bs4_env.tasks.archetypes.<category>`` defines ``ARCHETYPE`` (an
``ArchetypeSpec`` whose id equals the module name); its reference solution lives beside it
as ``<id>_solution.py``, or, for a twin whose spec sets ``solution_of``, is its counterpart's.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import MappingProxyType, ModuleType

from bs4_env.tasks.model import ArchetypeSpec, Category, Task
from bs4_env.tasks.rng import task_rng

SOLUTION_SUFFIX = "_solution"
_ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]{2,47}$")
PHASES = ("mvp", "phase2")


class RegistryError(ValueError):
    """Raised for duplicate ids, bad metadata or unknown archetypes."""


class Registry:
    """An ordered, validated collection of archetypes."""

    def __init__(self) -> None:
        self._specs: dict[str, ArchetypeSpec] = {}
        self._solutions: dict[str, Path] = {}

    def register(self, spec: ArchetypeSpec, solution_path: Path) -> None:
        """Add an archetype; raises ``RegistryError`` on a duplicate id or bad metadata."""
        if spec.id in self._specs:
            raise RegistryError(f"archetype {spec.id!r} is registered twice")
        problems = _metadata_problems(spec, solution_path)
        if problems:
            raise RegistryError(f"archetype {spec.id!r} has bad metadata: {'; '.join(problems)}")
        self._specs[spec.id] = spec
        self._solutions[spec.id] = solution_path

    def get(self, archetype_id: str) -> ArchetypeSpec:
        try:
            return self._specs[archetype_id]
        except KeyError:
            raise RegistryError(
                f"unknown archetype {archetype_id!r}; known: {', '.join(sorted(self._specs))}"
            ) from None

    def ids(self) -> tuple[str, ...]:
        return tuple(self._specs)

    def specs(self) -> tuple[ArchetypeSpec, ...]:
        return tuple(self._specs.values())

    def reference_solution(self, archetype_id: str) -> str:
        """The reference BeautifulSoup program for an archetype, as source text."""
        self.get(archetype_id)
        return self._solutions[archetype_id].read_text(encoding="utf-8")

    def __len__(self) -> int:
        return len(self._specs)

    def __iter__(self) -> Iterator[ArchetypeSpec]:
        return iter(self._specs.values())


def _metadata_problems(spec: ArchetypeSpec, solution_path: Path) -> list[str]:
    problems = []
    if not _ID_PATTERN.match(spec.id):
        problems.append(f"id must match {_ID_PATTERN.pattern}")
    if not isinstance(spec.category, Category):
        problems.append("category must be a Category")
    if spec.version < 1:
        problems.append("version must be >= 1")
    if spec.solvable == (spec.category is Category.LIMITATION):
        problems.append("solvable must be False exactly for the limitation category")
    if not spec.description.strip() or not spec.answer_schema.strip():
        problems.append("description and answer_schema must be non-empty")
    if spec.phase not in PHASES:
        problems.append(f"phase must be one of {PHASES}")
    if spec.free_tool_calls < 1:
        problems.append("free_tool_calls must be >= 1")
    if not solution_path.is_file():
        problems.append(f"reference solution {solution_path.name} is missing")
    return problems


def _archetype_modules() -> Iterator[ModuleType]:
    package = importlib.import_module("bs4_env.tasks.archetypes")
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
        leaf = info.name.rsplit(".", 1)[-1]
        if info.ispkg or leaf.startswith("_") or leaf.endswith(SOLUTION_SUFFIX):
            continue
        yield importlib.import_module(info.name)


def discover() -> Registry:
    """Import every archetype module and register its ``ARCHETYPE``, sorted by id."""
    found: list[tuple[ArchetypeSpec, Path]] = []
    for module in _archetype_modules():
        spec = getattr(module, "ARCHETYPE", None)
        if not isinstance(spec, ArchetypeSpec):
            raise RegistryError(f"module {module.__name__} defines no ARCHETYPE spec")
        leaf = module.__name__.rsplit(".", 1)[-1]
        if spec.id != leaf:
            raise RegistryError(f"module {module.__name__} declares id {spec.id!r}, not {leaf!r}")
        if module.__name__.split(".")[-2] != spec.category.value:
            raise RegistryError(f"{spec.id}: module folder must be its category {spec.category}")
        if module.__file__ is None:
            raise RegistryError(f"module {module.__name__} is not file-backed")
        found.append((spec, Path(module.__file__).with_name(f"{leaf}{SOLUTION_SUFFIX}.py")))
    own = {spec.id: path for spec, path in found}
    registry = Registry()
    for spec, path in sorted(found, key=lambda pair: pair[0].id):
        registry.register(spec, _solution_path(spec, path, own))
    return registry


def _solution_path(spec: ArchetypeSpec, path: Path, own: dict[str, Path]) -> Path:
    """The reference program's file: the archetype's own, or the one its spec shares."""
    if spec.solution_of is None:
        return path
    if path.exists():
        raise RegistryError(f"{spec.id}: has {path.name} and also solution_of; keep one")
    target = own.get(spec.solution_of)
    if target is None or not target.is_file():
        raise RegistryError(
            f"{spec.id}: solution_of names {spec.solution_of!r}, which has no solution file"
        )
    return target


@cache
def default_registry() -> Registry:
    """The process-wide registry of built-in archetypes (discovered once)."""
    return discover()


def build_task(archetype_id: str, seed: int, split: str, registry: Registry | None = None) -> Task:
    """Generate the task for (archetype, seed); ``split`` is recorded, never mixed into the RNG."""
    spec = (registry or default_registry()).get(archetype_id)
    generated = spec.generate(task_rng(spec.id, seed))
    pages = dict(generated.pages)
    pages.setdefault(generated.start_url, generated.html)
    return Task(
        archetype_id=spec.id,
        seed=seed,
        split=split,
        html=generated.html,
        pages=MappingProxyType(pages),
        start_url=generated.start_url,
        query=generated.query,
        query_template=generated.query_template,
        answer_schema=generated.answer_schema or spec.answer_schema,
        normalization=spec.normalization,
        truth=generated.truth,
        solvable=spec.solvable,
        limitation=generated.limitation,
        secrets=generated.secrets,
        difficulty=spec.difficulty,
        category=spec.category,
        generator_version=spec.version,
        free_tool_calls=spec.free_tool_calls,
    )
