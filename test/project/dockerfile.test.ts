import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const dockerfile = readFileSync(join(root, "Dockerfile"), "utf8");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  engines: { node: string };
};

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
});
