import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Redis is one backend among two (docs/ARCHITECTURE.md, src/app): only the backend, the Redis
 * store, the gate's Redis implementation and the migrator name it in code (comments may, and the
 * configuration reads REDIS_URL). Anything else that branched on it would make each part know
 * both modes again; it asks the Backend instead.
 */
const ROOT = join(import.meta.dirname, "..", "..");
const ALLOWED = [
  /^src\/app\/backend\//,
  /^src\/platform\/store\/redis\//,
  /^src\/platform\/gate\/redis[A-Z]\w*\.ts$/,
  /^src\/platform\/store\/(migrate|migrateCli|migrationTarget|adoptWorkspace)\.ts$/,
  /^src\/app\/config\.ts$/,
];

/** The code of a TypeScript file without its comments (a `//` inside a string, as in a URL, is kept). */
function codeOf(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

describe("Redis is named only by its backend", () => {
  it("no other source file names Redis or BullMQ in code", () => {
    const files = execFileSync("git", ["ls-files", "src"], { cwd: ROOT, encoding: "utf8" })
      .split("\n")
      .filter((f) => f.endsWith(".ts") && !ALLOWED.some((allowed) => allowed.test(f)));
    const naming = files.filter((f) => /redis|bullmq/i.test(codeOf(readFileSync(join(ROOT, f), "utf8"))));
    expect(naming).toEqual([]);
    expect(files.length).toBeGreaterThan(100);
  });

  it("a probe that names it is caught; one that only mentions it in a comment is not", () => {
    expect(/redis/i.test(codeOf("const gate = stores.redis ? a : b; // one process otherwise\n"))).toBe(true);
    expect(/redis|bullmq/i.test(codeOf('import { Queue } from "bullmq";\n'))).toBe(true);
    expect(
      /redis/i.test(codeOf("/** Replicas (Redis): shared. */\nconst shared = true; // as in Redis mode\n")),
    ).toBe(false);
  });
});
