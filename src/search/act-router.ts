/**
 * The act router's canon (regimes/<regime>/act-router.json) and its place in the chunk index.
 *
 * Everyday questions go wrong mostly at the first step: which act they are about. A question about a
 * stolen backup tape shares its incidental words with DORA's ICT-risk articles, not with the GDPR's
 * breach articles it is about. The router learns, per act, the words people use when they ask about it:
 * term counts from questions whose gold act is known (the dev split of eval/independent, never the
 * held-out split), written by `node eval/train-router.ts`. It holds counts, not questions. The engine
 * mixes them with each act's own words into a per-act language model (src/engine/query/act-router.ts).
 */

export const ROUTER_FORMAT = "acquis-act-router/1";

export interface RouterFile {
  format: typeof ROUTER_FORMAT;
  /** Where the counts come from, for a reader of the release. */
  trained_on: string;
  /** The share of an act's word model that comes from questions (the rest: the act's own text). */
  question_weight: number;
  /** How strongly the router's preference scales a provision's score: weight = exp(sharpness × Δ log-likelihood). */
  sharpness: number;
  /** Per act id: how many training questions name it as gold, and their analysed terms' counts. */
  acts: Record<string, { questions: number; terms: Record<string, number> }>;
}

/** Validate a router file's text; `source` names it in errors. */
export function parseRouter(text: string, source: string): RouterFile {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new Error(`${source}: not JSON: ${(e as Error).message}`);
  }
  const r = doc as Partial<RouterFile>;
  if (typeof doc !== "object" || doc === null || r.format !== ROUTER_FORMAT)
    throw new Error(`${source}: format must be "${ROUTER_FORMAT}"`);
  const share = (x: unknown) => typeof x === "number" && x > 0 && x < 1;
  if (!share(r.question_weight)) throw new Error(`${source}: question_weight must be a number in (0, 1)`);
  if (typeof r.sharpness !== "number" || !(r.sharpness > 0))
    throw new Error(`${source}: sharpness must be a positive number`);
  if (typeof r.trained_on !== "string") throw new Error(`${source}: trained_on must be a string`);
  if (typeof r.acts !== "object" || r.acts === null) throw new Error(`${source}: acts must be an object`);
  for (const [act, a] of Object.entries(r.acts)) {
    const count = (x: unknown) => Number.isInteger(x) && (x as number) > 0;
    if (!count(a?.questions)) throw new Error(`${source}: acts.${act}.questions must be a positive integer`);
    for (const [t, n] of Object.entries(a.terms ?? {}))
      if (!count(n)) throw new Error(`${source}: acts.${act}.terms["${t}"] must be a positive integer`);
  }
  return r as RouterFile;
}
