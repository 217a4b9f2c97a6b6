"""List and record normalisers: properties over seeded random labels (a changed, dropped,
added or moved item; a changed, missing or extra field), blank and duplicate items, caps,
hostile answers, bad specs and labels refused at load, and binary rewards through the grader."""

from __future__ import annotations

import json
import math
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bs4_env.episode.engine import Episode
from bs4_env.pages.accepted import AcceptedAnswers, default_answer_schema
from bs4_env.pages.normalizers import NormalizationError, Normalizer, parse_normalization
from bs4_env.pages.pageset import load_page_set
from bs4_env.pages.rows import PageRowError
from bs4_env.pages.structured_normalizers import MAX_DEPTH, MAX_ITEMS, MAX_SIZE, within_caps
from bs4_env.sandbox.base import Executor

CASES = 300
WORDS = ("salt", "Pepper", "2 eggs", "1 ½ cups flour", "olive oil", "crème fraîche", "Basil")


def rule(spec: object) -> Normalizer:
    return parse_normalization(spec, "https://r.example/pie", "https://page.example/")


def listed(item: object = "text", ordered: bool = True) -> Normalizer:
    return rule({"kind": "list", "item": item, "ordered": ordered})


def random_label(rng: Random) -> list[str]:
    """1 to 12 items, some repeated."""
    items = [f"{rng.choice(WORDS)} {rng.randrange(40)}" for _ in range(rng.randint(1, 12))]
    if len(items) > 1 and rng.random() < 0.3:
        items[rng.randrange(len(items))] = items[0]
    return items


def respaced(text: str, rng: Random) -> str:
    return rng.choice(["", " ", "\n "]) + text.replace(" ", rng.choice([" ", "  ", "\t"]))


def test_ordered_list_property_one_change_drop_add_or_swap_is_wrong() -> None:
    rng = Random(37)
    for _ in range(CASES):
        label = random_label(rng)
        ordered, unordered = listed(ordered=True), listed(ordered=False)
        blanks = [respaced(item, rng) for item in label]
        blanks.insert(rng.randrange(len(blanks) + 1), rng.choice(["", "  ", "\n"]))
        for right in (label, blanks):
            assert ordered.same(right, label) and unordered.same(right, label), right
        i = rng.randrange(len(label))
        changed = [*label[:i], label[i] + "x", *label[i + 1 :]]
        dropped = label[:i] + label[i + 1 :]
        added = [*label[:i], rng.choice([label[i], "salt 99"]), *label[i:]]
        for wrong in (changed, dropped, added, [*label, label[-1]]):
            assert not ordered.same(wrong, label) and not unordered.same(wrong, label), wrong
        distinct = [j for j in range(len(label)) if label[j] != label[i]]
        if distinct:
            j = rng.choice(distinct)
            swapped = list(label)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            assert not ordered.same(swapped, label) and unordered.same(swapped, label)
        shuffled = rng.sample(label, len(label))
        assert unordered.same(shuffled, label)
        assert ordered.same(shuffled, label) == (shuffled == label)


def test_duplicates_count_in_unordered_lists() -> None:
    unordered = listed(ordered=False)
    assert unordered.same(["salt", "pepper", "salt"], ["salt", "salt", "pepper"])
    assert not unordered.same(["salt", "pepper"], ["salt", "salt", "pepper"])
    assert not unordered.same(["salt", "salt", "pepper"], ["salt", "pepper"])
    assert not unordered.same(["salt", "pepper", "pepper"], ["salt", "salt", "pepper"])


def test_a_longer_list_never_scores_better_than_the_right_one() -> None:
    """Any list that scores right has, blank items aside, exactly the label's length; every
    superset of the label (padding, repeats, near-misses) scores wrong."""
    rng = Random(5)
    for _ in range(CASES):
        label = random_label(rng)
        for ordered in (True, False):
            rule_ = listed({"kind": "text", "casefold": True}, ordered)
            pool = [*label, *(item.upper() for item in label), "salt 1", "", " ", "pepper"]
            for _ in range(10):
                answer = [rng.choice(pool) for _ in range(rng.randint(0, 2 * len(label)))]
                if rule_.same(answer, label):
                    assert len([a for a in answer if a.strip()]) == len(label), answer
                extra = list(label)
                extra.insert(rng.randrange(len(extra) + 1), rng.choice(pool[:-3] or ["x"]))
                assert not rule_.same(extra, label), extra


