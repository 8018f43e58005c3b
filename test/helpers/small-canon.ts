/** A small taxonomy and fact schema for the obligations unit tests: a few regulated parties and a State. */
import { parseFactSchema } from "../../src/obligations/facts.ts";
import { parseTaxonomy } from "../../src/obligations/taxonomy.ts";

export const smallTaxonomy = parseTaxonomy(
  `entity_types:
  - { id: undertaking, label: undertaking, parents: [], defined_in: x }
  - { id: operator, label: operator, parents: [undertaking], defined_in: x }
  - { id: manufacturer, label: manufacturer, parents: [operator], defined_in: x }
  - { id: importer, label: importer, parents: [operator], defined_in: x }
  - { id: microenterprise, label: microenterprise, parents: [], defined_in: x }
  - { id: member_state, label: Member State, parents: [], defined_in: x, addressee: member_state }
`,
  null,
  "x",
);
export const smallSchema = parseFactSchema(
  {
    facts: {
      staff_headcount: { type: "integer", about: "staff" },
      exports: { type: "boolean", about: "exports" },
    },
  },
  "facts.yaml",
);
