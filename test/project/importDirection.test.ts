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
 * Domain folders: their code must not import the Slack side (platform/slack, a feature's slack/),
 * nor the words of src/i18n (catalogue, en/, ro/, format, plural, periodText and the index that
 * re-exports them). A feature's domain is its folder without slack/ and index.ts;
 * src/features/alerts/slackPublisher.ts, the alerts' Slack side, is excepted.
 */
const DOMAIN = [
  "platform/fleet",
  "platform/gate",
  "platform/store",
  "platform/time",
  "platform/tasks",
  "platform/accounts",
  "platform/vehicles",
  "features/reports",
  "features/etransport",
  "features/alerts",
  "features/schedules",
];
const FEATURES = ["account", "alerts", "etransport", "fleetCommand", "home", "queue", "reports", "schedules"];

const SLACK_IMPORTS = [
  'import { INPUTS } from "../../platform/slack/actionIds.js";\nexport const ids = INPUTS;\n',
  'export { digestMessage } from "../alerts/slack/views/digest.js";\n',
  'export async function load() {\n  return import("./slack/views/card.js");\n}\n',
];
/** The catalogue and the formatting modules: words, which only the Slack side writes. */
const WORD_IMPORTS = [
  'import { messages } from "../../i18n/catalogue.js";\nexport const words = messages;\n',
  'export { reports } from "../../i18n/en/reports.js";\n',
  'import type { common } from "../../i18n/ro/common.js";\nexport type Common = typeof common;\n',
  'import { litres } from "../../i18n/format.js";\nexport const l = litres;\n',
  'export { plural } from "../../i18n/plural.js";\n',
  'export async function load() {\n  return import("../../i18n/periodText.js");\n}\n',
  'export { messages } from "../../i18n/index.js";\n',
];
/** What the domain may take from src/i18n: the language codes its stores keep. */
const LANGUAGE_IMPORT =
  'import { isLanguage, LANGUAGES, type Language } from "../../i18n/language.js";\nexport const codes: readonly Language[] = LANGUAGES.filter(isLanguage);\n';
const SIMULATOR_IMPORT =
  'import { startSimulator } from "../../simulator/index.js";\nexport const start = startSimulator;\n';
const importOf = (spec: string) => `import * as part from "${spec}";\nexport const used = part;\n`;

interface Probe {
  path: string;
  source: string;
  flagged: boolean;
}

const probes: Probe[] = [
  ...DOMAIN.flatMap((folder) =>
    SLACK_IMPORTS.map((source, i) => ({ path: `src/${folder}/probeSlack${i}.ts`, source, flagged: true })),
  ),
  { path: "src/platform/fleet/probeSimulator.ts", source: SIMULATOR_IMPORT, flagged: true },
  ...DOMAIN.flatMap((folder) =>
    WORD_IMPORTS.map((source, i) => ({ path: `src/${folder}/probeWords${i}.ts`, source, flagged: true })),
  ),
  // Allowed: the language codes in the domain, and words on the Slack side (its files too).
  ...DOMAIN.map((folder) => ({
    path: `src/${folder}/probeLanguage.ts`,
    source: LANGUAGE_IMPORT,
    flagged: false,
  })),
  {
    path: "src/features/alerts/slackPublisher.ts",
    source: `${SLACK_IMPORTS[0]}${WORD_IMPORTS[0]}`,
    flagged: false,
  },
  {
    path: "src/features/reports/slack/files/probeWords.ts",
    source: `${WORD_IMPORTS[0]}${WORD_IMPORTS[3]}`,
    flagged: false,
  },
  { path: "src/features/etransport/slack/probeSlack.ts", source: SLACK_IMPORTS[0] ?? "", flagged: false },
  { path: "src/features/etransport/index.ts", source: importOf("./slack/listeners.js"), flagged: false },
  // Allowed: the Slack side and the feature domains next to the simulator, and npm's @slack packages.
  { path: "src/platform/slack/probeSimulator.ts", source: SIMULATOR_IMPORT, flagged: false },
  { path: "src/features/reports/probeSimulator.ts", source: SIMULATOR_IMPORT, flagged: false },
  {
    path: "src/platform/fleet/probeSlackPackage.ts",
    source: 'import type { KnownBlock } from "@slack/types";\nexport type Blocks = KnownBlock[];\n',
    flagged: false,
  },
  // The platform knows no feature: neither a feature, nor the command language, nor the root.
  {
    path: "src/platform/slack/probeFeature.ts",
    source: importOf("../../features/reports/index.js"),
    flagged: true,
  },
  {
    path: "src/platform/slack/probeFrame.ts",
    source: importOf("../../features/taskKinds.js"),
    flagged: true,
  },
  { path: "src/platform/store/probeCommands.ts", source: importOf("../../commands/help.js"), flagged: true },
  { path: "src/platform/web/probeApp.ts", source: importOf("../../app/start.js"), flagged: true },
  { path: "src/platform/workspaces/probePlatform.ts", source: importOf("../slack/app.js"), flagged: false },
  // A feature reaches another only through its index.ts; its own files and the features' frame freely.
  ...FEATURES.flatMap((feature) =>
    FEATURES.filter((other) => other !== feature).flatMap((other) => [
      {
        path: `src/features/${feature}/slack/probeDeep${other}.ts`,
        source: importOf(`../../${other}/slack/listeners.js`),
        flagged: true,
      },
      {
        path: `src/features/${feature}/slack/probeIndex${other}.ts`,
        source: importOf(`../../${other}/index.js`),
        flagged: false,
      },
    ]),
  ),
  {
    path: "src/features/alerts/probeDeepDomain.ts",
    source: importOf("../etransport/state.js"),
    flagged: true,
  },
  { path: "src/features/reports/slack/probeOwn.ts", source: importOf("./views/fuel.js"), flagged: false },
  { path: "src/features/reports/slack/probeFrame.ts", source: importOf("../../context.js"), flagged: false },
  { path: "src/features/probeFrame.ts", source: importOf("./reports/kind.js"), flagged: false },
  // The command language reads the features' domain modules, never their Slack side or index.
  {
    path: "src/commands/probeSlack.ts",
    source: importOf("../features/reports/slack/listeners.js"),
    flagged: true,
  },
  { path: "src/commands/probeIndex.ts", source: importOf("../features/reports/index.js"), flagged: true },
  {
    path: "src/commands/probeDomain.ts",
    source: importOf("../features/reports/catalogue.js"),
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
  // ::error title=lint/style/noRestrictedImports,file=src/platform/fleet/probe.ts,line=1,…::message
  for (const line of `${run.stdout}\n${run.stderr}`.split("\n")) {
    const hit = /title=lint\/style\/noRestrictedImports,file=([^,]+),/.exec(line);
    if (hit?.[1]) files.add(relative(work, resolve(work, hit[1])).replaceAll("\\", "/"));
  }
  return files;
}

describe("import direction (biome.json noRestrictedImports)", () => {
  it("flags domain code importing the Slack side or words, the fleet client the simulator, the platform a feature, and a feature another past its index; allows the rest", () => {
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
      .map((e) => relative(ROOT, join(e.parentPath, e.name)).replaceAll("\\", "/"));
  /** Every import of the tree as [importing file, imported file], relative imports resolved. */
  const arrows = filesUnder(join(ROOT, "src")).flatMap((file) =>
    specifiers(join(ROOT, file))
      .filter((spec) => spec.startsWith("."))
      .map((spec) => [file, join(dirname(file), spec).replaceAll("\\", "/")] as const),
  );
  const isDomain = (file: string) =>
    DOMAIN.some((folder) => file.startsWith(`src/${folder}/`)) &&
    !/^src\/features\/[^/]+\/(slack\/|index\.ts$)/.test(file) &&
    file !== "src/features/alerts/slackPublisher.ts";

  it("no domain file imports the Slack side or the words of src/i18n today", () => {
    const offenders = arrows
      .filter(([from]) => isDomain(from))
      .filter(
        ([, to]) =>
          /(^|\/)slack\//.test(to) ||
          /^src\/i18n\/((index|catalogue|format|plural|periodText)\.js|(en|ro)\/)/.test(to),
      )
      .map(([from, to]) => `${from} → ${to}`);
    expect(offenders).toEqual([]);
  });

  it("no platform file imports a feature, the command language or the root today", () => {
    const offenders = arrows
      .filter(([from, to]) => from.startsWith("src/platform/") && /^src\/(features|commands|app)\//.test(to))
      .map(([from, to]) => `${from} → ${to}`);
    expect(offenders).toEqual([]);
  });

  it("no feature imports another past its index.ts today", () => {
    const featureOf = (file: string) => /^src\/features\/([^/]+)\//.exec(file)?.[1];
    const offenders = arrows
      .filter(([from, to]) => {
        const [a, b] = [featureOf(from), featureOf(to)];
        return a !== undefined && b !== undefined && a !== b && to !== `src/features/${b}/index.js`;
      })
      .map(([from, to]) => `${from} → ${to}`);
    expect(offenders).toEqual([]);
  });

  it("no src/platform/fleet file imports src/simulator", () => {
    const offenders = arrows
      .filter(([from, to]) => from.startsWith("src/platform/fleet/") && to.startsWith("src/simulator/"))
      .map(([from, to]) => `${from} → ${to}`);
    expect(offenders).toEqual([]);
  });
});
