/**
 * Query understanding as a user of POST /v1/answer sees it, against the real `acquis serve` process and
 * the real eu release: references in every style land on the exact unit, definition questions lead with
 * the defining point, named acts restrict and alternate, results are diverse across provisions, unknown
 * statutes are out of scope, and `lexical` is the bare BM25.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { servedEu } from "../helpers/server.ts";

interface Answer {
  status: string;
  notes: string[];
  out_of_scope: string[];
  sections: { match: string[] };
  retrieval: { mode: string };
}

/** The provision a matched node belongs to, by eId shape: "gdpr/art_33__para_1" -> "gdpr/art_33". */
const provision = (node: string) => node.replace(/__.*$/u, "");

describe("retrieval over REST", () => {
  const server = servedEu();
  const ask = async (query: string, extra: Record<string, unknown> = {}): Promise<Answer> => {
    const res = await server().post("/v1/answer", { query, ...extra });
    assert.equal(res.status, 200, query);
    return (await res.json()) as Answer;
  };

  test("references in every style lead with the exact unit, in auto and exact mode", async () => {
    const cases: [string, string][] = [
      ["Art. 33(1) GDPR", "gdpr/art_33__para_1"],
      ["Article 6(1)(f) of Regulation (EU) 2016/679", "gdpr/art_6__para_1__point_f"],
      ["what does article 5 AI Act prohibit", "ai-act/art_5"],
      ["recital 83 GDPR", "gdpr/rec_83"],
      ["Annex III of the AI Act", "ai-act/anx_III"],
      ["point (a) of Article 23(4) NIS2", "nis2/art_23__para_4__point_a"],
      ["Article 17 of 32016R0679", "gdpr/art_17"],
      ["http://data.europa.eu/eli/reg/2016/679/art_6/par_1/pnt_f/oj", "gdpr/art_6__para_1__point_f"],
      ["GDPR Article 4(12)", "gdpr/art_4__point_12"],
      ["Under DORA, what does Article 28 require?", "dora/art_28"],
      ["paragraph 7.2.2.2 of UN Regulation No 155", "un-r155/art_7__para_7.2.2.2"],
    ];
    for (const [query, unit] of cases) {
      for (const mode of ["auto", "exact"]) {
        const a = await ask(query, { mode });
        assert.equal(a.sections.match[0], unit, `${mode}: ${query} -> ${a.sections.match.join(" ")}`);
      }
    }
  });

  test("an ELI of an act outside the release is out of scope, never read into another act named", async () => {
    const a = await ask("Compare http://data.europa.eu/eli/reg/2013/575/art_92/oj with Article 5 GDPR", {
      mode: "exact",
    });
    assert.deepEqual(a.sections.match, ["gdpr/art_5"]);
    assert.ok(
      a.out_of_scope.some((x) => x.includes("2013/575")),
      a.out_of_scope.join(" "),
    );
  });

  test("a range names every article in it, in order", async () => {
    const a = await ask("Articles 12 to 15 GDPR", { mode: "exact" });
    assert.deepEqual(a.sections.match, ["gdpr/art_12", "gdpr/art_13", "gdpr/art_14", "gdpr/art_15"]);
  });

  test("a reference past the text resolves to the deepest unit that exists, with a note", async () => {
    const a = await ask("Article 33(9) GDPR", { mode: "exact" });
    assert.deepEqual(a.sections.match, ["gdpr/art_33"]);
    assert.ok(
      a.notes.some((n) => n.includes("Article 33(9)") && n.includes("Article 33 GDPR")),
      a.notes.join(" | "),
    );
  });

  test("a definition question leads with the defining point of the act named", async () => {
    assert.equal(
      (await ask("What counts as personal data under the GDPR?")).sections.match[0],
      "gdpr/art_4__point_1",
    );
    assert.equal(
      (await ask("definition of biometric data in the AI Act")).sections.match[0],
      "ai-act/art_3__point_34",
    );
    // Named nowhere: the act defining it in its own words comes before acts that borrow the definition.
    const open = await ask("what is a personal data breach?");
    assert.equal(open.sections.match[0], "gdpr/art_4__point_12");
  });

  test("named acts restrict the matches to them and their delegated and implementing acts; several alternate", async () => {
    const one = await ask("incident reporting obligations under DORA");
    assert.ok(one.sections.match.length > 0);
    assert.ok(
      one.sections.match.every((n) => /^dora(?:-rts-[a-z-]+|-its-[a-z-]+)?\//u.test(n)),
      one.sections.match.join(" "),
    );
    // Where the answer lives in a regulatory technical standard, the question naming DORA reaches it.
    const tlpt = await ask(
      "DORA threat-led penetration testing: how long must the active red team testing phase last?",
    );
    assert.equal(tlpt.sections.match[0], "dora-rts-tlpt/art_11__para_5", tlpt.sections.match.join(" "));
    const two = await ask("incident reporting under NIS2 and DORA");
    // A delegated or implementing act of DORA shares DORA's lane.
    const acts = two.sections.match
      .slice(0, 4)
      .map((n) => n.slice(0, n.indexOf("/")).replace(/^dora-(?:rts|its)-[a-z-]+$/u, "dora"));
    assert.deepEqual([...new Set(acts)].sort(), ["dora", "nis2"], two.sections.match.join(" "));
    assert.notEqual(acts[0], acts[1], "the first two matches come from different acts");
  });

  test("matches are diverse across provisions unless the question is about one", async () => {
    const broad = await ask("security of processing measures encryption pseudonymisation");
    const provisions = broad.sections.match.map(provision);
    assert.equal(new Set(provisions).size, provisions.length, broad.sections.match.join(" "));
    const about = await ask("Article 33 GDPR: what must the notification describe?");
    assert.ok(
      about.sections.match.slice(0, 3).every((n) => provision(n) === "gdpr/art_33"),
      about.sections.match.join(" "),
    );
  });

  test("everyday words reach the acts' words", async () => {
    const a = await ask("our customer database got hacked, how quickly do we have to tell the regulator?");
    assert.ok(
      a.sections.match.slice(0, 5).map(provision).includes("gdpr/art_33"),
      a.sections.match.join(" "),
    );
  });

  test("statutes and proposals outside the release are out of scope, as named", async () => {
    const psti = await ask("Does the PSTI Act ban universal default passwords?");
    assert.equal(psti.status, "out-of-scope");
    assert.deepEqual(psti.sections.match, []);
    const proposal = await ask("What does the proposed ePrivacy Regulation say about metadata?");
    assert.equal(proposal.status, "out-of-scope");
    assert.ok(proposal.out_of_scope.length > 0);
    // An act of the release named by its title's subject is not foreign.
    const mica = await ask(
      "Under the Regulation on markets in crypto-assets, who must publish a white paper?",
    );
    assert.equal(mica.status, "answered");
    assert.ok(
      mica.sections.match.every((n) => n.startsWith("mica/")),
      mica.sections.match.join(" "),
    );
  });

  test("a question most of whose words the release has never seen gets no match, with the reason", async () => {
    for (const query of ["asdf qwer zxcv", "lorem ipsum dolor sit amet, consectetur adipiscing elit"]) {
      const a = await ask(query);
      assert.equal(a.status, "no-match", query);
      assert.deepEqual(a.sections.match, [], query);
      assert.match(a.notes.join(" "), /occur nowhere in eu@/u, query);
    }
    // The same share of unknown words in a question that cites or names the law is still answered.
    const cited = await ask("asdf qwer Article 33 GDPR");
    assert.equal(cited.sections.match[0], "gdpr/art_33");
    // Everyday words the synonym layer knows are not unknown, and one odd word does not refuse.
    const everyday = await ask("my webshop was hacked: must I tell the privacy regulator?");
    assert.equal(everyday.status, "answered");
    assert.ok(everyday.sections.match.length > 0);
  });

  test("a question that is only an act's name answers from that act", async () => {
    const title = await ask("DORA register of information templates");
    assert.equal(title.status, "answered");
    assert.ok(
      title.sections.match.slice(0, 3).some((n) => n.startsWith("dora-its-register-templates/art_")),
      title.sections.match.join(" "),
    );
    const bare = await ask("GDPR");
    assert.equal(bare.sections.match[0], "gdpr/art_1", "subject matter first");
  });

  test("lexical mode is the bare BM25: no references, no diversity", async () => {
    const a = await ask("Art. 33(1) GDPR", { mode: "lexical" });
    assert.equal(a.retrieval.mode, "lexical");
    assert.notEqual(a.sections.match[0], "gdpr/art_33__para_1");
  });
});
