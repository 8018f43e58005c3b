/**
 * The layers of src/ (docs/architecture.md): data flows contract → canon → obligations → release →
 * engine → serve and feed → cli, and no import runs back up. A folder that is not in the table fails
 * here until it is given a layer.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { test } from "node:test";

const SRC = join(import.meta.dirname, "..", "src");

/** Lower numbers sit lower: a module may import its own layer and the layers below it. */
const LAYERS: Record<string, number> = {
  contract: 0,
  canon: 1,
  obligations: 2,
  release: 3,
  search: 3,
  trust: 3,
  engine: 4,
  serve: 5,
  feed: 5,
  cli: 6,
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

const layerOf = (path: string) => relative(SRC, path).split("/")[0] as string;

test("every folder of src/ has a layer", () => {
  const folders = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory());
  assert.deepEqual(
    folders.filter((f) => !(f in LAYERS)),
    [],
    "give the folder a layer in test/architecture.test.ts and docs/architecture.md",
  );
});

test("no import runs back up a layer", () => {
  const upward: string[] = [];
  for (const file of files(SRC)) {
    const from = layerOf(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/gu)) {
      const target = normalize(join(dirname(file), m[1] as string));
      const to = layerOf(target);
      if ((LAYERS[to] ?? -1) > (LAYERS[from] ?? -1))
        upward.push(`${relative(SRC, file)} (${from}) imports ${relative(SRC, target)} (${to})`);
    }
  }
  assert.deepEqual(upward, []);
});
