/**
 * Acts whose scope is a specialised domain: a question reaches them at full weight only when it is about
 * that domain. The Law Enforcement Directive restates much of the GDPR for police and criminal-justice
 * authorities, so "when must a controller notify a personal data breach?" finds both; the everyday act
 * (the GDPR) should lead unless the question is about police or criminal matters (issue 14, "act priors").
 */
import type { Engine } from "../context.ts";

interface Gate {
  act: string;
  /** Words that make a question about the act's domain (matched case-insensitively, as word starts). */
  domain: RegExp;
  /** A provision of the act counts at this share of its score otherwise. */
  weight: number;
}

export const GATES: Gate[] = [
  {
    act: "led",
    domain:
      /\b(?:police|policing|criminal|crime|crimes|law enforcement|prosecut\w*|offence|offences|offender|suspect\w*|investigat\w*|judicial|court|courts|prison|security services|border)\b/iu,
    weight: 0.5,
  },
];

/** Per act of the engine, the weight its provisions count at for this question (1 unless gated). */
export function actGates(e: Engine, query: string): Float64Array | null {
  let out: Float64Array | null = null;
  for (const g of GATES) {
    if (g.domain.test(query)) continue;
    const i = e.actOrder.indexOf(g.act);
    if (i < 0) continue;
    out ??= new Float64Array(e.actOrder.length).fill(1);
    out[i] = g.weight;
  }
  return out;
}