def test_items_use_their_own_rule() -> None:
    prices = listed({"kind": "decimal", "decimal_separator": ","})
    assert prices.same(["1,50 €", 2, "3"], ["1.5", "2.00", 3])
    assert not prices.same(["1,50", "2"], ["1.5", "2.00", "3"])
    assert not prices.same(["1,50", "two", "3"], ["1.5", "2", "3"])
    dates = listed("date", ordered=False)
    assert dates.same(["2020-01-02T10:00:00Z", "2019-05-01"], ["2019-05-01", "2020-01-02"])
    folded = listed({"kind": "text", "casefold": True})
    assert folded.same(["SALT", "  Pepper "], ["salt", "pepper"])
    assert not listed("text").same(["SALT"], ["salt"])
    assert not listed("text").same([5], ["5"]) and not listed("text").same("salt", ["salt"])
    assert not listed("text").same('["salt"]', ["salt"])  # a string holding a list is no list
    assert not listed("text").same(["salt", None], ["salt"])


RECIPE = {
    "kind": "record",
    "fields": {
        "title": "text",
        "author": {"kind": "text", "casefold": True},
        "total_time": "decimal",
        "ingredients": {"kind": "list", "item": "text", "ordered": True},
    },
}


def random_recipe(rng: Random) -> dict[str, Any]:
    return {
        "title": f"{rng.choice(WORDS)} pie {rng.randrange(99)}",
        "author": rng.choice(["Ann Lee", "Bo Chan", "Cy Ray"]),
        "total_time": str(rng.randrange(5, 300)),
        "ingredients": random_label(rng),
    }


def test_record_property_each_field_counts_and_only_the_named_keys() -> None:
    rng = Random(41)
    record = rule(RECIPE)
    for _ in range(CASES):
        label = random_recipe(rng)
        keys = rng.sample(list(label), len(label))
        reordered = {key: label[key] for key in keys}
        reordered["author"] = label["author"].upper()
        reordered["total_time"] = int(label["total_time"])
        assert record.same(reordered, label)
        perturbed = {
            "title": label["title"] + " 2",
            "author": label["author"] + "e",
            "total_time": str(int(label["total_time"]) + 1),
            "ingredients": label["ingredients"][:-1] or ["x"],
        }
        for name, value in perturbed.items():
            assert not record.same({**label, name: value}, label), name
            assert not record.same({**label, name: None}, label), name
            assert not record.same({k: v for k, v in label.items() if k != name}, label), name
        assert not record.same({**label, "rating": "5"}, label)
        assert not record.same({**label, "Title": label["title"]}, label)
        assert not record.same([label], label) and not record.same(json.dumps(label), label)


STEP = {"kind": "record", "fields": {"name": "text", "minutes": "decimal"}}


def test_a_list_of_records() -> None:
    ordered = listed(STEP)
    label = [{"name": "mix", "minutes": "5"}, {"name": "bake", "minutes": "40"}]
    assert ordered.same(
        [{"minutes": 5, "name": " mix"}, "", {"name": "bake", "minutes": "40"}], label
    )
    assert not ordered.same(label[::-1], label) and listed(STEP, False).same(label[::-1], label)
    assert not ordered.same([label[0], {"name": "bake", "minutes": "41"}], label)
    assert not ordered.same([label[0], {}, label[1]], label)


def test_any_of_keeps_working_for_lists() -> None:
    accepted = AcceptedAnswers((["salt", "pepper"], ["salt", "black pepper"]), listed())
    assert accepted.matches(["salt", "pepper"]) and accepted.matches([" salt", "black pepper"])
    assert not accepted.matches(["salt"]) and not accepted.matches(None)


