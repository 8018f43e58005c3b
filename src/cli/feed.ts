import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { feedChanges, releaseRef } from "../feed/changes.ts";
import { matches, readFilter } from "../feed/filter.ts";
import { jsonFeed, rssFeed } from "../feed/render.ts";
import type { DiffManifest } from "../release/diff.ts";
import { openRelease } from "./release-ref.ts";
import { defaultRoot } from "./root.ts";

const collect = (v: string, prev: string[]) => [...prev, v];

export function registerFeed(program: Command): void {
  program
    .command("feed")
    .description("render the change feed of one release from its diff manifest, without a server")
    .argument("<release>", "release, e.g. eu@2026.11.2")
    .option("--format <format>", "json (JSON Feed 1.1) or rss (RSS 2.0)", "json")
    .option(
      "--filter <dimension=terms>",
      "narrow like a subscription, e.g. entity_type=controller or jurisdiction=EU,UNECE (repeatable)",
      collect,
      [],
    )
    .option("--base-url <url>", "address the feed's links are written against", "http://127.0.0.1:8787")
    .option("--root <dir>", "repository root", defaultRoot())
    .addHelpText(
      "after",
      `
The items are byte-identical to those the feed service serves for the same release and filter.

Example:
  acquis feed eu@2026.11.2 --format rss --filter entity_type=credit_institution`,
    )
    .action((ref: string, o: { format: string; filter: string[]; baseUrl: string; root: string }) => {
      if (o.format !== "json" && o.format !== "rss")
        throw new Error(`--format "${o.format}" is not json or rss`);
      const raw: Record<string, string[]> = {};
      for (const f of o.filter) {
        const i = f.indexOf("=");
        if (i <= 0) throw new Error(`--filter "${f}" is not dimension=terms`);
        raw[f.slice(0, i)] = [...(raw[f.slice(0, i)] ?? []), ...f.slice(i + 1).split(",")];
      }
      const filter = readFilter(raw);
      const release = openRelease(resolve(o.root), ref);
      const manifest = JSON.parse(
        readFileSync(join(release.dir, `${release.meta.tag}.diff.json`), "utf8"),
      ) as DiffManifest;
      const changes = feedChanges(release, manifest).filter((c) => matches(filter, c, release.taxonomy));
      const published = [{ release: releaseRef(release), changes }];
      const base = o.baseUrl.replace(/\/+$/u, "");
      process.stdout.write(
        o.format === "json"
          ? `${JSON.stringify(jsonFeed(published, { baseUrl: base, filter }), null, 2)}\n`
          : rssFeed(published, { baseUrl: base, filter }),
      );
    });
}
