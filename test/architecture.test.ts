/**
 * The layers of src/ (docs/architecture.md): data flows contract → canon → obligations → release →
 * engine → serve and feed → cli, and no import runs back up. A folder that is not in the table fails
 * here until it is given a layer. And no function of src/ runs over 80 lines (issue 18), except the
 * pending ones listed below with the reason each waits.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { test } from "node:test";
import {
  isBinaryExpression,
  isClassDeclaration,
  isClassExpression,
  isConstructorDeclaration,
  isFunctionDeclaration,
  isFunctionExpression,
  isGetAccessorDeclaration,
  isMethodDeclaration,
  isPropertyAssignment,
  isPropertyDeclaration,
  isSetAccessorDeclaration,
  isVariableDeclaration,
  type Node,
  type SourceFile,
  SyntaxKind,
} from "typescript/unstable/ast";
import { API } from "typescript/unstable/sync";

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

/**
 * Issue 18: no function in src/ over 80 lines. A function's length runs from the line of its first token
 * to the line of its closing brace, nested functions included. Measured are function declarations,
 * methods, constructors, accessors, and arrow functions and function expressions assigned to a name
 * (a variable, a property, a class field, an assignment); an anonymous callback counts toward the
 * function around it, and one at module level, outside every function, is measured as "(anonymous)".
 */
const MAX_LINES = 80;

/**
 * The functions still over the limit, "path name" → why each is still pending. The list only
 * shrinks: a function that falls to the limit fails the second test until its entry is removed.
 * Empty since issue 18's last three were split; kept so a function that must wait names its reason.
 */
const PENDING: Record<string, string> = {};

interface Measured {
  path: string;
  line: number;
  name: string;
  lines: number;
}

const FUNCTION_KINDS = new Set<SyntaxKind>([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
  SyntaxKind.ArrowFunction,
  SyntaxKind.FunctionExpression,
]);

/** The name a function goes by: its own, or the one it is assigned to; undefined when anonymous. */
function functionName(node: Node, file: SourceFile): string | undefined {
  const text = (named: Node | undefined) => named?.getText(file);
  const member = (name: string | undefined) =>
    name !== undefined && (isClassDeclaration(node.parent) || isClassExpression(node.parent))
      ? `${text(node.parent.name) ?? "(class)"}.${name}`
      : name;
  if (isFunctionDeclaration(node)) return text(node.name);
  if (isMethodDeclaration(node) || isGetAccessorDeclaration(node) || isSetAccessorDeclaration(node))
    return member(text(node.name));
  if (isConstructorDeclaration(node)) return member("constructor");
  if (isFunctionExpression(node) && node.name) return text(node.name);
  const holder = node.parent;
  if (isVariableDeclaration(holder) || isPropertyAssignment(holder)) return text(holder.name);
  if (isPropertyDeclaration(holder)) return member(text(holder.name));
  if (isBinaryExpression(holder) && holder.operatorToken.kind === SyntaxKind.EqualsToken)
    return text(holder.left);
  return undefined;
}

/** Every measured function of src/, read with the TypeScript compiler (one tsgo process, closed after). */
function measureSrc(): Measured[] {
  const root = join(SRC, "..");
  const api = new API({ cwd: root });
  try {
    const project = api.updateSnapshot({ openProject: join(root, "tsconfig.json") }).getProjects()[0];
    assert.ok(project, "tsconfig.json opens as a project");
    const measured: Measured[] = [];
    for (const path of files(SRC).sort()) {
      const file = project.program.getSourceFile(path);
      assert.ok(file, `${path} is part of the tsconfig.json program`);
      const visit = (node: Node, inFunction: boolean): undefined => {
        let inside = inFunction;
        if (FUNCTION_KINDS.has(node.kind)) {
          const name = functionName(node, file) ?? (inFunction ? undefined : "(anonymous)");
          if (name !== undefined) {
            const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
            const last = file.getLineAndCharacterOfPosition(node.end).line;
            measured.push({ path: relative(root, path), line: first + 1, name, lines: last - first + 1 });
          }
          inside = true;
        }
        node.forEachChild((child) => visit(child, inside));
        return undefined;
      };
      visit(file, false);
    }
    return measured;
  } finally {
    api.close();
  }
}

let measuredSrc: Measured[] | undefined;
function longFunctions(): Measured[] {
  measuredSrc ??= measureSrc();
  return measuredSrc.filter((f) => f.lines > MAX_LINES);
}
const show = (f: Measured) => `${f.path}:${f.line} ${f.name} ${f.lines}`;

test(`no function in src/ is over ${MAX_LINES} lines unless it is listed as pending`, (t) => {
  const long = longFunctions();
  for (const f of long) t.diagnostic(`${show(f)}${`${f.path} ${f.name}` in PENDING ? " (pending)" : ""}`);
  assert.deepEqual(
    long.filter((f) => !(`${f.path} ${f.name}` in PENDING)).map(show),
    [],
    "split these by meaning, or list them in PENDING with the reason they wait",
  );
});

test(`every pending function is still over ${MAX_LINES} lines (the list only shrinks)`, () => {
  const long = new Set(longFunctions().map((f) => `${f.path} ${f.name}`));
  assert.deepEqual(
    Object.keys(PENDING).filter((key) => !long.has(key)),
    [],
    "these are split now: remove them from PENDING",
  );
});

test("no exported name is defined in two modules of src/ (one name per idea)", () => {
  const where = new Map<string, string[]>();
  for (const file of files(SRC)) {
    const names = new Set<string>();
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(
      /^export (?:declare )?(?:interface|type|class|function|const|enum|async function) ([A-Za-z_0-9]+)/gmu,
    ))
      names.add(m[1] as string);
    for (const n of names) where.set(n, [...(where.get(n) ?? []), relative(SRC, file)]);
  }
  const twice = [...where]
    .filter(([, files]) => files.length > 1)
    .map(([n, files]) => `${n}: ${files.join(", ")}`);
  assert.deepEqual(twice, []);
});
