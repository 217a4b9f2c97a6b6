"""Registry: discovery, loud failures on bad metadata, and per-archetype conventions."""

from __future__ import annotations

import ast
import dataclasses
import importlib
from pathlib import Path
from random import Random

import pytest

from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.registry import Registry, RegistryError, build_task
from tests.conftest import archetype_ids


def _gen(rng: Random) -> Generated:
    return Generated(html="<p>x</p>", query="q", truth="x", query_template="t")


SPEC = ArchetypeSpec(
    id="dummy_case",
    category=Category.CORE,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=1,
    description="d",
    answer_schema="a string",
    generate=_gen,
)


def test_duplicate_registration_raises(tmp_path: Path) -> None:
    solution = tmp_path / "s.py"
    solution.write_text("print(1)")
    registry = Registry()
    registry.register(SPEC, solution)
    with pytest.raises(RegistryError, match="registered twice"):
        registry.register(SPEC, solution)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"id": "Bad Id"}, "id must match"),
        ({"version": 0}, "version"),
        ({"solvable": False}, "solvable"),
        ({"category": Category.LIMITATION}, "solvable"),
        ({"answer_schema": " "}, "non-empty"),
        ({"phase": "phase9"}, "phase"),
    ],
)
def test_bad_metadata_raises(tmp_path: Path, change: dict[str, object], message: str) -> None:
    solution = tmp_path / "s.py"
    solution.write_text("print(1)")
    with pytest.raises(RegistryError, match=message):
        Registry().register(dataclasses.replace(SPEC, **change), solution)  # type: ignore[arg-type]


def test_missing_solution_raises(tmp_path: Path) -> None:
    with pytest.raises(RegistryError, match="reference solution"):
        Registry().register(SPEC, tmp_path / "missing.py")


def test_unknown_archetype_lists_known(registry: Registry) -> None:
    with pytest.raises(RegistryError, match="known:"):
        registry.get("no_such_archetype")


def test_registry_covers_every_category(registry: Registry) -> None:
    # Every category has archetypes, except labelled pages (rows files, bs4_env.pages).
    assert {spec.category for spec in registry} == set(Category) - {Category.PAGES}
    assert len(registry) >= 24


@pytest.mark.parametrize("archetype_id", archetype_ids())
def test_archetype_module_conventions(registry: Registry, archetype_id: str) -> None:
    spec = registry.get(archetype_id)
    module = importlib.import_module(spec.generate.__module__)
    doc = module.__doc__ or ""
    assert "Skill" in doc and "hortcut" in doc, "docstring must name the skill and the shortcuts"
    source = Path(module.__file__ or "").read_text(encoding="utf-8")
    assert len(source.splitlines()) <= 250
    ast.parse(registry.reference_solution(archetype_id))
    task = build_task(archetype_id, 0, "train", registry)
    assert task.html.lstrip().lower().startswith("<!doctype html")
    assert (task.limitation is None) == spec.solvable


def test_no_two_solution_files_are_byte_identical() -> None:
    """A twin that shares a program points at it (``solution_of``) instead of a copy."""
    folder = Path(importlib.import_module("bs4_env.tasks.archetypes").__path__[0])
    by_text: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("*_solution.py")):
        by_text.setdefault(path.read_text(encoding="utf-8"), []).append(path.name)
    copies = [names for names in by_text.values() if len(names) > 1]
    assert not copies, f"byte-identical reference solutions: {copies}"


def test_shared_solutions_resolve_to_their_counterparts(registry: Registry) -> None:
    shared = [spec for spec in registry if spec.solution_of is not None]
    assert len(shared) >= 10
    for spec in shared:
        counterpart = registry.get(spec.solution_of or "")
        assert counterpart.solution_of is None, "one hop: the named archetype owns the file"
        assert spec.solvable and counterpart.category is Category.LIMITATION, "a solvable twin"
        assert registry.reference_solution(spec.id) == registry.reference_solution(counterpart.id)


def test_solution_of_fails_loudly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bs4_env.tasks import registry as registry_module

    twin = dataclasses.replace(SPEC, solution_of="nowhere")
    own = tmp_path / "dummy_case_solution.py"
    with pytest.raises(RegistryError, match="no solution file"):
        registry_module._solution_path(twin, own, {})
    own.write_text("print(1)")
    with pytest.raises(RegistryError, match="keep one"):
        registry_module._solution_path(twin, own, {"nowhere": own})
