# Draws 80 provisions at random (seed 20261125) from the raw sources in shared/corpus/eu: an act, one of
# its articles, and a position inside it (the whole article, or its k-th numbered paragraph when it has
# them). Uses the sources only, never acquis's output.
import hashlib, json, os, re
SRC = "/work/shared/corpus/eu"
files = sorted(f for f in os.listdir(SRC) if f.endswith(".json"))
def h(*parts):
    return int(hashlib.sha256(("20261125|" + "|".join(map(str, parts))).encode()).hexdigest(), 16)
out = []
i = 0
while len(out) < 80:
    f = files[h("act", i) % len(files)]
    d = json.load(open(os.path.join(SRC, f)))
    arts = d.get("articles") or []
    if not arts:
        i += 1; continue
    a = arts[h("art", i) % len(arts)]
    paras = re.findall(r"(?m)^(\d+[a-z]?)\.\s", a.get("text", ""))
    if paras and h("para?", i) % 3 != 0:
        k = paras[h("para", i) % len(paras)]
        where = f"Article {a['number']}, paragraph {k}"
    else:
        where = f"Article {a['number']} (the article as a whole)"
    item = {"n": len(out) + 1, "source_file": f, "act": d.get("id"), "celex": d.get("celex_id"), "provision": where}
    if item not in out:
        out.append(item)
    i += 1
json.dump(out, open("draw.json", "w"), indent=1)
print(len(out), len({o['source_file'] for o in out}), "acts")
