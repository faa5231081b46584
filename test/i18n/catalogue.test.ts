import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { INCIDENT_KINDS, type ResolveReason } from "../../src/features/alerts/incidents.js";
import { KNOWN_TRANSPORT_FAILURES } from "../../src/features/etransport/failures.js";
import { TRANSPORT_ACTIONS } from "../../src/features/etransport/types.js";
import { VEHICLE_REPORTS } from "../../src/features/reports/catalogue.js";
import { ENGINE_STATES } from "../../src/features/reports/positions.js";
import { en, messages, ro } from "../../src/i18n/catalogue.js";
import { CSV_COLUMNS, CSV_WORDS, REPORT_FILES } from "../../src/i18n/en/reports.js";
import { LANGUAGES } from "../../src/i18n/language.js";
import type { Message } from "../../src/i18n/section.js";
import {
  CHANGE_REQUEST_STATUS_CODES,
  TRANSMISSION_STATUS_CODES,
  TRANSPORT_STATUS,
} from "../../src/platform/fleet/schemas.js";
import { TASK_STATES } from "../../src/platform/tasks/task.js";

/**
 * The two catalogues say the same things: the same sections and keys, and every message takes
 * the same parameters and puts the same placeholders in its text. The compiler already checks
 * keys and parameter types (src/i18n/section.ts); this also catches a translation that drops a
 * placeholder, which types cannot see.
 *
 * Each message is called with recording arguments: every named parameter it reads is noted,
 * and its value is a marker ("⟦given⟧") that reads as text, or as the number 2 where a number
 * is needed (plurals, number formats). Both languages must read the same names and print the
 * same markers.
 */

type Sections = Readonly<Record<string, Readonly<Record<string, Message>>>>;
const EN = en as Sections;
const RO = ro as Sections;

const RESOLVE_REASONS: readonly ResolveReason[] = [
  "recovered",
  "changed",
  "status",
  "gone",
  "completed",
  "removed",
];

const LANGUAGE_SOURCES = ["user", "workspace", "slack", "configured"] as const;

const TRANSMISSION_WITH_ADVICE = TRANSMISSION_STATUS_CODES.filter((c) => c !== "Active" && c !== "Finalized");

/** The e-Transport messages whose parameters are codes, filters or lists (etransport helper). */
const BULK_ACTIONS = ["start", "pause", "end", "remove"] as const;
const AUDIT_ACTIONS = ["create", "update", "start", "pause", "end", "remove"] as const;
const FAILURE_SAMPLES = [
  ...KNOWN_TRANSPORT_FAILURES.flatMap((code) => [
    [code, []],
    [code, ["Y45R-577U-N544-GY4S"]],
    [code, ["Y45R-577U-N544-GY4S", "Paused"]],
  ]),
  ["PlatformTimeout", ["ANAF", "30s"]],
  ["", []],
];
const LIST_FILTERS = [
  { kind: "open" },
  { kind: "all" },
  { kind: "label", label: "xyz" },
  { kind: "states", states: ["completed"] },
  { kind: "states", states: ["pending", "active", "paused"] },
];
const ETRANSPORT_SAMPLES: Readonly<Record<string, readonly (readonly unknown[])[]>> = {
  "etransport.failure": FAILURE_SAMPLES,
  "etransport.failureSummary": FAILURE_SAMPLES,
  "etransport.failureAdvice": FAILURE_SAMPLES,
  "etransport.transmissionMeaning": TRANSMISSION_STATUS_CODES.map((code) => [code]),
  "etransport.button": TRANSPORT_ACTIONS.map((action) => [action]),
  "etransport.listWhat": LIST_FILTERS.flatMap((filter) => [1, 2, 20].map((n) => [filter, n])),
  "etransport.listEmpty": LIST_FILTERS.flatMap((filter) => [
    [filter, ""],
    [filter, "B-12"],
  ]),
  "etransport.listEmptyPage": LIST_FILTERS.map((filter) => [filter, "B-12", 2, 9]),
  "etransport.underWay": BULK_ACTIONS.map((action) => [action]),
  "etransport.actionHeadline": BULK_ACTIONS.flatMap((action) =>
    [
      [0, 0],
      [1, 1],
      [3, 3],
      [1, 0],
      [3, 1],
      [25, 2],
    ].map(([total, succeeded]) => [action, total, succeeded]),
  ),
  "etransport.actionDone": BULK_ACTIONS.map((action) => [action]),
  "etransport.actionNotDone": BULK_ACTIONS.map((action) => [action]),
  "etransport.historyDone": AUDIT_ACTIONS.map((action) => [action]),
  "etransport.historyAsked": AUDIT_ACTIONS.map((action) => [action]),
  "etransport.errorVat": [
    [{ problem: "missing", example: "RO16341004" }],
    [{ problem: "cifLength", length: 1, example: "RO16341004" }],
    [{ problem: "cifChecksum", vat: "RO16341005", example: "RO16341004" }],
    [{ problem: "prefix", example: "RO16341004", euExample: "DE123456789" }],
    [{ problem: "shape", vat: "DE1", prefix: "DE", example: "DE123456789" }],
  ],
  "etransport.errorNotADate": ["today", "afterStart", "orEmpty"].map((hint) => [hint]),
  "etransport.errorTooLong": ["startLocation", "endLocation", "notes"].map((field) => [field, 201, 200]),
};

