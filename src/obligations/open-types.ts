/**
 * Types a firm may have without its register knowing (docs/obligations.md#open-types): any firm may pay
 * and be paid through payment service providers, so a profile that does not state it is a payer or a
 * payee may still be one. A duty held only by such a type is undetermined, naming the facts that would
 * decide it, instead of being silently dropped. A type a firm would know it has (identified as a
 * critical entity by its Member State) is derived, never open.
 */
import { evaluate, type Facts } from "./facts.ts";
import type { DerivedType, OpenTypes, ScopeVerdict } from "./scope.ts";
import { ancestors, type Taxonomy } from "./taxonomy.ts";

/**
 * The types an open derivation leaves open on the profile's facts, with their ancestors short of the
 * root kinds (a profile is an undertaking, and deliberately not a "person"): a payee is a payment
 * service user too. Each names the provision that says what it is.
 */
export function openTypes(tax: Taxonomy, derive: DerivedType[], facts: Facts, types: Set<string>): OpenTypes {
  const open: OpenTypes = new Map();
  const byId = new Map(tax.types.map((t) => [t.id, t]));
  for (const d of derive) {
    const v = d.open ? evaluate(d.when, [], facts) : null;
    if (v?.truth !== "unknown") continue;
    for (const t of ancestors(tax, [d.type])) {
      const type = byId.get(t);
      if (types.has(t) || !type || type.parents.length === 0) continue;
      const was = open.get(t);
      open.set(t, {
        label: type.label,
        provision: t === d.type ? d.provision : type.defined_in,
        facts: [...new Set([...(was?.facts ?? []), ...v.unknown])],
      });
    }
  }
  return open;
}

/** Why a duty held only by open types is undetermined: the first type's provision and every deciding fact. */
export function openReason(
  openly: string[],
  open: OpenTypes,
): { provision: string; facts: string[]; note: string } {
  const first = open.get(openly[0] as string) as { provision: string };
  const facts = [...new Set(openly.flatMap((t) => open.get(t)?.facts ?? []))];
  const who = openly.map((t) => open.get(t)?.label ?? t).join(" or ");
  return {
    provision: first.provision,
    facts,
    note: `binds a ${who} (${first.provision}); the profile does not state ${facts.join(" or ")}`,
  };
}

/**
 * Stated, an open type is a capacity: the types open derivations give, and what they are, short of
 * "person". Paying through a provider does not make a firm every "natural or legal person" an act
 * addresses.
 */
export function capacities(tax: Taxonomy, derive: DerivedType[]): Set<string> {
  return new Set(ancestors(tax, openlyDerived(derive)).filter((t) => t !== "person"));
}

/** The types a profile binds as, and every broader one; "person" only where a type it has, not a capacity, leads there. */
export function boundTypes(tax: Taxonomy, types: string[], derive: DerivedType[]): string[] {
  const open = new Set(openlyDerived(derive));
  const closed = ancestors(
    tax,
    types.filter((t) => !open.has(t)),
  );
  return ancestors(tax, types).filter((t) => t !== "person" || closed.includes("person"));
}

/**
 * An act that reaches a firm only in a capacity (PSD2: a payer or payee it states it is) applies only the
 * duties held in that capacity, not an undertaking's authorisation (Art 11).
 */
export function inCapacity(act: ScopeVerdict, held: string[], capacities: Set<string>): boolean {
  if (act.in !== true || !act.reach.types.every((t) => capacities.has(t))) return true;
  return held.some((t) => capacities.has(t));
}

const openlyDerived = (derive: DerivedType[]) => derive.filter((d) => d.open).map((d) => d.type);