def hostile_answers() -> list[Any]:
    deep: Any = ["salt"]
    for _ in range(5_000):
        deep = [deep]
    wide: Any = {str(i): [i, None, {"x": math.nan}] for i in range(3_000)}
    return [
        deep, wide, None, True, 0, math.nan, math.inf, -math.inf, 1e308, 10**80, "", "salt",
        [math.nan], [math.inf, "salt"], [True, False], [None], [[]], [{}], [{"title": deep}],
        ["salt"] * (MAX_ITEMS + 1), [""] * (10 * MAX_ITEMS), ["x" * (MAX_SIZE + 1)],
        ["\ud800", "\x00", "\u0301"], [{1: "a"}], {"title": math.nan}, {(): 1},
        {"title": ["a"], "author": {"b": 1}, "total_time": [], "ingredients": "salt"},
        {"title": "t", "author": "a", "total_time": "1", "ingredients": deep},
    ]  # fmt: skip


def test_hostile_answers_never_raise() -> None:
    rules = [
        AcceptedAnswers((["salt"], ["salt", "pepper"]), listed()),
        AcceptedAnswers((["1.5", "2"],), listed("decimal", ordered=False)),
        AcceptedAnswers((["2019-08-02"],), listed("date")),
        AcceptedAnswers((["/a"],), listed("url", ordered=False)),
        AcceptedAnswers(([{"a": 1}],), listed("exact")),
        AcceptedAnswers(([{"name": "s", "minutes": "1"}],), listed(STEP)),
        AcceptedAnswers((random_recipe(Random(1)),), rule(RECIPE)),
    ]  # fmt: skip
    for answer in hostile_answers():
        for accepted in rules:
            assert accepted.matches(answer) is False


def test_caps_count_values_and_characters_and_depth_exactly() -> None:
    nested: Any = "x"
    for _ in range(MAX_DEPTH):
        nested = [nested]
    for fits, over in (
        ("x" * (MAX_SIZE - 1), "x" * MAX_SIZE),  # the answer itself is one value
        (["x"] * (MAX_SIZE // 2 - 1), ["x"] * (MAX_SIZE // 2)),  # each item: a value, a char
        ({"k" * (MAX_SIZE - 2): 1}, {"k" * (MAX_SIZE - 1): 1}),  # keys count
        (nested, [nested]),
    ):
        assert within_caps(fits) and not within_caps(over)


def test_caps_make_an_answer_wrong_even_when_it_would_match() -> None:
    label = ["salt", "pepper"]
    assert listed().same(["salt", "pepper", *[""] * (MAX_ITEMS - 2)], label)
    assert not listed().same(["salt", "pepper", *[""] * (MAX_ITEMS - 1)], label)
    assert not listed().same(["salt", "pepper", " " * MAX_SIZE], label)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"kind": "list", "item": "text"}, "normaliser 'list' needs the option 'ordered'"),
        ({"kind": "list", "ordered": True}, "normaliser 'list' needs the option 'item'"),
        ({"kind": "list", "item": "text", "ordered": 1}, "'ordered' of 'list' must be bool"),
        ({"kind": "list", "item": "fuzzy", "ordered": True}, "unknown normaliser 'fuzzy'.*'list'"),
        ({"kind": "list", "item": "text", "ordered": True, "sep": ","}, "has no option 'sep'"),
        ({"kind": "record", "fields": {}}, "'fields' of 'record' must be a non-empty object"),
        ({"kind": "record", "fields": {"any_of": "text"}}, "may not be named 'any_of'"),
        ({"kind": "record", "fields": {" ": "text"}}, "may not be named ' '"),
        ({"kind": "record", "fields": {"t": "fuzzy"}}, "record field 't': unknown normaliser"),
        ({"kind": "record", "fields": {"t": {"kind": "list", "item": {"kind": "list",
          "item": {"kind": "list", "item": "text", "ordered": True}, "ordered": True},
          "ordered": True}}}, "nest at most 3 deep"),
    ],
)  # fmt: skip
def test_bad_structured_specs_are_refused(spec: object, message: str) -> None:
    with pytest.raises(NormalizationError, match=message):
        rule(spec)