/**
 * Messages whose parameters are codes (a marker is no code): called with every value they take.
 * A message that fails with markers needs a line here.
 */
const SAMPLES: Readonly<Record<string, readonly (readonly unknown[])[]>> = {
  "common.languageName": LANGUAGES.map((l) => [l]),
  "account.languageCurrent": LANGUAGES.flatMap((language) =>
    LANGUAGE_SOURCES.map((source) => [{ language, source }]),
  ),
  "account.languageChosen": LANGUAGES.map((language) => [{ language }]),
  "account.languageWorkspaceDefault": LANGUAGES.map((language) => [{ language }]),
  "account.languageWorkspaceYours": LANGUAGES.flatMap((yours) =>
    LANGUAGE_SOURCES.map((source) => [{ yours, source }]),
  ),
  "account.languageBySingle": LANGUAGES.map((configured) => [{ configured }]),
  "etransport.transportStatus": Object.values(TRANSPORT_STATUS).map((id) => [id]),
  "etransport.transmissionStatus": TRANSMISSION_STATUS_CODES.map((code) => [code]),
  "etransport.transmissionAdvice": TRANSMISSION_WITH_ADVICE.map((code) => [code]),
  "etransport.changeRequestStatus": CHANGE_REQUEST_STATUS_CODES.map((code) => [code]),
  ...ETRANSPORT_SAMPLES,
  "alerts.title": INCIDENT_KINDS.map((kind) => [kind]),
  "alerts.resolveReason": INCIDENT_KINDS.flatMap((kind) => RESOLVE_REASONS.map((reason) => [kind, reason])),
  "help.homeTaskState": TASK_STATES.map((state) => [state]),
  "reports.title": VEHICLE_REPORTS.map((name) => [name]),
  "reports.modalLabel": VEHICLE_REPORTS.map((name) => [name]),
  "reports.engine": ENGINE_STATES.map((state) => [state]),
  "reports.csvHeader": CSV_COLUMNS.map((column) => [column]),
  "reports.csvWord": CSV_WORDS.map((word) => [word]),
  "reports.csvRefillEvent": [["Fueling"], ["PossibleFuelTheftSecondarySource"]],
  "reports.fileTitle": REPORT_FILES.map((file) => [file, "B-12-ABC"]),
  "reports.fileName": REPORT_FILES.map((file) => [file]),
};

/** Messages whose Romanian is rightly the same text as the English. */
const SAME_IN_BOTH: ReadonlySet<string> = new Set([
  // Only its parts are words ("1.234,6 km · ieri (luni, 2 nov.)"), each already in the reader's language.
  "reports.routeSummary",
]);

