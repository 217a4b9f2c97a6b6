# ruff: noqa: F821
# The generic reference program of the recipe families (run in the sandbox, where HTML, QUERY
# and make_soup are given; ``FAMILY`` is set by a first line the policy adds). It knows no
# site: the schema.org Recipe in the page's JSON-LD first, then microdata (itemprop), then
# visible elements whose class names say what they hold. It prints the final JSON answer.
import html
import json
import re

soup = make_soup("lxml")
SPACE = re.compile(r"\s+")
TAGS = re.compile(r"<[^>]*>")
DURATION = re.compile(r"P(?:(\d+)D)?T?(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?", re.I)


def clean(text):
    if text is None:
        return ""
    return SPACE.sub(" ", html.unescape(TAGS.sub(" ", str(text)))).strip()


def walk(value, found):
    if isinstance(value, dict):
        found.append(value)
        for item in value.values():
            walk(item, found)
    elif isinstance(value, list):
        for item in value:
            walk(item, found)


def recipe():
    """The page's schema.org Recipe object (the first one), or {}."""
    found = []
    for script in soup.find_all("script", type=re.compile("ld\\+json", re.I)):
        try:
            walk(json.loads(script.string or "", strict=False), found)
        except ValueError:
            continue
    for obj in found:
        kind = obj.get("@type")
        kinds = kind if isinstance(kind, list) else [kind]
        if "Recipe" in kinds:
            return obj
    return {}


RECIPE = recipe()


def itemprops(name):
    tags = soup.find_all(attrs={"itemprop": re.compile(f"^{name}$", re.I)})
    return [clean(t.get("content") or t.get_text(" ", strip=True)) for t in tags]


def by_class(word, tag=None):
    pattern = re.compile(word, re.I)
    return [clean(t.get_text(" ", strip=True)) for t in soup.find_all(tag, class_=pattern)]


def name_of(value):
    if isinstance(value, list):
        return name_of(value[0]) if value else ""
    if isinstance(value, dict):
        return clean(value.get("name"))
    return clean(value)


def title():
    if RECIPE.get("name"):
        return clean(RECIPE["name"])
    heading = soup.find("h1")
    return clean(heading.get_text(" ", strip=True)) if heading else None


def author():
    found = name_of(RECIPE.get("author"))
    if found:
        return found
    tag = soup.find("meta", attrs={"name": re.compile("^author$", re.I)})
    return clean(tag.get("content")) if tag else None


def ingredients():
    found = [clean(item) for item in RECIPE.get("recipeIngredient") or []]
    found = found or itemprops("recipeIngredient") or itemprops("ingredients")
    found = found or by_class("ingredient", "li")
    return [item for item in found if item] or None


def steps_of(value):
    if isinstance(value, str):
        return [clean(line) for line in re.split(r"\n+", value)]
    if isinstance(value, list):
        return [step for item in value for step in steps_of(item)]
    if isinstance(value, dict):
        if "itemListElement" in value:
            return steps_of(value["itemListElement"])
        return [clean(value.get("text") or value.get("name"))]
    return []


def instructions():
    found = [step for step in steps_of(RECIPE.get("recipeInstructions")) if step]
    found = found or itemprops("recipeInstructions") or by_class("instruction", "li")
    return found or None


def number(text):
    match = re.search(r"\d+(?:\.\d+)?", str(text or ""))
    return match.group(0) if match else None


def yields():
    value = RECIPE.get("recipeYield")
    if isinstance(value, list):
        value = next((v for v in value if number(v)), None)
    return number(value) or number(next(iter(itemprops("recipeYield")), ""))


def minutes(value):
    match = DURATION.fullmatch(str(value or "").strip())
    if not match or not any(match.groups()):
        return None
    days, hours, mins = (float(part or 0) for part in match.groups())
    total = days * 1440 + hours * 60 + mins
    return str(int(total)) if total == int(total) else str(total)


def total_time():
    found = minutes(RECIPE.get("totalTime"))
    if found is None:
        parts = [minutes(RECIPE.get(key)) for key in ("prepTime", "cookTime")]
        if any(parts):
            found = str(sum(int(float(part or 0)) for part in parts))
    return found


def rating():
    value = RECIPE.get("aggregateRating")
    value = value.get("ratingValue") if isinstance(value, dict) else None
    value = value or next(iter(itemprops("ratingValue")), None)
    found = number(value)
    return str(round(float(found), 2)).removesuffix(".0") if found else None


def card():
    return {"title": title(), "author": author(), "total_minutes": total_time(),
            "rating": rating()}  # fmt: skip


FACTS = {
    "recipe_title": title,
    "recipe_author": author,
    "recipe_ingredients": ingredients,
    "recipe_instructions": instructions,
    "recipe_yields": yields,
    "recipe_total_time": total_time,
    "recipe_rating": rating,
    "recipe_card": card,
}
print(json.dumps({"status": "ok", "answer": FACTS[FAMILY]()}, ensure_ascii=False))
