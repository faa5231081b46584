import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The import direction of docs/ARCHITECTURE.md, enforced by biome.json (noRestrictedImports per
 * folder, run by `npm run lint`). Probe files that break the rule are linted with the project's
 * own configuration, so the rule cannot be dropped or narrowed without this test failing.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const BIOME = join(ROOT, "node_modules", ".bin", "biome");

/**
 * Folders whose code must not import src/slack, nor the words of src/i18n (catalogue, en/, ro/,
 * format, plural, periodText and the index that re-exports them), src/alerts/slackPublisher.ts
 * excepted.
 */
const DOMAIN = ["fleet", "gate", "reports", "etransport", "store", "alerts", "time", "tasks"];

const SLACK_IMPORTS = [
  'import { INPUTS } from "../slack/actionIds.js";\nexport const ids = INPUTS;\n',
  'export { digestMessage } from "../slack/views/alerts/digest.js";\n',
  'export async function load() {\n  return import("../slack/grammar/uit.js");\n}\n',
];
/** The catalogue and the formatting modules: words, which only the Slack side writes. */
const WORD_IMPORTS = [
  'import { messages } from "../i18n/catalogue.js";\nexport const words = messages;\n',
  'export { reports } from "../i18n/en/reports.js";\n',
  'import type { common } from "../i18n/ro/common.js";\nexport type Common = typeof common;\n',
  'import { litres } from "../i18n/format.js";\nexport const l = litres;\n',
  'export { plural } from "../i18n/plural.js";\n',
  'export async function load() {\n  return import("../i18n/periodText.js");\n}\n',
  'export { messages } from "../i18n/index.js";\n',
];
/** What the domain may take from src/i18n: the language codes its stores keep. */
const LANGUAGE_IMPORT =
  'import { isLanguage, LANGUAGES, type Language } from "../i18n/language.js";\nexport const codes: readonly Language[] = LANGUAGES.filter(isLanguage);\n';
const SIMULATOR_IMPORT =
  'import { startSimulator } from "../simulator/index.js";\nexport const start = startSimulator;\n';

interface Probe {
  path: string;
  source: string;
  flagged: boolean;
}

const probes: Probe[] = [
  ...DOMAIN.flatMap((folder) =>
    SLACK_IMPORTS.map((source, i) => ({ path: `src/${folder}/probeSlack${i}.ts`, source, flagged: true })),
  ),
  { path: "src/fleet/probeSimulator.ts", source: SIMULATOR_IMPORT, flagged: true },
  ...DOMAIN.flatMap((folder) =>
    WORD_IMPORTS.map((source, i) => ({ path: `src/${folder}/probeWords${i}.ts`, source, flagged: true })),
  ),
  // Allowed: the language codes in the domain, and words on the Slack side (its files too).
  ...DOMAIN.map((folder) => ({
    path: `src/${folder}/probeLanguage.ts`,
    source: LANGUAGE_IMPORT,
    flagged: false,
  })),
  { path: "src/alerts/slackPublisher.ts", source: `${SLACK_IMPORTS[0]}${WORD_IMPORTS[0]}`, flagged: false },
  { path: "src/slack/files/probeWords.ts", source: `${WORD_IMPORTS[0]}${WORD_IMPORTS[3]}`, flagged: false },
  // Allowed: the Slack side itself and npm's @slack packages (the alerts' Slack publisher above).
  { path: "src/slack/probeSimulator.ts", source: SIMULATOR_IMPORT, flagged: false },
  { path: "src/reports/probeSimulator.ts", source: SIMULATOR_IMPORT, flagged: false },
  {
    path: "src/fleet/probeSlackPackage.ts",
    source: 'import type { KnownBlock } from "@slack/types";\nexport type Blocks = KnownBlock[];\n',
    flagged: false,
  },
];

const work = mkdtempSync(join(tmpdir(), "fleetbot-imports-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Files that biome reports under noRestrictedImports, linting `probes` with the project's rules. */
function restrictedImportFiles(): Set<string> {
  const config: Record<string, unknown> = JSON.parse(readFileSync(join(ROOT, "biome.json"), "utf8"));
  delete config.$schema;
  // The temporary folder is no git checkout: the ignore file does not apply there.
  config.vcs = { enabled: false };
  writeFileSync(join(work, "biome.json"), JSON.stringify(config));
  for (const probe of probes) {
    mkdirSync(join(work, dirname(probe.path)), { recursive: true });
    writeFileSync(join(work, probe.path), probe.source);
  }
  const run = spawnSync(BIOME, ["lint", "--reporter=github", "--max-diagnostics=none", "src"], {
    cwd: work,
    encoding: "utf8",
  });
  const files = new Set<string>();
  // ::error title=lint/style/noRestrictedImports,file=src/fleet/probe.ts,line=1,…::message
  for (const line of `${run.stdout}\n${run.stderr}`.split("\n")) {
    const hit = /title=lint\/style\/noRestrictedImports,file=([^,]+),/.exec(line);
    if (hit?.[1]) files.add(relative(work, resolve(work, hit[1])).replaceAll("\\", "/"));
  }
  return files;
}

describe("import direction (biome.json noRestrictedImports)", () => {
  it("flags domain code importing src/slack or the words of src/i18n, and src/fleet importing src/simulator; allows the rest", () => {
    const flagged = restrictedImportFiles();
    const expected = probes.filter((p) => p.flagged).map((p) => p.path);
    expect([...flagged].sort()).toEqual(expected.sort());
  });
});

describe("import direction of the source tree", () => {
  const specifiers = (file: string): string[] =>
    [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].flatMap((m) =>
      m[1] === undefined ? [] : [m[1]],
    );
  const filesUnder = (folder: string): string[] =>
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(".ts"))
      .map((e) => join(e.parentPath, e.name));

  it("no domain file imports src/slack today (the Slack publisher of alerts excepted)", () => {
    const offenders: string[] = [];
    for (const folder of DOMAIN) {
      for (const file of filesUnder(join(ROOT, "src", folder))) {
        const name = relative(ROOT, file).replaceAll("\\", "/");
        if (name === "src/alerts/slackPublisher.ts") continue;
        for (const spec of specifiers(file))
          if (/(^|\/)slack(\/|$)/.test(spec)) offenders.push(`${name} → ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("no domain file imports the catalogue or the formatting modules today (words are the Slack side's)", () => {
    const offenders: string[] = [];
    for (const folder of DOMAIN) {
      for (const file of filesUnder(join(ROOT, "src", folder))) {
        const name = relative(ROOT, file).replaceAll("\\", "/");
        if (name === "src/alerts/slackPublisher.ts") continue;
        for (const spec of specifiers(file))
          if (/(^|\/)i18n(\/?$|\/(index|catalogue|format|plural|periodText)(\.js)?$|\/(en|ro)\/)/.test(spec))
            offenders.push(`${name} → ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("no src/fleet file imports src/simulator", () => {
    const offenders = filesUnder(join(ROOT, "src", "fleet")).flatMap((file) =>
      specifiers(file)
        .filter((spec) => /(^|\/)simulator(\/|$)/.test(spec))
        .map((spec) => `${relative(ROOT, file)} → ${spec}`),
    );
    expect(offenders).toEqual([]);
  });
});
