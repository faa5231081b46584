import { execSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { loadSandboxAssets } from "../../src/sandbox/web/assets.js";

const root = join(import.meta.dirname, "..", "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
};

describe("the sandbox page's assets", () => {
  it("are read from src/sandbox/web/assets when the sandbox starts", () => {
    const assets = loadSandboxAssets();
    expect(assets.appJs).toBe(readFileSync(join(root, "src/sandbox/web/assets/app.js"), "utf8"));
    expect(assets.appCss).toBe(readFileSync(join(root, "src/sandbox/web/assets/app.css"), "utf8"));
  });

  it("npm run build copies them beside the compiled routes in dist/, where the loader finds them", () => {
    // The steps after tsc, run in a scratch directory whose src is this project's src.
    const [compile, ...copy] = pkg.scripts.build!.split(" && ");
    expect(compile).toBe("tsc -p tsconfig.build.json");
    expect(copy.length).toBeGreaterThan(0);
    const scratch = mkdtempSync(join(tmpdir(), "fleetbot-build-"));
    try {
      symlinkSync(join(root, "src"), join(scratch, "src"));
      execSync(copy.join(" && "), { cwd: scratch, stdio: "pipe" });
      const dist = loadSandboxAssets(pathToFileURL(join(scratch, "dist/sandbox/web/assets/")));
      expect(dist).toEqual(loadSandboxAssets());
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it("a missing file stops the start with what to run", () => {
    const empty = mkdtempSync(join(tmpdir(), "fleetbot-assets-"));
    try {
      expect(() => loadSandboxAssets(pathToFileURL(`${empty}/`))).toThrow(
        /app\.js is missing.*npm run build/,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
