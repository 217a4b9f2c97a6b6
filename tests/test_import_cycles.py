"""No import circles among this repository's modules (issue 38).

Every ``import`` and ``from ... import`` statement counts, wherever it stands: at module level,
inside a function, under ``if TYPE_CHECKING``. A lazy import hides a circle from Python's
import machinery, not from the design, so it is no way out: a shared piece moves down into a
module of its own instead. The graph is read statically with ``ast`` (nothing is imported), over
the environment's packages and the learning lab's, and each strongly connected component of
more than one module (Tarjan) is reported with one concrete circle through it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Package name -> the folder holding it.
PACKAGES = {
    "bs4_env": ROOT / "bs4_env",
    "beautiful_soup_env": ROOT / "beautiful_soup_env",
    "bs4_lab": ROOT / "lab" / "bs4_lab",
}

Graph = dict[str, set[str]]


def module_files() -> dict[str, Path]:
    """Dotted module name -> source file, for every ``.py`` file of the packages."""
    modules: dict[str, Path] = {}
    for package, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = [package, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _imported_names(tree: ast.AST, module: str, is_package: bool) -> Iterable[str]:
    """Every dotted name an import statement in ``tree`` may load (``from a import b`` yields
    both ``a.b`` and ``a``: ``b`` may be a submodule or a name defined in ``a``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                keep = len(base) - node.level + (1 if is_package else 0)
                if keep < 1:
                    raise ValueError(f"{module}: relative import beyond the top package")
                prefix = ".".join(base[:keep])
                source = f"{prefix}.{node.module}" if node.module else prefix
            else:
                source = node.module or ""
            yield source
            yield from (f"{source}.{alias.name}" for alias in node.names)


def import_graph(files: Mapping[str, Path]) -> Graph:
    """Module -> the modules of ``files`` it imports (the longest known prefix of each name)."""
    graph: Graph = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text("utf-8"), filename=str(path))
        targets: set[str] = set()
        for name in _imported_names(tree, module, path.name == "__init__.py"):
            parts = name.split(".")
            while parts and ".".join(parts) not in files:
                parts.pop()
            if parts and ".".join(parts) != module:
                targets.add(".".join(parts))
        graph[module] = targets
    return graph


def strongly_connected(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Tarjan's components (iterative, so deep packages cannot exhaust the recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return components


def one_cycle(graph: Mapping[str, set[str]], component: list[str]) -> list[str]:
    """A shortest circle through the component's first module (breadth-first inside it)."""
    members = set(component)
    start = component[0]
    parents: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & members):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parents[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if child not in parents:
                    parents[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"no circle through {start} in its own component")


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    return [one_cycle(graph, c) for c in strongly_connected(graph) if len(c) > 1]


def test_the_packages_import_no_circle() -> None:
    graph = import_graph(module_files())
    found = circles(graph)
    assert not found, "import circles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_every_package_is_read() -> None:
    """The walk sees each package and resolves imports inside and across them (it could
    otherwise pass by reading nothing)."""
    graph = import_graph(module_files())
    for package in PACKAGES:
        assert any(m.split(".")[0] == package for m in graph), package
    for package in ("beautiful_soup_env", "bs4_lab"):
        imported = {t for m in graph if m.split(".")[0] == package for t in graph[m]}
        assert any(t.startswith("bs4_env.") for t in imported), package


def test_the_environment_never_imports_the_lab() -> None:
    """The lab depends on the environment, never the reverse (``bs4-env learn`` reaches it
    through an entry point): the Hub wheel must work without it."""
    graph = import_graph(module_files())
    reaching = sorted(
        f"{m} -> {t}"
        for m in graph
        if m.split(".")[0] != "bs4_lab"
        for t in graph[m]
        if t.split(".")[0] == "bs4_lab"
    )
    assert not reaching


@pytest.mark.parametrize(
    ("sources", "expected"),
    [
        # A lazy import inside a function closes the circle as much as a top-level one.
        (
            {"p.a": "from p.b import thing\n", "p.b": "def f():\n    import p.a\n"},
            [["p.a", "p.b", "p.a"]],
        ),
        # Relative imports resolve against the module (and a package's own __init__).
        (
            {"p": "from .a import x\n", "p.a": "from . import b\n", "p.b": "from .. import p\n"},
            None,  # ``from .. import`` beyond the top package: refused below
        ),
        ({"p.a": "from p import b\n", "p.b": "import os\n"}, []),
        (
            {
                "p.a": "from .b import x\n",
                "p.b": "from p.c import y\n",
                "p.c": "if TYPE_CHECKING:\n    from p.a import z\n",
            },
            [["p.a", "p.b", "p.c", "p.a"]],
        ),
    ],
)
def test_the_walk_finds_circles(
    tmp_path: Path, sources: dict[str, str], expected: list[list[str]] | None
) -> None:
    files: dict[str, Path] = {}
    for module, text in sources.items():
        parts = module.split(".")
        is_package = any(other.startswith(f"{module}.") for other in sources)
        path = (
            tmp_path.joinpath(*parts, "__init__.py")
            if is_package
            else tmp_path.joinpath(*parts[:-1], f"{parts[-1]}.py")
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
        files[module] = path
    if expected is None:
        with pytest.raises(ValueError, match="beyond the top package"):
            import_graph(files)
        return
    assert circles(import_graph(files)) == expected
