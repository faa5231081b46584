import { readFileSync } from "node:fs";

/** The page's browser code and style sheet, read once when the sandbox starts. */
export interface SandboxAssets {
  appJs: string;
  appCss: string;
}

/**
 * Reads assets/app.js and assets/app.css beside this module: src/sandbox/web/assets under tsx
 * and vitest, dist/sandbox/web/assets after `npm run build` (which copies them there).
 */
export function loadSandboxAssets(dir: URL = new URL("./assets/", import.meta.url)): SandboxAssets {
  const read = (name: string): string => {
    const file = new URL(name, dir);
    try {
      return readFileSync(file, "utf8");
    } catch (error) {
      throw new Error(
        `The sandbox page's ${name} is missing at ${file.pathname}: run \`npm run build\`, which copies src/sandbox/web/assets to dist/`,
        { cause: error },
      );
    }
  };
  return { appJs: read("app.js"), appCss: read("app.css") };
}
