/**
 * How far two readers agree on the same atoms, by the definitions score.ts grades the extractor with:
 * what the targets of docs/obligations.md ("Atom quality") can mean when two careful readers of the same
 * text already differ.
 *
 *   node eval/atoms/agreement.ts <labels A> <labels B> [--disagreements] [--json]
 *
 * Only the items both files label (same n and node) are compared. The actor is compared over the items
 * both readers call a duty or permission of someone: the same words once determiners and plurals are set
 * aside, or the same entity types through the actor map.
 */
import { join } from "node:path";
import { inWorkingTree } from "../../src/canon/reader.ts";
import { readObligationsCanon } from "../../src/obligations/canon.ts";
import { ActorMap } from "../../src/obligations/taxonomy.ts";
import { type Label, readLabels, sameHolder } from "./score.ts";

export interface Agreement {
  items: number;
  modality: number;
  addressee: number;
  actor: number;
  actor_items: number;
  /** Items where the readers agree on modality and addressee: the consensus a score can be read on. */
  consensus: number[];
  disagreements: { n: number; node: string; what: string; a: string; b: string }[];
}

export function agreement(a: Label[], b: Label[], map: ActorMap): Agreement {
  const other = new Map(b.map((l) => [`${l.n} ${l.node}`, l]));
  const s: Agreement = {
    items: 0,
    modality: 0,
    addressee: 0,
    actor: 0,
    actor_items: 0,
    consensus: [],
    disagreements: [],
  };
  for (const x of a) {
    const y = other.get(`${x.n} ${x.node}`);
    if (!y) continue;
    s.items++;
    const differ = (what: string, p: string, q: string) =>
      s.disagreements.push({ n: x.n, node: x.node, what, a: p, b: q });
    if (x.modality === y.modality) s.modality++;
    else differ("modality", x.modality, y.modality);
    if (x.addressee === y.addressee) s.addressee++;
    else differ("addressee", x.addressee, y.addressee);
    if (x.modality === y.modality && x.addressee === y.addressee) s.consensus.push(x.n);
    if (x.actor && y.actor && x.modality !== "none" && y.modality !== "none") {
      s.actor_items++;
      if (sameHolder(x.actor, y.actor, x.node.slice(0, x.node.indexOf("/")), map)) s.actor++;
      else differ("actor", x.actor, y.actor);
    }
  }
  return s;
}

if (import.meta.main) {
  const files = process.argv.slice(2).filter((f) => !f.startsWith("--"));
  if (files.length !== 2)
    throw new Error("usage: node eval/atoms/agreement.ts <labels A> <labels B> [--disagreements] [--json]");
  const canon = readObligationsCanon(inWorkingTree(join(import.meta.dirname, "..", "..")), "eu");
  const s = agreement(
    readLabels(files[0] as string),
    readLabels(files[1] as string),
    new ActorMap(canon.taxonomy),
  );
  const pct = (n: number, d: number) => `${((n / Math.max(1, d)) * 100).toFixed(1)} %`;
  if (process.argv.includes("--json")) process.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
  else {
    process.stdout.write(
      `${s.items} atoms labelled by both readers\n` +
        `  modality  ${pct(s.modality, s.items)}\n  addressee ${pct(s.addressee, s.items)}\n` +
        `  actor     ${pct(s.actor, s.actor_items)} of ${s.actor_items} both readers name a holder for\n` +
        `  ${s.consensus.length} items agreed on modality and addressee\n`,
    );
    if (process.argv.includes("--disagreements"))
      for (const d of s.disagreements)
        process.stdout.write(`  #${d.n} ${d.node} ${d.what}: ${d.a} / ${d.b}\n`);
  }
}
