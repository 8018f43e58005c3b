/**
 * The registers a compliance officer signs, on the newest built eu release: what the legal review
 * struck on the first page (State duties, acts that cannot apply, lex specialis ignored, modifications
 * read as exemptions, duplicates) must not come back. Properties run over every shipped profile; the
 * named cases are the review's own examples, checked through the real CLI where a user would meet them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { createEngine } from "../../src/engine/context.ts";
import { register as decideFor, obligations } from "../../src/engine/obligations.ts";
import { type LoadedRelease, loadRelease } from "../../src/release/load.ts";
import { newestBuilt, releaseDir } from "../../src/release/releases.ts";
import { acquis } from "../helpers/cli.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const AS_OF = "2026-12-01";
type Register = ReturnType<typeof obligations>;

describe("obligation registers on the eu release", () => {
  let release: LoadedRelease;
  let engine: ReturnType<typeof createEngine>;
  const registers = new Map<string, Register>();
  const register = (id: string) => registers.get(id) as Register;
  before(() => {
    const record = newestBuilt(ROOT, "eu");
    assert.ok(record, "npm test builds eu first");
    release = loadRelease(releaseDir(ROOT, "eu", record.tag));
    engine = createEngine(release, {
      verification: { status: "digests-only", mode: "unverified", checks: ["digests"], statement: "" },
      disclaimer: { release: `eu@${record.tag}`, text: "" },
    });
    for (const p of release.profiles)
      registers.set(p.id, obligations(engine, { entity_profile: p.id, as_of: AS_OF }, AS_OF));
  });

  type Profile = LoadedRelease["profiles"][number];
  const profile = (id: string): Profile => {
    const p = release.profiles.find((x) => x.id === id);
    assert.ok(p, id);
    return p;
  };
  /** Whether a profile, with these facts stated too, has an applicable duty in the units under `node`. */
  const binds = (p: Profile, node: string, facts: Profile["facts"] = {}) =>
    decideFor(engine, { ...p, facts: { ...p.facts, ...facts } }, AS_OF).applicable.some((d) =>
      d.atom.node.startsWith(node),
    );

  const items = (r: Register) => [...r.applicable, ...r.excluded, ...r.undetermined];
  const articles = (list: Register["applicable"]) =>
    new Set(list.map((d) => `${d.act}/${d.unit_eid.split("__")[0]}`));

  test("no register of any profile holds a duty of a State, an authority or a Union body", () => {
    for (const [id, r] of registers) {
      for (const d of items(r)) {
        assert.ok(
          d.addressee === "regulated_party" ||
            (d.addressee === "member_state" && d.reasons.through_national_law),
          `${id}: ${d.atom} (${d.provision}) is held by ${d.addressee} "${d.actor}"`,
        );
        if (d.modality === "permission")
          assert.ok(
            d.reasons.correlative,
            `${id}: ${d.atom} is a permission, not a duty, and owed by no one`,
          );
      }
    }
  });

  test("a directive's duty on Member States is listed only as binding through national law, with its date", () => {
    const nis2 = register("es-electricity-dso-essential-entity").applicable.filter((d) => d.act === "nis2");
    const art21 = nis2.filter((d) => d.unit_eid.startsWith("art_21"));
    assert.ok(art21.length > 0, "NIS2 Art 21 binds an essential entity through national law");
    for (const d of art21) {
      assert.equal(d.reasons.through_national_law?.national_law_from, "2024-10-18");
      assert.match(d.basis, /binds through national law/u);
    }
    assert.ok(!nis2.some((d) => /penalt/iu.test(d.quoted_text) && d.addressee === "member_state"));
  });

  test("every duty is listed once, and an act out of scope contributes nothing", () => {
    for (const [id, r] of registers) {
      const ids = items(r).map((d) => d.atom);
      assert.equal(new Set(ids).size, ids.length, `${id}: an atom listed twice`);
      const words = items(r).map((d) => `${d.act}/${d.unit_eid} ${d.quoted_text}`);
      assert.equal(new Set(words).size, words.length, `${id}: the same duty listed twice`);
      const out = new Set(r.out_of_scope.filter((o) => o.rule === o.act).map((o) => o.act));
      for (const d of items(r))
        assert.ok(!out.has(d.act), `${id}: ${d.atom} of ${d.act}, an act out of scope`);
      assert.equal(r.counts.applicable + r.counts.excluded + r.counts.undetermined, items(r).length);
    }
  });

  test("the Law Enforcement Directive reaches no firm", () => {
    for (const [id, r] of registers) {
      assert.ok(!items(r).some((d) => d.act === "led"), id);
      const led = r.out_of_scope.find((o) => o.act === "led");
      assert.ok(led, `${id}: LED is reported out of scope once`);
      assert.equal(led.provision, "led/art_2__para_1");
    }
  });

  test("the significant bank: DORA displaces NIS2 Arts 20, 21 and 23; no DMA, EECC or TLPT as a given", () => {
    const r = register("de-large-bank");
    const applicable = articles(r.applicable);
    for (const a of ["nis2/art_20", "nis2/art_21", "nis2/art_23"]) assert.ok(!applicable.has(a), a);
    const displaced = r.excluded.filter((d) => d.act === "nis2" && d.unit_eid.startsWith("art_21"));
    assert.ok(displaced.length > 0);
    for (const d of displaced) {
      assert.equal(d.derogation?.kind, "lex_specialis");
      assert.equal(d.derogation?.derogating_node, "dora/art_1__para_2");
    }
    for (const act of ["dma", "eecc"])
      assert.ok(
        r.out_of_scope.some((o) => o.act === act),
        act,
      );
    const tlpt = r.undetermined.filter((d) => d.act === "dora-rts-tlpt");
    assert.ok(
      tlpt.length > 0 &&
        tlpt.every((d) => d.reasons.undetermined_by?.facts.includes("identified_for_tlpt = true")),
    );
  });

  test("the micro payment institution under the PSD2 waiver: the simplified framework, not Title II or TLPT", () => {
    const r = register("lt-micro-payment-institution");
    const applicable = articles(r.applicable);
    assert.ok(applicable.has("dora/art_16"));
    assert.ok(
      ![...applicable].some((a) => a.startsWith("dora-rts-tlpt/")),
      "TLPT binds only identified entities",
    );
    assert.ok(!r.undetermined.some((d) => d.act === "dora-rts-tlpt"), "DORA Art 26(1) excludes it outright");
    const titleII = r.excluded.filter((d) => d.act === "dora-rts-ict-risk");
    assert.ok(titleII.length > 0);
    for (const d of titleII) assert.equal(d.derogation?.disapplied_node, "dora-rts-ict-risk/title_II");
    assert.ok(
      r.applicable.some((d) => d.act === "dora-rts-ict-risk"),
      "Title III binds it",
    );
    for (const a of ["dora/art_5", "dora/art_6"]) assert.ok(!applicable.has(a), a);
  });

  test("the micro AI provider keeps Art 17(1), modified by Art 63; no GPAI or third-country duties", () => {
    const r = register("nl-micro-high-risk-ai-provider");
    const qms = r.applicable.filter((d) => d.act === "ai-act" && d.unit_eid.startsWith("art_17__para_1"));
    assert.ok(qms.length > 0, "Art 63 simplifies the quality management system; it does not lift it");
    for (const d of qms)
      assert.deepEqual(
        d.modified_by.map((m) => m.provision),
        ["ai-act/art_63__para_1"],
      );
    assert.ok(!r.excluded.some((d) => d.unit_eid.startsWith("art_17")));
    const ai = articles(r.applicable);
    for (const a of ["ai-act/art_53", "ai-act/art_54", "ai-act/art_55", "ai-act/art_22"])
      assert.ok(!ai.has(a), a);
    assert.ok(r.out_of_scope.some((o) => o.rule === "ai-act-general-purpose-ai-models"));
    assert.ok(r.derived.some((d) => d.startsWith("enterprise_size = micro")));
  });

  test("the small device maker's MDR Art 15(1) stays, modified by Art 15(2)", () => {
    const r = register("at-small-medical-device-manufacturer");
    const prrc = r.applicable.filter((d) => d.act === "mdr" && d.unit_eid.startsWith("art_15__para_1"));
    assert.ok(prrc.length > 0);
    for (const d of prrc)
      assert.deepEqual(
        d.modified_by.map((m) => m.provision),
        ["mdr/art_15__para_2"],
      );
    assert.ok(
      r.out_of_scope.some((o) => o.act === "nis2"),
      "below NIS2's size cap, none of Art 2(2)-(4)",
    );
  });

  test("a right held against the controller is the controller's duty (GDPR Arts 16, 17, 20)", () => {
    const r = register("pl-small-online-marketplace");
    const gdpr = articles(r.applicable);
    for (const a of ["gdpr/art_16", "gdpr/art_17", "gdpr/art_20"]) assert.ok(gdpr.has(a), a);
    const erasure = r.applicable.find(
      (d) => d.unit_eid.startsWith("art_17__para_1__point") && d.reasons.correlative,
    );
    assert.ok(erasure);
    assert.match(erasure.basis, /correlative duty of a right held against controller/u);
  });

  test("a duty that turns on an unstated fact is undetermined, naming the fact", () => {
    for (const [id, r] of registers) {
      for (const d of r.undetermined) {
        assert.ok(
          d.reasons.undetermined_by && d.reasons.undetermined_by.facts.length > 0,
          `${id}: ${d.atom}`,
        );
        assert.ok(d.note.length > 0);
      }
    }
    const dpo = register("pl-small-online-marketplace").undetermined.filter((d) =>
      d.unit_eid.startsWith("art_37"),
    );
    assert.ok(dpo.length > 0, "GDPR Art 37 turns on the firm's core activities");
  });

  test("a firm that may pay and be paid: the payer's and payee's duties are undetermined until it says", () => {
    // PSD2 Art 1(2)(b): the Directive sets the obligations of payment service users too; any firm may
    // be one, so the electricity operator, which states nothing about its payments, is told which.
    const dso = release.profiles.find((p) => p.id === "es-electricity-dso-essential-entity");
    assert.ok(dso);
    const psd2 = (r: Register) => items(r).filter((d) => d.act === "psd2");
    const unsaid = psd2(register(dso.id));
    const charges = unsaid.find((d) => d.unit_eid === "art_62__para_4");
    assert.equal(charges?.status, "undetermined", "the payee's ban on surcharges turns on being a payee");
    assert.deepEqual(charges?.reasons.undetermined_by, {
      provision: "psd2/art_4__point_9",
      facts: ["psd2_payee = true"],
    });
    assert.match(charges?.note ?? "", /binds a payee .*does not state psd2_payee = true/);
    const instrument = unsaid.find((d) => d.unit_eid.startsWith("art_69__para_1"));
    assert.deepEqual(instrument?.reasons.undetermined_by?.facts, ["psd2_payer = true", "psd2_payee = true"]);
    assert.ok(
      unsaid.every((d) => d.status === "undetermined"),
      "nothing of PSD2 binds it as a given, and no provider's duty (an authorisation, Art 11) is listed at all",
    );
    assert.ok(!unsaid.some((d) => d.unit_eid.startsWith("art_11")));

    const payee = decideFor(engine, { ...dso, facts: { ...dso.facts, psd2_payee: true } }, AS_OF);
    const bound = payee.applicable.find((d) => d.atom.unit_eid === "art_62__para_4" && d.atom.act === "psd2");
    assert.ok(
      bound?.reasons.through_national_law,
      "a payee is bound through the national law transposing Art 62(4)",
    );
    assert.ok(payee.derived.some((d) => d.startsWith("payee (psd2/art_4__point_9")));

    // A duty that also turns on another unstated fact names both (PSD2 Art 55 for the money remitter:
    // a payment service user's, within framework contracts it does not say it concludes).
    const framework = register("lt-micro-payment-institution").undetermined.find(
      (d) => d.act === "psd2" && d.unit_eid === "art_55__para_2",
    );
    assert.match(framework?.note ?? "", /psd2_payer = true.*psd2_concludes_framework_contracts = true/u);
    const neither = decideFor(
      engine,
      { ...dso, facts: { ...dso.facts, psd2_payer: false, psd2_payee: false } },
      AS_OF,
    );
    assert.ok(!neither.undetermined.some((d) => d.atom.act === "psd2"));
    assert.ok(
      neither.out_of_scope.some((o) => o.act === "psd2" && o.rule === "psd2"),
      "then PSD2 is out of scope, once",
    );
  });

  test("a money remitter: what binds only the payee's provider, or only transactions within the Union, waits for its facts", () => {
    // PSD2 Art 2(4) disapplies Arts 81, 83(1), 89 and 92 (among others) where only one provider is in
    // the Union, and Arts 49, 84 and 87 bind the provider that receives funds for the payee; a money
    // remitter may only send (Art 4(22)), and its transfers may all leave the Union.
    const lt = release.profiles.find((p) => p.id === "lt-micro-payment-institution");
    assert.ok(lt);
    const psd2 = (r: Register, art: string) =>
      items(r).filter((d) => d.act === "psd2" && d.unit_eid.split("__")[0] === art);
    for (const art of ["art_81", "art_89", "art_92"])
      for (const d of psd2(register(lt.id), art)) {
        assert.equal(d.status, "undetermined", `${d.atom}`);
        assert.ok(d.reasons.undetermined_by?.facts.includes("psd2_both_providers_in_union = true"), d.atom);
      }
    for (const art of ["art_49", "art_84"])
      for (const d of psd2(register(lt.id), art))
        assert.ok(d.reasons.undetermined_by?.facts.includes("psd2_provider_of_payees = true"), d.atom);
    assert.ok(psd2(register(lt.id), "art_89").length > 0);
    // Strong customer authentication (Art 97(1)): online access, electronic or remote initiation.
    for (const d of psd2(register(lt.id), "art_97"))
      assert.ok(d.reasons.undetermined_by?.facts.includes("psd2_electronic_initiation = true"), d.atom);
    // The universal bank states both, and keeps accounts for payees: each binds it.
    const de = register("de-large-bank");
    for (const art of ["art_49", "art_81", "art_84", "art_89", "art_92", "art_97"])
      assert.ok(articles(de.applicable).has(`psd2/${art}`), `de-large-bank: psd2/${art}`);
    const within = decideFor(
      engine,
      { ...lt, facts: { ...lt.facts, psd2_both_providers_in_union: true } },
      AS_OF,
    );
    assert.ok(within.applicable.some((d) => d.atom.act === "psd2" && d.atom.unit_eid.startsWith("art_89")));
  });

  test("a firm that states it pays and is paid gets the payer's and payee's duties, and no provider's or any person's", () => {
    // PSD2 then reaches it as a payment service user only (Art 1(2)(b)): not the authorisation PSD2
    // requires of undertakings that provide payment services (Art 11), nor, through "person", duties other
    // acts put on any natural or legal person.
    const dso = release.profiles.find((p) => p.id === "es-electricity-dso-essential-entity");
    assert.ok(dso);
    const user = decideFor(
      engine,
      { ...dso, facts: { ...dso.facts, psd2_payer: true, psd2_payee: true } },
      AS_OF,
    );
    const bound = new Set(
      user.applicable.filter((d) => d.atom.act === "psd2").map((d) => d.atom.unit_eid.split("__")[0]),
    );
    for (const art of ["art_62", "art_69", "art_80"]) assert.ok(bound.has(art), `psd2/${art}, a user's duty`);
    for (const art of ["art_6", "art_11", "art_24", "art_32"])
      assert.ok(!bound.has(art), `psd2/${art}, a provider's`);
    // Owed to the user, not the user's: the provider's reasonable charges (Art 40(3), "they" being the
    // charges the provider imposes) and its information before a single payment contract binds the user
    // (Art 44(1), whose subject follows the "before …" clause); and no conduct at all: when a claim for
    // rectification stands (Art 71), what it may not invoke (Art 76(2)), when a charge is owed (Art 60(3)).
    const paras = new Set(user.applicable.filter((d) => d.atom.act === "psd2").map((d) => d.atom.unit_eid));
    for (const eid of [
      "art_40__para_3",
      "art_44__para_1",
      "art_71__para_1",
      "art_71__para_2",
      "art_76__para_2",
      "art_60__para_3",
    ])
      assert.ok(!paras.has(eid), `psd2/${eid} is no payer's or payee's duty`);
    const elsewhere = (r: ReturnType<typeof decideFor>) =>
      r.applicable
        .filter((d) => d.atom.act !== "psd2")
        .map((d) => `${d.atom.node} ${d.atom.char_start}`)
        .sort();
    assert.deepEqual(
      elsewhere(user),
      elsewhere(decideFor(engine, dso, AS_OF)),
      "no other act's duty is gained",
    );
  });

  test("Data Act Art 20(1): a micro or small data holder owes no free emergency data; its duty to show its costs waits for a claim", () => {
    const lt = items(register("lt-micro-payment-institution")).filter(
      (d) => d.act === "data-act" && d.unit_eid.startsWith("art_20"),
    );
    const free = lt.find((d) => d.unit_eid === "art_20__para_1");
    assert.equal(free?.status, "excluded");
    assert.match(JSON.stringify(free?.reasons), /data-act\/art_20__para_1/u);
    const costs = lt.find((d) => d.unit_eid === "art_20__para_2");
    assert.equal(costs?.status, "undetermined");
    assert.ok(costs?.reasons.undetermined_by?.facts.includes("data_act_claims_compensation = true"));
    const de = register("de-large-bank").applicable.filter(
      (d) => d.act === "data-act" && d.unit_eid === "art_20__para_1",
    );
    assert.ok(de.length > 0, "a large data holder gives emergency data free of charge");
  });

  test("coverage --explain gives the same reasons as the payload; the report is headed by counts", () => {
    const r = register("nl-micro-high-risk-ai-provider");
    const qms = r.applicable.find((d) =>
      d.unit_eid.startsWith("art_17__para_1"),
    ) as Register["applicable"][number];
    const args = ["coverage", "--profile", "nl-micro-high-risk-ai-provider", "--as-of", AS_OF];
    const json = acquis([...args, "--explain", qms.atom, "--format", "json"]);
    assert.equal(json.status, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout).reasons, qms.reasons);
    const text = acquis([...args, "--explain", qms.atom]);
    assert.match(text.stdout, /modified by: ai-act\/art_63__para_1/u);
    assert.match(text.stdout, /scope: +ai-act\/art_2__para_1/u);
    const led = release.atoms.find((a) => a.act === "led" && a.modality === "obligation");
    const out = acquis([...args, "--explain", led?.id ?? ""]);
    assert.match(out.stdout, /not in the register: outside the scope of led: led\/art_2__para_1/u);
    const report = acquis(args);
    assert.match(report.stdout, /Applicable: \d+\. Excluded: \d+\. Undetermined: \d+\./u);
    assert.match(report.stdout, /\| act \| applicable \| excluded \| undetermined \|/u);
    const bad = acquis([...args, "--explain", "atm_nothinghere"]);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /no atom "atm_nothinghere"/u);
  });

  test("rules 11 in the release: a document its article's holder keeps, a State's lead-in parties, a directive's required parties, the first named public holder", () => {
    const atom = (node: string) => {
      const a = release.atoms.find((x) => x.node === node);
      assert.ok(a, node);
      return a;
    };
    // "Each health data access body shall publish an activity report … That activity report shall
    // contain: (a) …" (EHDS Art 59(1)): the body's report, not also the digital health authority's.
    assert.deepEqual(atom("ehds/art_59__para_1__point_a").applies_to, ["health_data_access_body"]);
    // "The Member States or competent authorities shall require a payment institution … to safeguard
    // all funds … in either of the following ways: (a) …" (PSD2 Art 10(1)).
    const safeguarding = atom("psd2/art_10__para_1__point_a");
    assert.equal(safeguarding.addressee, "member_state");
    assert.deepEqual(safeguarding.through_national_law, ["payment_institution"]);
    // "Companies shall be required to take the following appropriate measures" (CSDDD Art 10(2)).
    const measures = atom("csddd/art_10__para_2__point_c");
    assert.deepEqual(
      [measures.addressee, measures.through_national_law],
      ["member_state", ["csddd_company"]],
    );
    // "the Commission and Member States shall … develop international cooperation mechanisms" (LED Art 40).
    assert.equal(atom("led/art_40__point_a").addressee, "union_body");
  });

  test("rules 12 in the release: conditions complete their lead-in; a demonstrative thing, an agreement and a conferred power are held by whom the text says; a non-EU entity's representative waits for the fact", () => {
    const atomsOf = (node: string) => release.atoms.filter((x) => x.node === node);
    // "personal data … may be processed … when all of the following conditions are met: (i) …" (AI Act
    // Art 59(1)): each condition is a point of the permission, held as the lead-in is.
    const condition = atomsOf("ai-act/art_59__para_1__point_i");
    assert.deepEqual(
      condition.map((a) => a.modality),
      ["permission"],
    );
    // "Such decision to refuse the status of authorised CBAM declarant shall provide the reasons" (CBAM
    // Art 17(3)): the refusing authority's, not the declarant's.
    const refusal = atomsOf("cbam/art_17__para_3").find((a) => a.actor.startsWith("Such decision"));
    assert.equal(refusal?.addressee, "public_authority");
    // "For the purposes of this Regulation, market manipulation shall comprise …" (MiCA Art 91(2)): a
    // definition, no one's duty.
    assert.deepEqual(atomsOf("mica/art_91__para_2__point_a"), []);
    // "… an agreement between the manufacturer, the incoming notified body and, where practicable the
    // outgoing notified body. That agreement shall cover …" (MDR Art 58(1)): each party's.
    assert.deepEqual(atomsOf("mdr/art_58__para_1__point_a")[0]?.applies_to, [
      "medical_device_manufacturer",
      "notified_body",
    ]);
    // "The delegation of power referred to in Article 12(8) and Article 43(8) shall be conferred on the
    // Commission" (GDPR Art 92(2)): the Commission's power, not the Parliament's named after it.
    assert.deepEqual(atomsOf("gdpr/art_92__para_2")[0]?.applies_to, ["commission"]);
    // ADCO, the administrative cooperation group of the market surveillance authorities (Regulation
    // 2019/1020 Art 30(2)), is a Union-level group (CRA Art 52(15)); the EDIB advises under the Data Act too.
    const adco = atomsOf("cra/art_52__para_15");
    assert.ok(adco.length > 0 && adco.every((a) => a.addressee === "union_body"));
    assert.equal(atomsOf("data-act/art_32__para_3__subpara_3")[0]?.addressee, "union_body");
    // "If an entity as referred to in paragraph 1, point (b), is not established in the Union, … it shall
    // designate a representative" (NIS2 Art 26(3)): the entity's, for an entity established outside
    // the Union only.
    const representative = atomsOf("nis2/art_26__para_3")[0];
    assert.equal(representative?.addressee, "regulated_party");
    const es = release.profiles.find((p) => p.id === "es-electricity-dso-essential-entity");
    assert.ok(es);
    const bound = (r: ReturnType<typeof decideFor>) =>
      r.applicable.some((d) => d.atom.node === "nis2/art_26__para_3");
    assert.equal(bound(decideFor(engine, es, AS_OF)), false);
    assert.equal(
      bound(decideFor(engine, { ...es, facts: { ...es.facts, jurisdiction: "NON_EU" } }, AS_OF)),
      true,
    );
  });

  test("rules 13 in the release: a notification's, a monitoring's, a vote's and a scheme's holder, a deemed manufacturer's obligations, the due diligence statement's contents", () => {
    const atomsOf = (node: string) => release.atoms.filter((x) => x.node === node);
    // "The notification referred to in paragraph 1 shall at least: …" (GDPR Art 33(3)) is the
    // controller's, who "shall without undue delay and, where feasible, … notify" in paragraph 1; the
    // processor only notifies the controller (paragraph 2).
    assert.deepEqual(atomsOf("gdpr/art_33__para_3__point_c")[0]?.applies_to, ["controller"]);
    // "The monitoring of notified bodies by the authority responsible for notified bodies shall include
    // observed audits" (IVDR Art 40(5)): the authority's, not the bodies'.
    assert.deepEqual(atomsOf("ivdr/art_40__para_5")[0]?.applies_to, [
      "authority_responsible_for_notified_bodies",
    ]);
    // "adopted … by a two-thirds majority of the members of the Board" (GDPR Art 65(2)): the Board's.
    assert.equal(atomsOf("gdpr/art_65__para_2")[0]?.addressee, "union_body");
    // What a European cybersecurity certification scheme shall include (Cybersecurity Act Art 54(1)):
    // the Commission's, which adopts the scheme.
    assert.deepEqual(atomsOf("cybersecurity-act/art_54__para_1__point_a")[0]?.applies_to, ["commission"]);
    // "An importer, distributor or user shall be considered a manufacturer … and shall be subject to
    // the obligations laid down in Article 30 where they: (a) …" (EHDS Art 34): each condition binds them.
    const deemed = atomsOf("ehds/art_34__point_c");
    assert.ok(
      deemed.length === 1 &&
        deemed[0]?.modality === "obligation" &&
        deemed[0].addressee === "regulated_party",
    );
    // The geolocation the due diligence statement gives (EUDR Annex II) is the operator's (Art 4(2)).
    const geolocation = atomsOf("eudr/anx_II");
    assert.ok(geolocation.length > 0 && geolocation.every((a) => a.applies_to.includes("eudr_operator")));
    // "The Approval Authority or the Technical Service shall verify the provided information" (UN R155
    // para 7.4.2): the authority named first holds it, the technical service sharing it.
    const verify = atomsOf("un-r155/art_7__para_7.4.2")[0];
    assert.equal(verify?.addressee, "public_authority");
    assert.deepEqual(verify?.applies_to, ["approval_authority", "technical_service"]);
    // MiFIR's trading obligation binds EMIR's financial counterparties, investment firms and credit
    // institutions among them, to trade only on the venues it lists (Art 28(1)).
    const venues = atomsOf("mifir/art_28__para_1__point_b")[0];
    assert.equal(venues?.modality, "prohibition");
    assert.ok(
      venues?.applies_to.includes("investment_firm") && venues.applies_to.includes("credit_institution"),
    );
    // … when it concludes, as a counterparty, derivatives subject to that obligation: not the Dutch
    // investment firm that only passes client orders to brokers.
    const nl = profile("nl-investment-firm");
    const trading = "mifir/art_28";
    assert.equal(binds(nl, trading), false);
    assert.equal(
      binds(nl, trading, { mifir_concludes_derivatives_subject_to_trading_obligation: true }),
      true,
    );
    // "Any distributor, importer, deployer or other third-party shall be considered to be a provider …
    // and shall be subject to the obligations of the provider under Article 16, in any of the following
    // circumstances: (a) …" (AI Act Art 25(1)): a deployer takes them on only in those circumstances.
    const de = profile("de-large-bank");
    assert.ok(de.entity_types.includes("ai_deployer"));
    assert.equal(binds(de, "ai-act/art_25__para_1"), false);
    assert.equal(binds(de, "ai-act/art_25__para_1", { ai_becomes_provider_of_high_risk_system: true }), true);
    // MDR Art 16(1): an importer takes on the manufacturer's obligations only "if it does any of the
    // following" (its name on the device, a changed intended purpose, a modification).
    const importer = {
      ...profile("at-small-medical-device-manufacturer"),
      entity_types: ["medical_device_importer"],
    };
    assert.equal(binds(importer, "mdr/art_16__para_1"), false);
    assert.equal(binds(importer, "mdr/art_16__para_1", { takes_on_manufacturer_obligations: true }), true);
    // AI Act Annex XI is the technical documentation of a general-purpose AI model (Art 53(1)(a)), and
    // Annex XII what its provider gives downstream providers (Art 53(1)(b)): not a high-risk system's.
    for (const annex of ["ai-act/anx_XI", "ai-act/anx_XII"]) {
      const held = atomsOf(annex);
      assert.ok(
        held.length > 0 && held.every((a) => a.applies_to.join() === "provider_of_general_purpose_ai_model"),
        annex,
      );
    }
    // "The delegation of power shall be tacitly extended …" (IVDR Art 108(2)): no one's duty.
    assert.ok(atomsOf("ivdr/art_108__para_2").every((a) => !a.actor.startsWith("The delegation of power")));
  });
});
