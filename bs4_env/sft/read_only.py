"""Which host dry-run programs provably leave the parsed page they are given as they found it.

A dry run of our own generated plan code (``bs4_env.sft.plan.host_outcome``) may share one
parse of the page with the other dry runs of that page only if it cannot change the tree. The
check is syntactic and conservative: a program passes only if it names no method that changes
a bs4 tree or a container in place (a tag's ``attrs``, ``contents`` and attribute lists are
plain dicts and lists), stores or deletes no attribute or item, uses no augmented assignment
(``x += ...`` extends a list in place), no name that reaches objects indirectly (``getattr``,
``exec``...) and no private or dunder attribute. Many programs that are in fact read-only are
refused (any ``rows.append``); those parse their own page, as every dry run did before.
"""

from __future__ import annotations

import ast
import functools

# bs4's tree-changing methods (``Tag``, ``PageElement``, ``BeautifulSoup``; bs4 4.15) and the
# in-place methods of list, dict, set and deque, by name: the receiver's type is unknown here.
CHANGING_METHODS = frozenset(
    {
        # bs4
        "append",
        "clear",
        "decompose",
        "endData",
        "extend",
        "extract",
        "handle_data",
        "handle_endtag",
        "handle_starttag",
        "insert",
        "insert_after",
        "insert_before",
        "new_string",
        "new_tag",
        "object_was_parsed",
        "popTag",
        "pushTag",
        "replaceWith",
        "replaceWithChildren",
        "replace_with",
        "replace_with_children",
        "reset",
        "setup",
        "smooth",
        "unwrap",
        "wrap",
        # containers, and the operator module's item setters
        "add",
        "appendleft",
        "delitem",
        "difference_update",
        "discard",
        "extendleft",
        "intersection_update",
        "pop",
        "popitem",
        "popleft",
        "remove",
        "reverse",
        "rotate",
        "setdefault",
        "setitem",
        "sort",
        "symmetric_difference_update",
        "update",
    }
)
# Names through which a program could reach or change an object without naming the method.
INDIRECT_NAMES = frozenset(
    {
        "__import__",
        "compile",
        "ctypes",
        "delattr",
        "eval",
        "exec",
        "gc",
        "getattr",
        "globals",
        "heapify",
        "heappop",
        "heappush",
        "heappushpop",
        "heapreplace",
        "locals",
        "operator",
        "setattr",
        "shuffle",
        "vars",
    }
)


@functools.lru_cache(maxsize=4096)
def reads_only(code: str) -> bool:
    """True when ``code`` cannot change the objects it is given (see the module docstring);
    False for any doubt, including code that does not parse."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute | ast.Subscript) and not isinstance(node.ctx, ast.Load):
            return False
        if isinstance(node, ast.Attribute) and (
            node.attr in CHANGING_METHODS or node.attr.startswith("_")
        ):
            return False
        if isinstance(node, ast.Name) and node.id in INDIRECT_NAMES:
            return False
        if isinstance(node, ast.AugAssign):
            return False
    return True
