import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const dockerfile = readFileSync(join(root, "Dockerfile"), "utf8");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  engines: { node: string };
  dependencies: Record<string, string>;
};
const readme = readFileSync(join(root, "README.md"), "utf8");

/** The migration as the README tells it to run inside the image (no tsx there: dev dependencies are pruned). */
const IMAGE_MIGRATE = "node dist/platform/store/migrateCli.js --to-redis";

/** The source file `npm run build` compiles to a dist/ path (tsconfig.build.json: src → dist). */
const sourceOf = (distPath: string) =>
  join(root, distPath.replace(/^dist\//, "src/").replace(/\.js$/, ".ts"));

/**
 * Every npm package the compiled entry point loads at run time: the import graph of its source,
 * followed through relative imports. `import type` is erased by the compiler and left out; under
 * verbatimModuleSyntax an `import { type X }` is kept (as `import {}`), so it counts.
 */
function runtimePackages(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
    const specifiers: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) {
        if (ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
      } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier) {
        if (ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] !== undefined &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        specifiers.push(node.arguments[0].text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    for (const specifier of specifiers) {
      if (specifier.startsWith(".")) {
        pending.push(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      } else if (!specifier.startsWith("node:") && !builtinModules.includes(specifier)) {
        const parts = specifier.split("/");
        packages.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier));
      }
    }
  }
  return packages;
}

/** The Dockerfile cannot be built on these machines: check what can be checked without a Docker engine. */
describe("Dockerfile", () => {
  it("copies only files that exist", () => {
    const sources = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) =>
      m[1]!.trim().split(/\s+/),
    );
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(existsSync(join(root, source)), source).toBe(true);
  });

  it("starts the bot the way npm start does after its build step", () => {
    const cmd = dockerfile.match(/^CMD \[(.+)\]$/m)?.[1];
    const argv = JSON.parse(`[${cmd}]`) as string[];
    expect(argv.join(" ")).toBe(pkg.scripts.start);
    expect(pkg.scripts.prestart).toBe("npm run build");
    expect(dockerfile).toContain("RUN npm run build");
    expect(dockerfile).toContain("RUN npm ci");
  });

  it("runs as a non-root user on a current LTS Node image with a data volume, a port and a health check", () => {
    const images = [...dockerfile.matchAll(/^FROM node:(\d+)/gm)].map((m) => Number(m[1]));
    expect(images.length).toBe(2);
    for (const major of images) expect(major % 2).toBe(0); // even majors are the LTS lines
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(dockerfile).toMatch(/DATA_DIR=\/data/);
    expect(dockerfile).toMatch(/^EXPOSE 3000$/m);
    expect(dockerfile).toMatch(/HEALTHCHECK[\s\S]*\/healthz/);
    expect(dockerfile).toMatch(/npm prune --omit=dev/);
  });

  it("runs the bot and the Redis migration with production dependencies only (dev ones are pruned)", () => {
    const cmd = JSON.parse(`[${dockerfile.match(/^CMD \[(.+)\]$/m)?.[1]}]`) as string[];
    const entries = [cmd.at(-1) ?? "", IMAGE_MIGRATE.split(" ")[1] ?? ""];
    expect(entries).toEqual(["dist/main.js", "dist/platform/store/migrateCli.js"]);
    for (const entry of entries) {
      const source = sourceOf(entry);
      expect(existsSync(source), `${entry} is built from ${relative(root, source)}`).toBe(true);
      const packages = [...runtimePackages(source)];
      expect(packages.length, entry).toBeGreaterThan(0);
      const missing = packages.filter((name) => !(name in pkg.dependencies));
      expect(missing, `${entry} loads packages that are not production dependencies`).toEqual([]);
    }
    // The walk follows relative imports: the migration reaches SQLite only through src/store.
    const migration = runtimePackages(sourceOf("dist/platform/store/migrateCli.js"));
    for (const name of ["ioredis", "better-sqlite3"]) expect(migration.has(name), name).toBe(true);
  });

  it("is the image the README's migration command runs in", () => {
    expect(readme).toContain(IMAGE_MIGRATE);
    expect(pkg.scripts.migrate).toBe(`tsx ${relative(root, sourceOf("dist/platform/store/migrateCli.js"))}`);
  });

  it("keeps secrets and local state out of the build context", () => {
    const ignored = readFileSync(join(root, ".dockerignore"), "utf8")
      .split("\n")
      .map((l) => l.trim());
    for (const entry of [".env", "data", "node_modules", "dist", ".git"]) expect(ignored).toContain(entry);
  });
});

describe("the bot's node flags", () => {
  it("npm start, the image and the benchmarks start the bot with the same flags", async () => {
    const { BOT_NODE_FLAGS } = await import("../../bench/realtime/harness.js");
    const flags = BOT_NODE_FLAGS.join(" ");
    expect(pkg.scripts.start).toBe(`node ${flags} dist/main.js`);
    const cmd = dockerfile.match(/^CMD (\[.*\])$/m)?.[1];
    expect(cmd && JSON.parse(cmd)).toEqual(["node", ...BOT_NODE_FLAGS, "dist/main.js"]);
  });
});
