import json
import re

soup = make_soup()


def text(tag):
    return " ".join(tag.get_text().split())


def owner(tag):
    """The resource a property belongs to: its nearest enclosing typeof element."""
    return tag.find_parent(attrs={"typeof": True})


def own(resource, prop):
    return next(t for t in resource.find_all(property=prop) if owner(t) is resource)


def rdfa_value(tag):
    if tag.has_attr("content"):
        return tag["content"]
    if tag.name == "time" and tag.has_attr("datetime"):
        return tag["datetime"]
    return text(tag)


def resource_named(name):
    return next(owner(t) for t in soup.find_all(property="name") if text(t) == name and owner(t))


if "phone number of the store" in QUERY:
    store = resource_named(re.search(r'the store "([^"]+)"', QUERY).group(1))
    # The request asks for the number as displayed, so the text, not a content value.
    answer = text(own(store, "telephone"))
else:
    event = resource_named(re.search(r'of the event "([^"]+)"', QUERY).group(1))
    answer = {
        "startDate": rdfa_value(own(event, "startDate")),
        "location": rdfa_value(own(own(event, "location"), "name")),
        "performer": rdfa_value(own(own(event, "performer"), "name")),
    }
print(json.dumps({"status": "ok", "answer": answer}))