/** A value that is the text `⟦name⟧`, or 2 where a number is wanted. */
function marker(name: string): unknown {
  const text = `⟦${name}⟧`;
  return Object.assign(new String(text), {
    [Symbol.toPrimitive]: (hint: string) => (hint === "number" ? 2 : text),
  });
}

/** Arguments for `fn` that note every named parameter read (`reads`), as "position.name". */
function recordingArgs(fn: Message, reads: Set<string>): unknown[] {
  return Array.from({ length: fn.length }, (_, i) => {
    const self = marker(`#${i}`) as { [Symbol.toPrimitive]: unknown };
    return new Proxy(
      {},
      {
        get(_target, key) {
          if (key === Symbol.toPrimitive) return self[Symbol.toPrimitive];
          if (typeof key !== "string") return undefined;
          reads.add(`${i}.${key}`);
          return marker(key);
        },
      },
    );
  });
}

function markersIn(text: string): string[] {
  return [...new Set(text.match(/⟦[^⟧]*⟧/g) ?? [])].sort();
}

function callRecording(fn: Message): { text: unknown; reads: string[] } {
  const reads = new Set<string>();
  const text = (fn as (...args: unknown[]) => unknown)(...recordingArgs(fn, reads));
  return { text, reads: [...reads].sort() };
}

/** How a Romanian message differs from its English one in parameters, reads and placeholders. */
function differences(name: string, enFn: Message, roFn: Message): string[] {
  const out: string[] = [];
  if (enFn.length !== roFn.length)
    out.push(`${enFn.length} parameter(s) in English, ${roFn.length} in Romanian`);
  const english = callRecording(enFn);
  const romanian = callRecording(roFn);
  for (const [lang, result] of [
    ["English", english],
    ["Romanian", romanian],
  ] as const) {
    if (typeof result.text !== "string" || result.text === "") {
      throw new Error(`${lang} ${name} gave ${String(result.text)}: add its arguments to SAMPLES`);
    }
  }
  const list = (items: string[]): string => (items.length ? items.join(" ") : "none");
  const enMarks = markersIn(english.text as string);
  const roMarks = markersIn(romanian.text as string);
  if (list(enMarks) !== list(roMarks)) {
    out.push(`placeholders ${list(enMarks)} in English, ${list(roMarks)} in Romanian`);
  }
  if (list(english.reads) !== list(romanian.reads)) {
    out.push(`reads ${list(english.reads)} in English, ${list(romanian.reads)} in Romanian`);
  }
  if (english.text === romanian.text && !SAME_IN_BOTH.has(name)) out.push("the same text in both languages");
  return out;
}

const keysOf = (o: object): string[] => Object.keys(o).sort();

