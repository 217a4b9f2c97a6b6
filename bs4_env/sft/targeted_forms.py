"""Targeted programs for form requests: find the form (or dropdown) the request names, read it.

The form is reached by the request's own words on this page: its id, its action, the heading
or legend above it; a dropdown by its name or the text of its label. Inside, the program reads
what was asked: each control's name and type, a dropdown's options, each label's own text with
the name of the control it labels, or the form's action, method and field names. The record
keys are the request's; which reading fits is decided by running each candidate here.
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

from bs4 import BeautifulSoup, Tag

from bs4_env.sft import locate
from bs4_env.sft.plan import Plan, soup_line
from bs4_env.sft.targeted_common import TEXT_HELPER, checked_plan, find_call, literals, titled
from bs4_env.tasks.model import Task

_CONTROLS = '["input", "select", "textarea"]'
_TITLES = ("h1", "h2", "h3", "h4", "legend")


def _form_refs(soup: BeautifulSoup, found: list[str]) -> Iterator[list[str]]:
    """Lines binding ``form`` to a form that a request literal names."""
    for lit in found:
        if soup.find("form", id=lit) is not None:
            yield [f'form = soup.find("form", id={lit!r})']
        if soup.find("form", action=lit) is not None:
            yield [f'form = soup.find("form", action={lit!r})']
        for tag in titled(soup, lit, _TITLES):
            if tag.find_parent("form") is not None:
                yield [f'form = {find_call(tag, lit)}.find_parent("form")']
            elif tag.find_next("form") is not None:
                yield [f"title = {find_call(tag, lit)}", 'form = title.find_next("form")']


def _select_refs(soup: BeautifulSoup, found: list[str]) -> Iterator[list[str]]:
    """Lines binding ``select`` to the dropdown named, or labelled, by a request literal."""
    for lit in found:
        if soup.find("select", attrs={"name": lit}) is not None:
            yield [f'select = soup.find("select", attrs={{"name": {lit!r}}})']
        for label in titled(soup, lit, ("label",)):
            if label.get("for"):
                yield [f"label = {find_call(label, lit)}", 'select = soup.find(id=label["for"])']
            elif label.find("select") is not None:
                yield [f'select = {find_call(label, lit)}.find_parent("label").find("select")']


def _names_loop(var: str, kind: bool, el: str) -> list[str]:
    """Loop (``el`` over the form's named controls) that fills ``var``, submit buttons left out."""
    lines = [
        f"{var} = []",
        f"for {el} in form.find_all({_CONTROLS}):",
        f'    if not {el}.get("name"):',
        "        continue",
    ]
    if kind:
        return [
            *lines,
            f'    kind = {el}.get("type", "text").lower() if {el}.name == "input" else {el}.name',
            '    if kind == "submit":',
            "        continue",
        ]
    return [
        *lines,
        f'    if {el}.name == "input" and {el}.get("type", "text").lower() == "submit":',
        "        continue",
    ]


def _fields_body(keys: list[str], el: str) -> list[str] | None:
    if sorted(keys) != ["name", "type"]:
        return None
    read = {"name": f'{el}["name"]', "type": "kind"}
    row = ", ".join(f"{k!r}: {read[k]}" for k in keys)
    return [*_names_loop("answer", True, el), f"    answer.append({{{row}}})"]


def _options_body(keys: list[str], el: str) -> list[str] | None:
    if sorted(keys) != ["text", "value"]:
        return None
    row = ", ".join(f"{k!r}: {'label' if k == 'text' else 'value'}" for k in keys)
    return [
        "answer = []",
        f'for {el} in select.find_all("option"):',
        f"    label = text({el})",
        f'    value = {el}.get("value", label)',
        '    if value == "":',
        "        continue",
        f"    answer.append({{{row}}})",
    ]


def _marker(soup: BeautifulSoup) -> str | None:
    """A selector for the required-field marker inside labels (``span.required``), if any."""
    for label in soup.find_all("label"):
        for child in label.find_all(True):
            if child.get_text().strip() == "*" and child.get("class"):
                return locate.simple_selector(child, all_classes=False)
    return None


def _labels_body(soup: BeautifulSoup) -> list[str]:
    junk = ", ".join(["select", "textarea", "option", *filter(None, [_marker(soup)])])
    return [
        "answer = {}",
        'for label in form.find_all("label"):',
        '    if label.get("for"):',
        '        control = soup.find(id=label["for"])',
        "    else:",
        f"        control = label.find({_CONTROLS})",
        f"    for extra in label.select({junk!r}):",
        "        extra.extract()",
        '    answer[text(label).rstrip("*").strip()] = control.get("name")',
    ]


def _describe_body(form: Tag, task: Task, el: str) -> list[str] | None:
    """``{"action": ..., "method": ..., "fields": [...]}``: each key read off the form."""
    parts = []
    for key, value in dict(task.truth).items():
        own = form.get(key)
        if isinstance(value, list):
            parts.append(f"    {key!r}: names,")
        elif isinstance(value, str) and own == value:
            parts.append(f"    {key!r}: form.get({key!r}),")
        elif isinstance(value, str) and str(own or "get").lower() == value:
            # Written otherwise (or left out: a form's default method) on this page.
            parts.append(f'    {key!r}: form.get({key!r}, "get").lower(),')
        else:
            return None
    names = [*_names_loop("names", False, el), f'    names.append({el}["name"])']
    return [*names, "answer = {", *parts, "}"]


def _bodies(task: Task, soup: BeautifulSoup, form: Tag | None, rng: Random) -> list[list[str]]:
    truth = task.truth
    el = rng.choice(("control", "el", "tag"))
    found: list[list[str] | None] = []
    if isinstance(truth, list) and truth and all(isinstance(r, dict) for r in truth):
        keys = list(truth[0])
        found += [_fields_body(keys, el), _options_body(keys, rng.choice(("option", "opt")))]
    elif isinstance(truth, dict) and truth:
        if all(isinstance(v, str) for v in truth.values()):
            found.append(_labels_body(soup))
        if form is not None:
            found.append(_describe_body(form, task, el))
    return [body for body in found if body is not None]


def _bound(task: Task, lines: list[str]) -> Tag | None:
    """The form the lines bind, found here the same way (for reading its attributes)."""
    # Its own tree: the lines run here are plan code, and ``locate.parse``'s tree is shared.
    namespace: dict[str, object] = {"soup": BeautifulSoup(task.html, "html.parser")}
    try:
        exec("\n".join(lines), namespace)
    except Exception:
        return None
    form = namespace.get("form")
    return form if isinstance(form, Tag) else None


def write_form(task: Task, rng: Random, parser: str) -> Plan | None:
    """A form-reading plan, or None where no form or dropdown the request names fits."""
    if task.is_multipage or not task.solvable or not isinstance(task.truth, list | dict):
        return None
    soup = locate.parse(task.html)
    found = literals(task.query)
    refs = [*_form_refs(soup, found), *_select_refs(soup, found)]
    for lines in refs[:6]:
        head = ["import json", soup_line(parser), *lines]
        inspect = (
            [f"for control in form.find_all({_CONTROLS} + ['label']):", "    print(control)"]
            if lines[-1].startswith("form")
            else ["print(select)"]
        )
        for body in _bodies(task, soup, _bound(task, lines), rng):
            if any("text(" in line for line in body):
                body = [TEXT_HELPER, *body]
            show = ["print(json.dumps(answer, ensure_ascii=False))"]
            plan = checked_plan(task, head, [*body, *show], inspect, rng, ("form",))
            if plan is not None:
                return plan
    return None
