"""Bind a reference program to one request: QUERY-derived values become literals.

Reference solutions parse QUERY generically (a regex for the product name, a test for which
request template this is). For one task those values are fixed, so a person writing code for
this request would type them: this module evaluates every expression that depends only on
QUERY (plus ``re``/``json`` and pure builtins), puts its value in the code as a literal, drops
the branches that this request never takes and inlines single-use constants. The result must
not mention QUERY at all, or binding fails loudly (``BindError``).
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

_PURE_NAMES = frozenset(
    {"re", "json", "str", "int", "float", "len", "tuple", "list", "sorted", "min", "max"}
)
_LITERAL_TYPES = (str, int, float, bool, type(None))


class BindError(ValueError):
    """The program still depends on QUERY after binding, or cannot be evaluated."""


def _is_literal(value: Any) -> bool:
    if isinstance(value, _LITERAL_TYPES):
        return True
    if isinstance(value, list | tuple):
        return all(_is_literal(v) for v in value)
    return False


def _bound_inside(node: ast.AST) -> set[str]:
    """Names that comprehensions and lambdas inside ``node`` bind themselves."""
    names: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            names.add(sub.id)
        elif isinstance(sub, ast.arg):
            names.add(sub.arg)
    return names


class _Folder(ast.NodeTransformer):
    def __init__(self, query: str) -> None:
        self.env: dict[str, Any] = {"QUERY": query, "re": re, "json": json}

    def _pure(self, node: ast.expr) -> bool:
        local = _bound_inside(node)
        loads = [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]
        depends = any(name in self.env and name not in _PURE_NAMES for name in loads)
        allowed = all(name in self.env or name in _PURE_NAMES or name in local for name in loads)
        return depends and allowed

    def _value(self, node: ast.expr) -> Any:
        code = compile(ast.Expression(node), "<bind>", "eval")
        namespace = {**self.env, "__builtins__": __builtins__}
        return eval(code, namespace)  # only QUERY-derived, pure expressions reach here

    def visit(self, node: ast.AST) -> Any:
        plain = isinstance(node, ast.Name | ast.Constant)
        if isinstance(node, ast.expr) and not plain and self._pure(node):
            value = self._value(node)
            if _is_literal(value):
                return ast.parse(repr(value), mode="eval").body
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            value = self.env.get(node.id)
            if node.id in self.env and node.id not in ("re", "json") and _is_literal(value):
                return ast.parse(repr(value), mode="eval").body
        return super().visit(node)

    def truth(self, test: ast.expr) -> ast.expr:
        """A branch test: a constant where this request decides it (walrus targets bound)."""
        if isinstance(test, ast.NamedExpr) and self._pure(test.value):
            value = self._value(test.value)
            self.env[test.target.id] = value
            return ast.Constant(bool(value))
        if self._pure(test):
            return ast.Constant(bool(self._value(test)))
        folded: ast.expr = self.visit(test)
        return folded

    def visit_IfExp(self, node: ast.IfExp) -> Any:
        test = self.truth(node.test)
        if isinstance(test, ast.Constant):
            return self.visit(node.body if test.value else node.orelse)
        node.test = test
        return self.generic_visit(node)

    def statements(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            out.extend(self._statement(stmt))
        return out

    def _statement(self, stmt: ast.stmt) -> list[ast.stmt]:
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and self._pure(stmt.value)
        ):
            # A QUERY-derived variable: its value is known now; uses get the literal.
            self.env[stmt.targets[0].id] = self._value(stmt.value)
            return []
        if isinstance(stmt, ast.If):
            test = self.truth(stmt.test)
            if isinstance(test, ast.Constant):
                return self.statements(stmt.body if test.value else stmt.orelse)
            stmt.test = test
            stmt.body = self.statements(stmt.body) or [ast.Pass()]
            stmt.orelse = self.statements(stmt.orelse)
            return [stmt]
        if isinstance(stmt, ast.FunctionDef):
            # Its parameters and locals shadow module-level names that came from QUERY.
            shadowed = _bound_inside(stmt) & set(self.env) - {"QUERY", "re", "json"}
            saved = {name: self.env.pop(name) for name in shadowed}
            stmt.body = self.statements(stmt.body)
            self.env.update(saved)
            return [stmt]
        if isinstance(stmt, ast.For | ast.While | ast.With | ast.Try):
            for field in ("body", "orelse", "finalbody"):
                if hasattr(stmt, field):
                    setattr(stmt, field, self.statements(getattr(stmt, field)))
            if isinstance(stmt, ast.For | ast.While):
                folded = self.visit(stmt.iter if isinstance(stmt, ast.For) else stmt.test)
                if isinstance(stmt, ast.For):
                    stmt.iter = folded
                else:
                    stmt.test = folded
            return [stmt]
        return [self.visit(stmt)]


def _drop_unused_imports(tree: ast.Module) -> None:
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    kept: list[ast.stmt] = []
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            stmt.names = [a for a in stmt.names if (a.asname or a.name) in used]
            if not stmt.names:
                continue
        kept.append(stmt)
    tree.body = kept


def bind_program(source: str, query: str) -> str:
    """The program with every QUERY-derived value written in as a literal.

    Raises ``BindError`` where some use of QUERY (or of a value derived from it that is no
    literal, such as a regex match object) is left.
    """
    tree = ast.parse(source)
    folder = _Folder(query)
    try:
        tree.body = folder.statements(tree.body)
    except Exception as error:  # an expression that fails for this request
        raise BindError(f"cannot evaluate a QUERY expression: {error!r}") from error
    _drop_unused_imports(tree)
    ast.fix_missing_locations(tree)
    # A name bound in the bound program (a parameter, a loop variable) is its own; any other
    # use of a QUERY-derived name would be a NameError in the sandbox.
    bound = _bound_inside(tree)
    derived = set(folder.env) - {"re", "json"} - (bound - {"QUERY"})
    left = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} & derived)
    if left:
        raise BindError(f"still depends on QUERY through {left}")
    return ast.unparse(tree)
