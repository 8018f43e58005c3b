/**
 * The serving API over REST, against the real `acquis serve` process and the real eu release.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import fc from "fast-check";
import { readReleases } from "../../src/release/releases.ts";
import { acquis } from "../helpers/cli.ts";
import { EU_SERVE_ARGS, servedEu, startServer } from "../helpers/server.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const TAG = () => readReleases(ROOT, "eu").at(-1)?.tag as string;
const RELEASE_DIR = () => join(ROOT, "regimes", "eu", "releases", TAG());

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field and asserted on
type Loose = any;

interface ErrorJson {
  error: { code: string; message: string; request_id: string };
  disclaimer?: { release: string; text: string };
  verification?: { status: string };
}

/** A refusal in the contract's shape, with the status DESIGN.md gives its code. */
async function expectError(res: Response, status: number, code: string): Promise<ErrorJson> {
  const body = (await res.json()) as ErrorJson;
  assert.equal(res.status, status, JSON.stringify(body));
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, "string");
  assert.ok(body.error.message.length > 0);
  assert.equal(body.error.request_id, res.headers.get("x-request-id"));
  return body;
}

function policyFile(text: string): string {
  const f = join(mkdtempSync(join(tmpdir(), "acquis-policy-")), "serving.yaml");
  writeFileSync(f, text);
  return f;
}

