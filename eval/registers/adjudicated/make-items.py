# Builds the adjudication items of one profile from two readers' registers, from nothing but the two files.
import json, sys, yaml
prof, a_path, b_path, out = sys.argv[1:5]
def load(p):
    text = open(p).read()
    cut = text.find("\ndisagreements:")
    if cut >= 0: text = text[:cut + 1]
    return yaml.safe_load(text)
def statuses(g):
    s = {}
    for x in g.get("acts_not_applicable") or []:
        s[x["act"] + "/*"] = {"status": "act not applicable", "provision": x.get("provision"), "reason": x.get("reason")}
    for x in g.get("acts_undetermined") or []:
        s[x["act"] + "/*"] = {"status": "act undetermined", "fact": x.get("fact"), "provision": x.get("provision")}
    for act in g.get("acts") or []:
        a = act["act"]
        s[a + "/*"] = {"status": "act applies", "scope": act.get("scope")}
        tnl = set(act.get("through_national_law") or [])
        for art in act.get("binds") or []:
            s[f"{a}/{art}"] = {"status": "binds" + (" (through national law)" if art in tnl else "")}
        for k, label in (("excluded", "excluded"), ("undetermined", "undetermined"), ("modified", "modified"), ("not_yet_applicable", "not yet applicable")):
            for e in act.get(k) or []:
                key = f"{a}/{e['article']}"
                d = {kk: vv for kk, vv in e.items() if kk != "article"}
                if k == "modified" and key in s: s[key]["modified"] = d; continue
                s[key] = {"status": label, **d}
    return s
A, B = load(a_path), load(b_path)
sa, sb = statuses(A), statuses(B)
def binds(s): return {k for k, v in s.items() if v["status"].startswith("binds") or (v["status"] == "modified")}
ba, bb = binds(sa), binds(sb)
items = []
for k in sorted(ba ^ bb):
    act = k.split("/")[0]
    def view(s):
        return s.get(k) or {"status": "not listed", "act": s.get(act + "/*", {"status": "act not mentioned"})}
    items.append({"n": len(items) + 1, "article": k, "reading_1": view(sa), "reading_2": view(sb)})
json.dump({"profile": prof, "as_of": "2026-12-01", "items": items}, open(out, "w"), indent=2, ensure_ascii=False)
print(prof, "reading 1 binds", len(ba), "reading 2 binds", len(bb), "both", len(ba & bb), "to decide", len(items))