def test_default_answer_shapes_spell_out_lists_and_records() -> None:
    assert default_answer_schema(listed()) == (
        "a JSON list, in the page's order, each item a string, "
        "or null when the page does not give it"
    )
    shape = default_answer_schema(rule(RECIPE))
    assert shape.startswith('a JSON object with exactly these keys: {"title": a string; ')
    assert '"ingredients": a JSON list, in the page\'s order, each item a string}' in shape
    assert default_answer_schema("decimal") == default_answer_schema(rule("decimal"))


# --- through the rows loader and the grader ------------------------------------------------

PAGE = "<html><body><h1>Pie</h1><ul><li>salt</li><li>pepper</li></ul></body></html>"


def write(folder: Path, rows: list[dict[str, Any]]) -> Path:
    path = folder / "rows.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def recipe_rows() -> list[dict[str, Any]]:
    label = {"title": "Pie", "author": "Ann", "total_time": "45", "ingredients": ["salt"]}
    return [
        {"id": "pie/ingredients", "request": "The ingredients.", "html": PAGE,
         "answer": ["salt", "pepper"], "normalization": {"kind": "list", "item": "text",
                                                         "ordered": True}},
        {"id": "pie/card", "request": "The recipe card.", "html": PAGE, "answer": label,
         "normalization": RECIPE},
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("row", "answer", "message"),
    [
        (0, "salt", "accepted value 'salt' is not a JSON list"),
        (0, [], "accepted value \\[\\] is an empty list"),
        (0, ["salt", " "], "has a blank item 2 \\(' '\\): leave blank items out"),
        (0, ["salt", None], "has an item 2 \\(None\\) that is not a 'text' value"),
        (0, ["x"] * (MAX_ITEMS + 1), "has 2,001 items, over the cap of 2,000"),
        (0, ["x" * 9_000, "y" * 9_000], "over the grader's cap of 16,000"),
        (1, {"title": "Pie"}, "has the keys \\['title'\\]; the record's are \\['title', "),
        (1, {"title": "Pie", "author": "A", "total_time": "soon", "ingredients": ["s"]},
         "has a field 'total_time' \\('soon'\\) that is not a 'decimal' value"),
        (1, {"title": "Pie", "author": "A", "total_time": "1", "ingredients": ["s", ""]},
         "has a field 'ingredients' .* that has a blank item 2"),
    ],
)  # fmt: skip
def test_bad_labels_fail_at_load_naming_row_and_line(
    tmp_path: Path, row: int, answer: Any, message: str
) -> None:
    rows = recipe_rows()
    rows[row]["answer"] = answer
    row_id = rows[row]["id"]
    with pytest.raises(PageRowError, match=rf"row '{row_id}' \(line {row + 1}\): .*{message}"):
        load_page_set(write(tmp_path, rows), "rows", "pages", 1_000_000)


class _NoRuns(Executor):
    async def run(self, request: Any) -> Any:
        raise AssertionError("grading runs no code")


def test_rewards_stay_binary_through_the_grader(tmp_path: Path) -> None:
    """Near-misses of every kind score 0.0, never a fraction; right answers 1.0."""
    pages = load_page_set(write(tmp_path, recipe_rows()), "rows", "pages", 1_000_000)
    rng = Random(9)
    for index, loaded in enumerate(pages.rows):
        task = pages.task(index)
        label = loaded.row.accepted[0]
        assert "JSON" in task.answer_schema
        for _ in range(60):
            answer = json.loads(json.dumps(label))
            if isinstance(answer, list):
                answer = rng.choice([answer[:1], [*answer, "salt"], answer[::-1], answer])
            else:
                key = rng.choice([*answer, "extra"])
                answer[key] = rng.choice([answer.get(key), "x", None, ["salt", "x"]])
            episode = Episode(task, _NoRuns())
            episode.state.soup_runs = episode.state.tool_calls = 1
            reward = episode.finish(json.dumps({"status": "ok", "answer": answer})).reward
            assert reward == float(loaded.normalizer.same(answer, label)), answer
            assert reward in (0.0, 1.0)
