/**
 * The nouns the acts name parties by, singular or plural: one list for every reading that asks whether
 * a few words name a party rather than a thing (antecedents.ts, the subject in atoms.ts). Firms and
 * public bodies are apart: bodies named by name need no noun the firms share.
 */
export const FIRM_NOUN =
  "providers?|deployers?|manufacturers?|importers?|distributors?|operators?|controllers?|processors?|auditors?|authorit(?:y|ies)|bod(?:y|ies)|entit(?:y|ies)|institutions?|undertakings?|compan(?:y|ies)|issuers?|offerors?|intermediar(?:y|ies)|gatekeepers?|traders?|sponsors?|holders?|representatives?|payees?|payers?|firms?|investigators?|AIFMs?|marketplaces|platforms";

/** The public bodies named by name rather than by a noun the firms share ("authority", "body"). */
export const PUBLIC_NOUN =
  "Member States?|Commission|ESAs|ESMA|EBA|EIOPA|ENISA|ECB|MDCG|Board|AI Office|Lead Overseer";
