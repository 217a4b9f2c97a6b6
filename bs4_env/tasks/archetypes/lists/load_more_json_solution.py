import json
import re

soup = make_soup()


def text(tag):
    return " ".join(tag.get_text().split())


def json_objects():
    """Every JSON object inside the page's JSON script elements."""
    for script in soup.find_all("script", type="application/json"):
        stack = [json.loads(script.string)]
        while stack:
            value = stack.pop()
            if isinstance(value, dict):
                yield value
                stack.extend(value.values())
            elif isinstance(value, list):
                stack.extend(value)


section = re.search(r'in the "([^"]+)" listing', QUERY).group(1)
heading = next(h for h in soup.find_all(["h2", "h3"]) if text(h) == section)
block = heading.parent
# Hidden cards count too: the request asks for every item, not only those shown.
names = [text(tag) for tag in block.select(".item-name")]
count = re.search(r"Showing \d+ of (\d+) items", text(block))
total = int(count.group(1)) if count else len(names)
if len(names) < total:
    state = next((o for o in json_objects() if o.get("title") == section), None)
    if state is not None:
        names = [item["name"] for item in state["items"]]

if len(names) == total:
    print(json.dumps({"status": "ok", "answer": names}))
else:
    trigger = block.find(attrs={"data-next-page": True})
    evidence = (
        f'<{trigger.name} id="{trigger["id"]}" data-next-page="{trigger["data-next-page"]}"> '
        f"loads the other {total - len(names)} items by XHR"
    )
    limit = {"reason": "infinite_scroll", "evidence": evidence}
    print(json.dumps({"status": "limit", "limit": limit}))
