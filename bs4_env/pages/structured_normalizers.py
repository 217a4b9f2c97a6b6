"""List and record answers: when a list or an object a model sends equals a row's label.

* ``list``, ``{"kind": "list", "item": <rule>, "ordered": true|false}``: the answer must be a
  JSON list. String items that are empty or only whitespace are dropped first (they carry no
  item, so keeping an empty line costs nothing and gains nothing); every other item must be a
  value of the ``item`` rule, else the list is wrong. With ``ordered: true`` the list is right
  when the remaining items are exactly as many as the label's and the i-th matches the label's
  i-th. With ``ordered: false`` it is right when they match the label's items one to one in
  some order: the same items, each as many times as in the label (two "salt" items are right
  only when the label has two). Nothing else is right: one wrong, missing or extra item makes
  the whole list wrong, so there is no partial credit and a longer list never scores better
  than the right one. A label is a non-empty JSON list with no blank item.
* ``record``, ``{"kind": "record", "fields": {"<name>": <rule>, ...}}``: the answer must be a
  JSON object with exactly the named keys (spelled as given, case included), and each field's
  value must match under that field's own rule. A missing key, a null field or an extra key
  makes it wrong: the prompt names the keys, and an extra key answers a question not asked (as
  an extra item does in a list). Key order does not count. A label is such an object.

``item`` and field rules are any kind (a list of records, a record holding a list), nested at
most ``MAX_RULE_DEPTH`` deep. Canonical forms never raise and their work is bounded: an answer
over the caps below is wrong (a final answer is at most 16,000 characters anyway).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping
from types import MappingProxyType

from bs4_env.pages.rule import Canonical, NormalizationError, Normalizer, clipped_repr
from bs4_env.tasks.model import JSONValue

MAX_ITEMS = 2_000
"""Most items a list answer (or label) may have."""
MAX_SIZE = 200_000
"""Most values (items, fields, the answer itself) plus string characters in one answer."""
MAX_DEPTH = 16
"""Deepest nesting of lists and objects in one answer."""
MAX_RULE_DEPTH = 3
"""Most list and record rules nested in one another."""
RESERVED_FIELDS = ("any_of",)
"""Field names a record may not have: ``{"any_of": [...]}`` means several accepted labels."""

ParsePart = Callable[[object], Normalizer]


def within_caps(value: JSONValue) -> bool:
    """Whether ``value`` holds at most ``MAX_SIZE`` values and string characters (keys
    included) and nests at most ``MAX_DEPTH`` deep; the work is bounded by the caps."""
    stack: list[tuple[object, int]] = [(value, 0)]
    size = 1
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(item, str):
            size += len(item)
        elif isinstance(item, list | dict):
            size += len(item)  # each child's own count, taken before looking at any of them
            if size > MAX_SIZE:
                return False
            if isinstance(item, dict):
                size += sum(len(key) for key in item if isinstance(key, str))
                stack.extend((child, depth + 1) for child in item.values())
            else:
                stack.extend((child, depth + 1) for child in item)
        if size > MAX_SIZE:
            return False
    return True


def blank(item: JSONValue) -> bool:
    """A string item with nothing but whitespace: no item at all."""
    return isinstance(item, str) and not item.strip()


def _options(kind: str, spec: Mapping[str, object], names: tuple[str, ...]) -> None:
    given = set(spec) - {"kind"}
    unknown = sorted(given - set(names))
    if unknown:
        raise NormalizationError(
            f"normaliser {kind!r} has no option {unknown[0]!r}; valid: {list(names)}"
        )
    missing = [key for key in names if key not in given]
    if missing:
        raise NormalizationError(f"normaliser {kind!r} needs the option {missing[0]!r}")


# --- list ---------------------------------------------------------------------------------


def _collected(found: list[Hashable], ordered: bool) -> Hashable:
    return tuple(found) if ordered else frozenset(Counter(found).items())


def _list_problem(item: Normalizer) -> Callable[[JSONValue], str | None]:
    def problem(label: JSONValue) -> str | None:
        if not isinstance(label, list):
            return "is not a JSON list"
        if not label:
            return 'is an empty list (the label for "not on this page" is null)'
        if len(label) > MAX_ITEMS:
            return f"has {len(label):,} items, over the cap of {MAX_ITEMS:,}"
        if not within_caps(label):
            return f"is over {MAX_SIZE:,} characters and values or {MAX_DEPTH} levels deep"
        for index, value in enumerate(label, start=1):
            if blank(value):
                return f"has a blank item {index} ({value!r}): leave blank items out"
            issue = item.label_problem(value)
            if issue is not None:
                return f"has an item {index} ({clipped_repr(value)}) that {issue}"
        return None

    return problem


def parse_list(spec: Mapping[str, object], parse_part: ParsePart) -> Normalizer:
    """``{"kind": "list", "item": <rule>, "ordered": bool}`` as a rule (module docstring)."""
    _options("list", spec, ("item", "ordered"))
    ordered = spec["ordered"]
    if not isinstance(ordered, bool):
        raise NormalizationError("option 'ordered' of 'list' must be bool")
    item = parse_part(spec["item"])
    problem = _list_problem(item)

    def canonical(value: JSONValue) -> Hashable | None:
        if not isinstance(value, list) or len(value) > MAX_ITEMS or not within_caps(value):
            return None
        found = []
        for entry in value:
            if blank(entry):
                continue
            form = item.canonical(entry)
            if form is None:
                return None
            found.append(form)
        return _collected(found, ordered)

    def label_canonical(value: JSONValue) -> Hashable | None:
        if problem(value) is not None or not isinstance(value, list):
            return None
        forms = [item.label_canonical(entry) for entry in value]
        return _collected([form for form in forms if form is not None], ordered)

    options = MappingProxyType({"item": spec["item"], "ordered": ordered})
    parts = MappingProxyType({"item": item})
    return Normalizer("list", canonical, options, label_canonical, parts, problem)


# --- record -------------------------------------------------------------------------------


def _record_form(fields: Mapping[str, Normalizer], label: bool) -> Canonical:
    def canonical(value: JSONValue) -> Hashable | None:
        if not isinstance(value, dict) or len(value) != len(fields) or set(value) != set(fields):
            return None
        if not within_caps(value):
            return None
        forms = []
        for name, rule in fields.items():
            form = (rule.label_canonical if label else rule.canonical)(value[name])
            if form is None:
                return None
            forms.append(form)
        return tuple(forms)

    return canonical


def _record_problem(fields: Mapping[str, Normalizer]) -> Callable[[JSONValue], str | None]:
    def problem(label: JSONValue) -> str | None:
        if not isinstance(label, dict):
            return "is not a JSON object"
        missing = [name for name in fields if name not in label]
        extra = sorted(str(name) for name in label if name not in fields)
        if missing or extra:
            return f"has the keys {sorted(label)}; the record's are {list(fields)}"
        if not within_caps(label):
            return f"is over {MAX_SIZE:,} characters and values or {MAX_DEPTH} levels deep"
        for name, rule in fields.items():
            issue = rule.label_problem(label[name])
            if issue is not None:
                return f"has a field {name!r} ({clipped_repr(label[name])}) that {issue}"
        return None

    return problem


def parse_record(spec: Mapping[str, object], parse_part: ParsePart) -> Normalizer:
    """``{"kind": "record", "fields": {name: <rule>, ...}}`` as a rule (module docstring)."""
    _options("record", spec, ("fields",))
    given = spec["fields"]
    if not isinstance(given, dict) or not given:
        raise NormalizationError("option 'fields' of 'record' must be a non-empty object")
    fields: dict[str, Normalizer] = {}
    for name, part in given.items():
        if not isinstance(name, str) or not name.strip() or name in RESERVED_FIELDS:
            raise NormalizationError(f"a record field may not be named {name!r}")
        try:
            fields[name] = parse_part(part)
        except NormalizationError as error:
            raise NormalizationError(f"record field {name!r}: {error}") from None
    frozen = MappingProxyType(fields)
    return Normalizer(
        "record",
        _record_form(frozen, label=False),
        MappingProxyType({"fields": given}),
        _record_form(frozen, label=True),
        frozen,
        _record_problem(frozen),
    )
