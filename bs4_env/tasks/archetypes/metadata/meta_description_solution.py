import json

soup = make_soup()
# name= as a keyword would mean the tag name, so the attribute goes through attrs.
tag = soup.find("meta", attrs={"name": "description"})
print(json.dumps({"status": "ok", "answer": tag["content"]}))