describe("acquis serve over REST", () => {
  const server = servedEu();

  test("probes: healthz, readyz, metrics, openapi", async () => {
    const h: Loose = await (await fetch(`${server().url}/healthz`)).json();
    assert.equal(h.alive, true);
    assert.equal(h.ready, true);
    assert.equal(h.draining, false);
    assert.ok(h.disclaimer && h.verification);
    const r = await fetch(`${server().url}/readyz`);
    assert.deepEqual(await r.json(), { ready: true, release: `eu@${TAG()}` });
    const m: Loose = await (await fetch(`${server().url}/metrics`)).text();
    for (const name of [
      "acquis_http_requests_total",
      "acquis_http_request_duration_seconds",
      "acquis_release_info",
      "acquis_ready 1",
      "process_cpu_user_seconds_total",
    ]) {
      assert.ok(m.includes(name), name);
    }
    const doc: Loose = await (await fetch(`${server().url}/openapi.json`)).json();
    assert.equal(doc.openapi, "3.1.0");
    assert.equal(doc.info.version, "0.1.0");
    const tools = Object.values(doc.paths as Record<string, { post?: Record<string, string> }>)
      .map((p) => p.post?.["x-service-mcp-tool"])
      .filter(Boolean)
      .sort();
    assert.deepEqual(tools, ["get_atom", "get_unit", "list_obligations", "search_regulation"]);
    assert.equal(
      doc.paths["/v1/answer"].post.requestBody.content["application/json"].schema.additionalProperties,
      false,
    );
  });

  test("when must a controller notify a personal data breach: GDPR Article 33(1), its definitions and atoms", async () => {
    const res = await server().post("/v1/answer", {
      query: "When must a controller notify a personal data breach to the supervisory authority?",
    });
    assert.equal(res.status, 200);
    const a: Loose = await res.json();
    assert.ok(a.sections.match.includes("gdpr/art_33__para_1"), a.sections.match.join(" "));
    const plain: Loose = await (
      await server().post("/v1/answer", { query: "When must a controller notify a personal data breach?" })
    ).json();
    assert.ok(plain.sections.match.includes("gdpr/art_33__para_1"), plain.sections.match.join(" "));
    // The definition is carried either way: attached to the article, or ranked among the matches itself
    // (a block appears once, in its first role).
    assert.ok(
      a.sections.definition.includes("gdpr/art_4__point_12") ||
        a.sections.match.includes("gdpr/art_4__point_12"),
      "the definition of personal data breach is in the answer",
    );
    const attached = a.blocks.filter(
      (b: { attached_to: string | null; role: string }) => b.attached_to === "gdpr/art_33__para_1",
    );
    assert.ok(
      attached.some((b: { role: string }) => b.role === "obligation"),
      "the article's atoms are attached",
    );
    // The article it sits in is present (as a match of its own when its heading matches, else as an
    // ancestor), and so is its chapter.
    assert.ok(
      a.blocks.some((b: { id: string }) => b.id === "gdpr/art_33"),
      "Article 33 itself",
    );
    assert.ok(a.sections.ancestor.includes("gdpr/chp_IV"), "Chapter IV");
    const duty = a.blocks.find(
      (b: { role: string; citation: { node: string }; detail: { executable_value: unknown } }) =>
        b.role === "obligation" && b.citation.node === "gdpr/art_33__para_1",
    );
    assert.equal(duty.detail.executable_value, 72);
    for (const k of [
      "applicability",
      "as_of",
      "blocks",
      "corpus",
      "disclaimer",
      "in_force",
      "notes",
      "out_of_scope",
      "query",
      "release",
      "request",
      "retrieval",
      "sections",
      "status",
      "verification",
    ]) {
      assert.ok(k in a, k);
    }
    assert.deepEqual(Object.keys(a.sections).sort(), [
      "amended",
      "amendment",
      "ancestor",
      "definition",
      "derogation",
      "match",
      "obligation",
    ]);
    assert.equal(a.request.as_of_defaulted, true);
    assert.equal(a.request.release_defaulted, true);
    assert.equal(a.as_of, "2026-11-22");
    assert.match(a.corpus.release_meta_sha256, /^[0-9a-f]{64}$/u);
    assert.equal(
      a.corpus.release_meta_sha256,
      createHash("sha256")
        .update(readFileSync(join(RELEASE_DIR(), "release-meta.yaml")))
        .digest("hex"),
    );
    // An unsigned local build says plainly that only digests and provenance were checked.
    assert.equal(a.verification.status, "digests-only");
    assert.equal(a.verification.mode, "local-build");
    assert.match(a.verification.statement, /Nothing verified who built these bytes/u);
    // chain: the predecessor eu release is built beside it, so the link is checked too.
    assert.deepEqual(a.verification.checks, ["digests", "provenance", "chain"]);
  });

  test("a provision not yet applicable is not presented as law in force", async () => {
    const a: Loose = await (
      await server().post("/v1/answer", { query: "Article 6(1) AI Act", mode: "exact", as_of: "2026-01-01" })
    ).json();
    assert.deepEqual(a.sections.match, ["ai-act/art_6__para_1"]);
    assert.equal(a.in_force, false);
    assert.ok(a.notes.some((n: string) => n.includes("2027-08-02")));
    assert.equal(a.retrieval.mode, "exact");
  });

  test("instruments outside the release: wholly out of scope, or the foreign half listed", async () => {
    const out: Loose = await (
      await server().post("/v1/answer", { query: "What does HIPAA require for breach notification?" })
    ).json();
    assert.equal(out.status, "out-of-scope");
    assert.deepEqual(out.out_of_scope, ["What does HIPAA require for breach notification?"]);
    assert.equal(out.blocks.length, 0);
    const crr: Loose = await (
      await server().post("/v1/answer", {
        query: "Does Regulation (EU) No 575/2013 set capital requirements?",
      })
    ).json();
    assert.equal(crr.status, "out-of-scope");
    const both: Loose = await (
      await server().post("/v1/answer", { query: "Compare breach notification under the GDPR and the CCPA" })
    ).json();
    assert.deepEqual(both.out_of_scope, ["CCPA"]);
    assert.equal(both.status, "answered");
    assert.ok(both.sections.match.every((n: string) => n.startsWith("gdpr/")));
    const celex: Loose = await (
      await server().post("/v1/answer", { query: "What does 32013R0575 require?" })
    ).json();
    assert.deepEqual(celex.out_of_scope, ["What does 32013R0575 require?"]);
    const eli: Loose = await (
      await server().post("/v1/answer", {
        query: "scope of http://data.europa.eu/eli/dir/2013/36/oj and Article 33 GDPR",
      })
    ).json();
    assert.equal(eli.status, "answered");
    assert.ok(
      eli.out_of_scope.some((x: string) => x.includes("eli/dir/2013/36")),
      JSON.stringify(eli.out_of_scope),
    );
    const inside: Loose = await (
      await server().post("/v1/answer", { query: "Article 23 NIS2 incident notification" })
    ).json();
    assert.deepEqual(inside.out_of_scope, []);
  });

  test("filters narrow the matches and are echoed", async () => {
    const a: Loose = await (
      await server().post("/v1/answer", {
        query: "incident reporting deadlines",
        filters: { eids: ["art_23"], jurisdictions: ["EU"] },
      })
    ).json();
    assert.ok(a.sections.match.length > 0);
    assert.ok(a.sections.match.every((n: string) => n.split("/")[1]?.startsWith("art_23")));
    assert.deepEqual(a.request.filters.eids, ["art_23"]);
    assert.deepEqual(a.request.filters.exclude_regimes, []);
    const gatekeepers: Loose = await (
      await server().post("/v1/answer", { query: "obligations", filters: { entity_types: ["gatekeeper"] } })
    ).json();
    assert.ok(gatekeepers.sections.match.length > 0);
    assert.ok(
      gatekeepers.sections.match.every((n: string) => n.startsWith("dma/")),
      gatekeepers.sections.match.join(" "),
    );
    const none: Loose = await (
      await server().post("/v1/answer", {
        query: "incident reporting",
        filters: { exclude_jurisdictions: ["EU", "UNECE"] },
      })
    ).json();
    assert.equal(none.sections.match.length, 0);
  });

  test("naming a profile decides applicability over its whole disposition and removes no content", async () => {
    const q = { query: "ICT risk management framework", as_of: "2026-01-01" };
    const plain: Loose = await (await server().post("/v1/answer", q)).json();
    const withProfile: Loose = await (
      await server().post("/v1/answer", { ...q, entity_profile: "lt-micro-payment-institution" })
    ).json();
    assert.deepEqual(withProfile.sections, plain.sections, "content is the same");
    const ap = withProfile.applicability;
    assert.equal(ap.decided, true);
    assert.equal(ap.entity_profile, "lt-micro-payment-institution");
    assert.ok(
      ap.atoms.length > withProfile.sections.obligation.length,
      "decided over the whole disposition, not only retrieved atoms",
    );
    const lifted = ap.atoms.find(
      (x: { applicable: boolean; derogation: { derogating_eid: string } | null }) =>
        x.applicable === false && x.derogation?.derogating_eid === "art_16__para_1",
    );
    assert.ok(lifted, "DORA Art 16 lifts Arts 5-15 duties");
    assert.ok(ap.disapplied.includes(lifted.atom));
  });

  test("a unit an amending act outside the corpus changed says so: its date is the amended one, its text is flagged", async () => {
    const eudr: Loose = await (
      await server().post("/v1/unit", {
        eid: "art_3",
        work_iri: "http://data.europa.eu/eli/reg/2023/1115/oj",
        as_of: "2026-11-25",
      })
    ).json();
    // Regulation (EU) 2025/2650 moved the EUDR prohibitions from 30 December 2024 to 30 December 2026.
    assert.equal(eudr.unit.valid_from, "2026-12-30");
    assert.equal(eudr.in_force, false);
    assert.deepEqual(
      eudr.unit.amended_by.map((m: { celex: string; what: string }) => [m.celex, m.what]),
      [["32025R2650", "date"]],
    );
    const mdr: Loose = await (
      await server().post("/v1/unit", {
        eid: "art_120__para_2",
        work_iri: "http://data.europa.eu/eli/reg/2017/745/oj",
      })
    ).json();
    assert.ok(
      mdr.unit.amended_by.some(
        (m: { celex: string; what: string }) => m.celex === "32023R0607" && m.what === "text",
      ),
    );
    assert.match(mdr.notes.join(" "), /text as adopted; Regulation \(EU\) 2023\/607/u);
  });

  test("a directive's provision is cited as binding through national law, with its transposition deadline", async () => {
    const u: Loose = await (
      await server().post("/v1/unit", {
        eid: "art_21__para_1",
        work_iri: "http://data.europa.eu/eli/dir/2022/2555/oj",
      })
    ).json();
    assert.equal(u.unit.binding, "through national law");
    assert.equal(u.unit.transposition_deadline, "2024-10-17");
    assert.equal(u.atoms[0].citation.binding, "through national law");
    const a: Loose = await (await server().post("/v1/answer", { query: "Article 21(1) NIS2" })).json();
    const block = a.blocks.find((b: { id: string }) => b.id === "nis2/art_21__para_1");
    assert.equal(block.citation.binding, "through national law");
    assert.equal(block.citation.transposition_deadline, "2024-10-17");
    const g: Loose = await (await server().post("/v1/answer", { query: "Article 33(1) GDPR" })).json();
    const gdpr = g.blocks.find((b: { id: string }) => b.id === "gdpr/art_33__para_1");
    assert.ok(gdpr, "the GDPR block is there");
    assert.equal(gdpr.citation.binding, undefined, "a regulation applies directly");
  });

  test("a compact answer (the default) stays within 48 KB and says what it cut; detail full is the whole closure", async () => {
    // An EHDS definition question whose full closure is about 300 KB (an annex with 150 duties).
    const q = { query: "What is a 'wellness application' in the European Health Data Space Regulation?" };
    const compactText = await (await server().post("/v1/answer", q)).text();
    const fullText = await (await server().post("/v1/answer", { ...q, detail: "full" })).text();
    assert.ok(Buffer.byteLength(compactText) <= 48 * 1024, `${Buffer.byteLength(compactText)} bytes`);
    assert.ok(Buffer.byteLength(fullText) > 100 * 1024, "the full closure is what it was");
    const compact: Loose = JSON.parse(compactText);
    const full: Loose = JSON.parse(fullText);
    assert.equal(compact.request.detail, "compact");
    assert.equal(compact.request.matches, 5);
    assert.equal(full.request.matches, 10);
    assert.deepEqual(compact.sections.match, full.sections.match.slice(0, 5), "the same top five");
    const kept = compact.blocks.length;
    const left = Object.values(compact.omitted as Record<string, number>).reduce((n, x) => n + x, 0);
    assert.ok(left > 0);
    assert.match(compact.notes.join(" "), /left out to keep this answer within 44 KB/u);
    // Every block kept is the full answer's block, its text whole or an excerpt that says so.
    const byId = new Map(full.blocks.map((b: Loose) => [b.id, b]));
    for (const b of compact.blocks) {
      const whole = byId.get(b.id) as Loose;
      assert.ok(whole, b.id);
      if (b.detail?.excerpt) {
        assert.equal(b.detail.excerpt.total_chars, whole.text.length);
        assert.ok(whole.text.startsWith(b.text.replace(/ …$/u, "")), b.id);
      } else assert.equal(b.text, whole.text, b.id);
      assert.equal(b.citation.label, whole.citation.label);
    }
    assert.ok(kept + left >= 5 && kept + left <= full.blocks.length + 10);
    // An ordinary question is not cut at all.
    const plain: Loose = await (
      await server().post("/v1/answer", { query: "When must a controller notify a personal data breach?" })
    ).json();
    assert.equal(plain.omitted && Object.keys(plain.omitted).length, 0);
  });

  test("every block cites as a person would, and /v1/unit reads every id an answer hands out", async () => {
    const a: Loose = await (await server().post("/v1/answer", { query: "Article 33(1) GDPR" })).json();
    for (const b of a.blocks) {
      assert.equal(typeof b.citation.label, "string", b.id);
      if (b.citation.node === null) continue; // an amended act as a whole, cited by its work IRI
      const u: Loose = await (await server().post("/v1/unit", { eid: b.citation.node })).json();
      assert.equal(u.unit.node, b.citation.node, b.id);
      assert.equal(u.unit.provision, b.citation.label, b.id);
    }
    const block = a.blocks.find((b: Loose) => b.id === "gdpr/art_33__para_1");
    assert.equal(block.citation.label, "Article 33(1) GDPR");
    await expectError(await server().post("/v1/unit", { eid: "nosuchact/art_1" }), 404, "not_found");
  });

  test("an eId a parsing repair retired still finds its unit, with a note", async () => {
    const u: Loose = await (
      await server().post("/v1/unit", {
        eid: "art_19__subpara_2",
        work_iri: "http://data.europa.eu/eli/reg/2016/679/oj",
      })
    ).json();
    assert.equal(u.unit.eid, "art_19");
    assert.match(u.notes.join(" "), /art_19__subpara_2 is the eId .* had before/u);
    // IVDR Art 42(7), printed "7 In the event …" without its full stop, was read as a subparagraph of (6).
    const ivdr: Loose = await (
      await server().post("/v1/unit", {
        eid: "art_42__para_6__subpara_2",
        work_iri: "http://data.europa.eu/eli/reg/2017/746/oj",
      })
    ).json();
    assert.equal(ivdr.unit.eid, "art_42__para_7");
    assert.equal(ivdr.unit.provision, "Article 42(7) IVDR");
  });

  test("an article the source lost is a unit without text that says so, so its citation resolves", async () => {
    const u: Loose = await (
      await server().post("/v1/unit", {
        eid: "art_15",
        work_iri: "http://data.europa.eu/eli/dir/2014/65/oj",
      })
    ).json();
    assert.equal(u.unit.provision, "Article 15 MiFID II");
    assert.equal(u.unit.text, "");
    assert.match(u.unit.lost_in_source, /correlation-table entries/u);
    assert.match(u.notes.join(" "), /source lost the text of Article 15 MiFID II/u);
    assert.deepEqual(u.atoms, []);
  });

  test("unit, atom and obligations", async () => {
    const u: Loose = await (
      await server().post("/v1/unit", {
        eid: "art_33__para_1",
        work_iri: "http://data.europa.eu/eli/reg/2016/679/oj",
      })
    ).json();
    assert.equal(u.unit.eid, "art_33__para_1");
    assert.equal(u.unit.provision, "Article 33(1) GDPR");
    assert.ok(u.atoms.length > 0);
    assert.equal(u.versions.length, 1);
    const atomId = u.atoms[0].id;
    const a: Loose = await (await server().post("/v1/atom", { atom_id: atomId })).json();
    assert.equal(a.atom.id, atomId);
    assert.equal(a.atom.status, "in_force");
    assert.equal(
      a.unit.own_text.slice(a.atom.citation.char_start, a.atom.citation.char_end),
      a.atom.citation.quoted_text,
    );
    const o: Loose = await (
      await server().post("/v1/obligations", { entity_profile: "de-large-bank", as_of: "2026-01-01" })
    ).json();
    assert.equal(o.entity_profile, "de-large-bank");
    assert.equal(o.counts.applicable, o.applicable.length);
    assert.equal(o.counts.undetermined, o.undetermined.length);
    assert.ok(o.binds.includes("credit_institution"));
    // The register a compliance officer signs: acts out of scope once, each item with its reasons.
    assert.ok(o.out_of_scope.some((x: Loose) => x.act === "led" && x.provision === "led/art_2__para_1"));
    for (const d of [...o.applicable, ...o.excluded, ...o.undetermined].slice(0, 200)) {
      assert.ok(["regulated_party", "member_state"].includes(d.addressee));
      assert.ok(Array.isArray(d.reasons.scope) && d.reasons.scope.length > 0);
    }
  });

  test("obligations page on request: each page within 64 KB, the same on every call, together the whole register", async () => {
    const args = { entity_profile: "lt-micro-payment-institution", as_of: "2026-12-01" };
    const whole: Loose = await (await server().post("/v1/obligations", args)).json();
    const first = await (await server().post("/v1/obligations", { ...args, limit: 1000 })).text();
    assert.ok(Buffer.byteLength(first) <= 64 * 1024, `${Buffer.byteLength(first)} bytes`);
    const again = await (await server().post("/v1/obligations", { ...args, limit: 1000 })).text();
    assert.equal(again, first, "a page is a function of the release and the request");
    const items: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const p: Loose = await (await server().post("/v1/obligations", { ...args, offset, limit: 40 })).json();
      assert.ok(p.page.items <= 40);
      assert.equal(p.page.total, whole.applicable.length + whole.excluded.length + whole.undetermined.length);
      items.push(...[...p.applicable, ...p.excluded, ...p.undetermined].map((x: Loose) => x.atom));
      offset = p.page.next_offset;
    }
    assert.deepEqual(
      items,
      [...whole.applicable, ...whole.excluded, ...whole.undetermined].map((x: Loose) => x.atom),
    );
    const past: Loose = await (await server().post("/v1/obligations", { ...args, offset: 999999 })).json();
    assert.deepEqual(
      [past.applicable, past.excluded, past.undetermined, past.page.next_offset],
      [[], [], [], null],
    );
    await expectError(await server().post("/v1/obligations", { ...args, limit: 0 }), 400, "invalid_request");
  });

  test("every error code, with its status and body shape", async () => {
    await expectError(await server().post("/v1/answer", { query: "x", bogus: 1 }), 400, "invalid_request");
    const nested = await expectError(
      await server().post("/v1/answer", { query: "x", filters: { nope: [] } }),
      400,
      "invalid_request",
    );
    assert.match(nested.error.message, /filters: unknown field "nope"/u);
    const named = await expectError(await server().post("/v1/answer", { query: "" }), 400, "invalid_request");
    assert.match(named.error.message, /query/u);
    await expectError(await server().post("/v1/answer", "[1,2]"), 400, "invalid_request");
    await expectError(await server().post("/v1/answer", "{not json"), 400, "invalid_request");
    await expectError(
      await server().post("/v1/answer", { query: "x", matches: 101 }),
      400,
      "invalid_request",
    );
    await expectError(
      await server().post("/v1/answer", {
        query: "x",
        entity_profile: "a",
        filters: { entity_profile: "b" },
      }),
      400,
      "invalid_request",
    );
    const ambiguous = await expectError(
      await server().post("/v1/unit", { eid: "art_33" }),
      400,
      "invalid_request",
    );
    assert.match(
      ambiguous.error.message,
      /data\.europa\.eu\/eli\/reg\/2016\/679\/oj/u,
      "names the candidates' work IRIs",
    );
    await expectError(
      await fetch(`${server().url}/v1/answer`, {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "hi",
      }),
      400,
      "invalid_request",
    );
    await expectError(
      await server().post("/v1/answer", { query: "x".repeat(70_000) }),
      413,
      "payload_too_large",
    );
    await expectError(await fetch(`${server().url}/v1/answer`), 405, "method_not_allowed");
    await expectError(await fetch(`${server().url}/nowhere`), 404, "not_found");
    await expectError(await server().post("/v1/unit", { eid: "art_9999" }), 404, "not_found");
    await expectError(await server().post("/v1/atom", { atom_id: "atm_doesnotexist" }), 404, "not_found");
    await expectError(
      await server().post("/v1/answer", { query: "x", release: "2020.01.1" }),
      409,
      "release_mismatch",
    );
    await expectError(
      await server().post("/v1/obligations", { entity_profile: "nobody" }),
      404,
      "unknown_profile",
    );
    await expectError(
      await server().post("/v1/answer", { query: "x", entity_profile: "nobody" }),
      404,
      "unknown_profile",
    );
  });

  test("an atom not in force on the date is not found", async () => {
    const atoms = JSON.parse(readFileSync(join(RELEASE_DIR(), "atoms.json"), "utf8")).atoms as {
      id: string;
      effective: string;
    }[];
    const pending = atoms.find((x) => x.effective > "2026-11-22");
    assert.ok(pending, "the release holds duties that apply later");
    const body = await expectError(
      await server().post("/v1/atom", { atom_id: pending.id }),
      404,
      "not_found",
    );
    assert.match(body.error.message, new RegExp(pending.effective, "u"));
    const ok = await server().post("/v1/atom", { atom_id: pending.id, as_of: pending.effective });
    assert.equal(ok.status, 200, "the same atom on its effective date is a duty");
  });

  test("X-Request-Id: a valid id is answered under, an invalid one replaced", async () => {
    const ok = await server().post("/v1/unit", { eid: "art_9999" }, { "X-Request-Id": "trace:abc-1.2" });
    assert.equal(ok.headers.get("x-request-id"), "trace:abc-1.2");
    assert.equal(((await ok.json()) as ErrorJson).error.request_id, "trace:abc-1.2");
    const bad = await fetch(`${server().url}/healthz`, { headers: { "X-Request-Id": "has spaces!" } });
    const minted = bad.headers.get("x-request-id") ?? "";
    assert.notEqual(minted, "has spaces!");
    assert.match(minted, /^[A-Za-z0-9._:-]{1,128}$/u);
  });

  test("fuzzed bodies never get a 500 or hang, and every refusal has the error shape", async () => {
    const routes = ["/v1/answer", "/v1/atom", "/v1/obligations", "/v1/unit"];
    const bodies = fc.oneof(
      fc.json(),
      fc.string(),
      fc.record(
        {
          query: fc.string(),
          matches: fc.anything(),
          filters: fc.anything(),
          as_of: fc.string(),
          mode: fc.string(),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        {
          atom_id: fc.string(),
          eid: fc.string(),
          entity_profile: fc.string(),
          release: fc.string(),
          work_iri: fc.string(),
        },
        { requiredKeys: [] },
      ),
      fc.dictionary(fc.string(), fc.jsonValue()),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), bodies, async (route, body) => {
        const raw = typeof body === "string" ? body : JSON.stringify(body);
        const res = await fetch(`${server().url}${route}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: raw,
          signal: AbortSignal.timeout(10_000),
        });
        assert.notEqual(res.status, 500, `${route} ${raw}`);
        const json: Loose = await res.json();
        if (res.status !== 200) {
          assert.equal(typeof json.error?.code, "string", raw);
          assert.equal(json.error.request_id, res.headers.get("x-request-id"));
        }
      }),
      { numRuns: 150, seed: 20261122 },
    );
  });
});

describe("two instances over the same release", () => {
  test("answer byte-identical bodies", async () => {
    const [a, b] = await Promise.all([startServer(EU_SERVE_ARGS), startServer(EU_SERVE_ARGS)]);
    try {
      await Promise.all([a.ready(), b.ready()]);
      const requests: [string, unknown][] = [
        ["/v1/answer", { query: "personal data breach notification" }],
        ["/v1/answer", { query: "Article 5 AI Act", entity_profile: "nl-micro-high-risk-ai-provider" }],
        ["/v1/answer", { query: "What does HIPAA say?" }],
        ["/v1/unit", { eid: "art_23__para_4", work_iri: "http://data.europa.eu/eli/dir/2022/2555/oj" }],
        ["/v1/obligations", { entity_profile: "ie-critical-cloud-provider" }],
        ["/v1/unit", { eid: "nope" }],
      ];
      for (const [path, body] of requests) {
        const [x, y] = await Promise.all([
          a.post(path, body, { "X-Request-Id": "same" }),
          b.post(path, body, { "X-Request-Id": "same" }),
        ]);
        assert.equal(x.status, y.status);
        assert.equal(await x.text(), await y.text(), `${path} ${JSON.stringify(body)}`);
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});

describe("the policy layer and lifecycle", () => {
  test("bearer credentials, anonymous refusal, the rolling rate limit and CORS", async () => {
    const token = "s3cret-token";
    const sha = createHash("sha256").update(token).digest("hex");
    const config = policyFile(`anonymous: { allowed: false }
credentials:
  - { name: ci, sha256: ${sha}, per_minute: 3 }
cors: { origins: ["https://app.example"] }
probes_require_auth: false
shutdown: { drain_seconds: 2 }
`);
    const s = await startServer([...EU_SERVE_ARGS, "--config", config]);
    try {
      await s.ready();
      const anon = await expectError(await s.post("/v1/unit", { eid: "art_1" }), 401, "unauthorized");
      assert.ok(anon.disclaimer, "an application refusal after load carries the disclaimer");
      const refused = await s.post("/v1/unit", { eid: "art_1" }, { Authorization: "Bearer wrong" });
      assert.match(refused.headers.get("www-authenticate") ?? "", /^Bearer/u);
      await expectError(refused, 401, "unauthorized");
      const auth = { Authorization: `Bearer ${token}` };
      for (let i = 0; i < 3; i++)
        assert.notEqual((await s.post("/v1/unit", { eid: "art_9999" }, auth)).status, 429);
      const limited = await s.post("/v1/unit", { eid: "art_9999" }, auth);
      const retry = Number(limited.headers.get("retry-after"));
      assert.ok(retry >= 1 && retry <= 60, String(retry));
      await expectError(limited, 429, "rate_limited");
      const again = await s.post("/v1/unit", { eid: "art_9999" }, auth);
      assert.equal(again.status, 429, "a refused request consumed nothing, but the window is still full");
      const preflight = await fetch(`${s.url}/v1/answer`, {
        method: "OPTIONS",
        headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST" },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get("access-control-allow-origin"), "https://app.example");
      const foreign = await fetch(`${s.url}/v1/answer`, {
        method: "OPTIONS",
        headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
      });
      assert.equal(foreign.headers.get("access-control-allow-origin"), null);
      assert.equal((await fetch(`${s.url}/healthz`)).status, 200, "probes are open");
    } finally {
      await s.stop();
    }
  });

  test("--host :: is one dual-stack socket answering IPv6 and IPv4", async () => {
    const s = await startServer(["--host", "::", ...EU_SERVE_ARGS]);
    try {
      const port = new URL(s.url).port;
      assert.match(s.url, /^http:\/\/\[::1?\]:\d+$/u);
      assert.equal((await fetch(`http://[::1]:${port}/healthz`)).status, 200);
      assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
    } finally {
      await s.stop();
    }
  });

  test("a policy with an unknown key stops the server before it binds, naming the key", () => {
    const config = policyFile("anonymous: { allowed: true }\nrate_limits: {}\n");
    const r = acquis(["serve", "--port", "0", "--config", config]);
    assert.notEqual(r.status, 0);
    assert.equal(r.stdout, "", "never printed a listening line");
    assert.match(r.stderr, /unknown key "rate_limits"/u);
  });

  test("a release that fails verification is refused with the check named; --insecure-skip-verify serves it stamped", async (t) => {
    const copy = mkdtempSync(join(tmpdir(), "acquis-tampered-"));
    // A copy of the release is 100 MB: left behind by every run, they filled the disk.
    t.after(() => rmSync(copy, { recursive: true, force: true }));
    cpSync(RELEASE_DIR(), copy, { recursive: true });
    const corpus = join(copy, "quality.json");
    writeFileSync(corpus, `${readFileSync(corpus, "utf8")} `);
    const s = await startServer(["--path", copy, "--root", ROOT, ...EU_SERVE_ARGS]);
    try {
      const until = Date.now() + 15_000;
      let body: ErrorJson | null = null;
      while (Date.now() < until) {
        const r = await fetch(`${s.url}/readyz`);
        body = (await r.json()) as ErrorJson;
        if (/refused/u.test(body.error?.message ?? "")) break;
        await new Promise((res) => setTimeout(res, 100));
      }
      assert.match(body?.error.message ?? "", /digests: .*quality\.json/u);
      const refused = await expectError(await s.post("/v1/answer", { query: "x" }), 503, "not_ready");
      assert.match(refused.error.message, /digests/u);
      assert.equal((await fetch(`${s.url}/healthz`)).status, 200);
    } finally {
      await s.stop();
    }
    const skipped = await startServer([
      "--path",
      copy,
      "--root",
      ROOT,
      "--insecure-skip-verify",
      ...EU_SERVE_ARGS,
    ]);
    try {
      await skipped.ready();
      const a: Loose = await (
        await skipped.post("/v1/unit", {
          eid: "art_1",
          work_iri: "http://data.europa.eu/eli/reg/2016/679/oj",
        })
      ).json();
      assert.equal(a.verification.status, "skipped");
      assert.match(skipped.stderr(), /insecure-skip-verify/u);
    } finally {
      await skipped.stop();
    }
  });

  test("an unexpected exception is a 500 internal in the same shape, never a stack trace", async (t) => {
    // A release whose atoms.json lacks a field the engine relies on, served without verification.
    const copy = mkdtempSync(join(tmpdir(), "acquis-broken-"));
    t.after(() => rmSync(copy, { recursive: true, force: true }));
    cpSync(RELEASE_DIR(), copy, { recursive: true });
    const file = join(copy, "atoms.json");
    const atoms = JSON.parse(readFileSync(file, "utf8"));
    for (const a of atoms.atoms) delete a.applies_to;
    writeFileSync(file, JSON.stringify(atoms));
    const s = await startServer(["--path", copy, "--root", ROOT, "--insecure-skip-verify", ...EU_SERVE_ARGS]);
    try {
      await s.ready();
      const body = await expectError(
        await s.post("/v1/obligations", { entity_profile: "de-large-bank" }),
        500,
        "internal",
      );
      assert.doesNotMatch(body.error.message, /at |TypeError|\.ts:/u);
    } finally {
      await s.stop();
    }
  });

  test("not_ready before the release is loaded, and SIGTERM drains then exits", async () => {
    const s = await startServer(EU_SERVE_ARGS);
    const early = await s.post("/v1/unit", { eid: "art_1" });
    if (early.status === 503) await expectError(early, 503, "not_ready");
    await s.ready();
    const code = await s.stop();
    assert.equal(code, 0);
  });
});