describe("the English and Romanian catalogues", () => {
  it("have the same sections and, in each, the same keys", () => {
    expect(keysOf(RO)).toEqual(keysOf(EN));
    for (const section of keysOf(EN)) {
      expect({ section, keys: keysOf(RO[section] ?? {}) }).toEqual({
        section,
        keys: keysOf(EN[section] ?? {}),
      });
    }
  });

  it("give every message the same number of parameters", () => {
    for (const [section, entries] of Object.entries(EN)) {
      for (const [key, enFn] of Object.entries(entries)) {
        const roFn = RO[section]?.[key];
        expect({ key: `${section}.${key}`, length: roFn?.length }).toEqual({
          key: `${section}.${key}`,
          length: enFn.length,
        });
      }
    }
  });

  it("read the same named parameters and print the same placeholders", () => {
    let checked = 0;
    for (const [section, entries] of Object.entries(EN)) {
      for (const [key, enFn] of Object.entries(entries)) {
        const name = `${section}.${key}`;
        if (SAMPLES[name]) continue;
        const roFn = RO[section]?.[key];
        if (!roFn) throw new Error(`${name} is missing in Romanian`);
        expect({ name, differences: differences(name, enFn, roFn) }).toEqual({ name, differences: [] });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it("(the check above catches a dropped or renamed placeholder, and an untranslated text)", () => {
    const english = ({ given }: { given: string }) => `Unknown “${given}”.`;
    expect(differences("t", english, ({ given }: { given: string }) => `Necunoscut „${given}”.`)).toEqual([]);
    expect(differences("t", english, (_: { given: string }) => "Necunoscut.")).toEqual([
      "placeholders ⟦given⟧ in English, none in Romanian",
      "reads 0.given in English, none in Romanian",
    ]);
    expect(
      differences("t", english, ({ given }: { given: string }) => `Necunoscut „${given}”.`.slice(0, 3)),
    ).toEqual(["placeholders ⟦given⟧ in English, none in Romanian"]);
    expect(differences("t", english, (p: { text: string }) => `Necunoscut „${p.text}”.`)).toEqual([
      "placeholders ⟦given⟧ in English, ⟦text⟧ in Romanian",
      "reads 0.given in English, 0.text in Romanian",
    ]);
    expect(differences("t", english, () => "Necunoscut.")).toEqual([
      "1 parameter(s) in English, 0 in Romanian",
      "placeholders ⟦given⟧ in English, none in Romanian",
      "reads 0.given in English, none in Romanian",
    ]);
    expect(differences("t", english, english)).toEqual(["the same text in both languages"]);
  });

  it("answer every code of fleet-api.md's tables with text, different in each language", () => {
    for (const [name, samples] of Object.entries(SAMPLES)) {
      const [section, key] = name.split(".") as [string, string];
      const enFn = EN[section]?.[key] as ((...args: unknown[]) => unknown) | undefined;
      const roFn = RO[section]?.[key] as ((...args: unknown[]) => unknown) | undefined;
      expect({ name, present: Boolean(enFn && roFn) }).toEqual({ name, present: true });
      for (const args of samples) {
        const english = enFn?.(...args);
        const romanian = roFn?.(...args);
        expect({ name, args, english: typeof english, romanian: typeof romanian }).toEqual({
          name,
          args,
          english: "string",
          romanian: "string",
        });
        expect((english as string).length * (romanian as string).length).toBeGreaterThan(0);
        expect({ name, args, same: english === romanian }).toEqual({ name, args, same: false });
      }
    }
  });

  it("are chosen by language", () => {
    expect(messages("en")).toBe(en);
    expect(messages("ro")).toBe(ro);
    expect(messages("ro").etransport.transmissionStatus("OldData")).toBe("Date mai vechi de 6 ore");
    expect(messages("ro").alerts.transmissionInterrupted()).toBe("Transmisie GPS întreruptă");
    expect(messages("ro").etransport.transmissionStatus("NotInRomania")).toBe("Nu se află în România");
    expect(messages("ro").etransport.changeRequest()).toBe("Cerere de modificare");
    expect(messages("ro").etransport.uitCode()).toBe("Cod UIT");
  });
});

describe("the catalogue sources", () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src", "i18n");
  const sources = (lang: string): [string, string][] =>
    readdirSync(join(root, lang))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => [f, readFileSync(join(root, lang, f), "utf8")]);

  it("write Romanian with the comma below (ș ț), never the cedilla (ş ţ)", () => {
    for (const [file, text] of sources("ro")) {
      expect({ file, cedillas: text.match(/[şţŞŢ]/g) ?? [] }).toEqual({ file, cedillas: [] });
    }
  });

  it("name their own language in every plural, and hand-write none", () => {
    for (const lang of LANGUAGES) {
      for (const [file, text] of sources(lang)) {
        const named = [...text.matchAll(/\b(?:count|plural)\(\s*"([a-z]+)"/g)].map((m) => m[1]);
        expect({ file, languages: [...new Set(named)].filter((l) => l !== lang) }).toEqual({
          file,
          languages: [],
        });
        expect({ file, ternaries: text.match(/===\s*1\s*\?/g) ?? [] }).toEqual({ file, ternaries: [] });
      }
    }
  });
});
