# Writes eval/registers/adjudicated/<profile>.yaml from an adjudicator's decisions.json, unedited.
import json, sys, yaml
s, profile, out = sys.argv[1:4]
d = json.load(open(f"/work/gold/adj/{s}/decisions.json"))
items = json.load(open(f"/work/gold/adj/{s}/items.json"))["items"]
assert d["profile"] == profile, d["profile"]
assert [x["article"] for x in d["decisions"]] == [i["article"] for i in items], "decisions out of the items' order"
keys = ("article", "status", "provision", "fact", "sides_with", "reason")
for x in d["decisions"]:
    assert x["status"] in ("binds", "undetermined", "excluded", "not_yet_applicable", "does_not_bind"), x
body = {"profile": profile, "as_of": "2026-12-01",
        "written_from": "the act texts in /work/shared/corpus/eu, the profile and the two readings (gold/, second/) only",
        "decisions": [{k: x.get(k) for k in keys} for x in d["decisions"]]}
head = (f"# Adjudicated register of {profile}: the articles its two readings (gold/{profile}.yaml and\n"
        f"# second/{profile}.yaml) dispute, decided from the text by a third reader who saw both readings and\n"
        f"# the law, never the engine (eval/registers/README.md). Everything above `disagreements:` is the\n"
        f"# adjudicator's decisions.json as delivered.\n")
open(out, "w").write(head + yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=110))
