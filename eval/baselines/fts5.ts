/**
 * Baseline: SQLite FTS5 bm25() over whole articles, recitals and annexes, the approach peer MCP servers
 * for EU regulation take. One row per article (its heading and its full text, descendants included),
 * per recital and per annex (annexes too, because gold may sit in an annex and ours can return it);
 * porter + unicode61 tokenizer; the query's words each double-quoted and joined with OR; best 10 by
 * bm25(). No result means "out of scope".
 *
 * The node column is UNINDEXED: indexed, its ids ("gdpr/art_33") would let a query word such as "gdpr"
 * or "art" match every row of an act, which no peer does. Words are quoted because a question passed
 * to MATCH as it stands is FTS5 syntax: "data-breach" and "GDPR: breach" fail with "no such column"
 * ("-" and ":" are column filters), "Article 6(1)(f)" and "don't" are syntax errors, and "what is NOT
 * personal data" silently means "what is" minus "personal data".
 */
import { DatabaseSync } from "node:sqlite";
import type { Unit } from "../../src/canon/model.ts";
import type { System } from "../systems.ts";

const KINDS = new Set(["article", "recital", "annex"]);
const LIMIT = 10;

/** The query's word tokens, lowercased, each once, first occurrence order. */
export function ftsTokens(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
}

/** The MATCH expression: `"w1" OR "w2" ...`; tokens hold only letters and digits, so no quote escaping. */
export function ftsQuery(tokens: readonly string[]): string {
  return tokens.map((t) => `"${t}"`).join(" OR ");
}

export function fts5System(units: readonly Pick<Unit, "node" | "kind" | "heading" | "text">[]): System & {
  rows: number;
  close(): void;
} {
  const db = new DatabaseSync(":memory:");
  db.exec("CREATE VIRTUAL TABLE t USING fts5(node UNINDEXED, body, tokenize='porter unicode61')");
  const insert = db.prepare("INSERT INTO t (node, body) VALUES (?, ?)");
  let rows = 0;
  db.exec("BEGIN");
  for (const u of units) {
    if (!KINDS.has(u.kind)) continue;
    insert.run(u.node, u.heading ? `${u.heading}\n${u.text}` : u.text);
    rows++;
  }
  db.exec("COMMIT");
  // bm25() is negative, better is lower; rowid (corpus order) breaks ties so runs are deterministic.
  const search = db.prepare(`SELECT node FROM t WHERE t MATCH ? ORDER BY bm25(t), rowid LIMIT ${LIMIT}`);
  return {
    name: "fts5",
    rows,
    rank(query) {
      const tokens = ftsTokens(query);
      if (tokens.length === 0) return { units: [], outOfScope: true };
      const found = search.all(ftsQuery(tokens)).map((r) => String(r.node));
      return { units: found, outOfScope: found.length === 0 };
    },
    close: () => db.close(),
  };
}
