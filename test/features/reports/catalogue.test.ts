import { describe, expect, it } from "vitest";
import { fleetUsage, parseFleetCommand } from "../../../src/commands/index.js";
import {
  REPORT_CATALOGUE,
  REPORT_ENTRIES,
  VEHICLE_REPORTS,
} from "../../../src/features/reports/catalogue.js";
import { reportModal } from "../../../src/features/reports/slack/views/reportModal.js";
import { REPORT_VIEWS } from "../../../src/features/reports/slack/views/reportViews.js";
import { en } from "../../../src/i18n/index.js";

/** The start of each report's English help line (the `help` catalogue section, keyed by report name). */
const HELP_WORDS = {
  vehicles: en.help.vehicles(),
  where: en.help.where(),
  route: en.help.route(),
  stops: "stops of at least",
  fuel: en.help.fuel(),
  refills: en.help.refills(),
  temps: en.help.temps(),
} as const;

const ctx = { timeZone: "Europe/Bucharest", now: new Date("2026-11-22T10:00:00Z") };

describe("the report catalogue drives the grammar, the help and the modal", () => {
  it("keys every entry by its own name, each once", () => {
    for (const [key, entry] of Object.entries(REPORT_CATALOGUE)) expect(entry.name).toBe(key);
    expect(new Set(VEHICLE_REPORTS).size).toBe(REPORT_ENTRIES.length);
  });

  it.each(REPORT_ENTRIES.map((e) => [e.name, e] as const))(
    "%s: its example runs it with its rules",
    (name, entry) => {
      const parsed = parseFleetCommand(`${name} ${entry.example}`, ctx);
      expect(parsed).toMatchObject({ ok: true, kind: "report", report: name });
      if (!parsed.ok || parsed.kind !== "report") return;
      expect(parsed.period !== undefined).toBe(entry.period === "required");
      expect(parsed.minMinutes !== undefined).toBe(entry.minStop);
      if (entry.vehicles === "one") expect(parsed.vehicles).toHaveLength(1);
      if (entry.vehicles === "filter") expect(parsed.vehicles).toEqual([]);
    },
  );

  it.each(REPORT_ENTRIES.map((e) => [e.name, e] as const))(
    "%s: synonyms suggest it, never run it",
    (name, entry) => {
      for (const word of entry.synonyms) {
        const parsed = parseFleetCommand(`${word} ${entry.example}`, ctx);
        expect(parsed, word).toMatchObject({ ok: false, suggestion: name });
      }
    },
  );

  it.each(REPORT_ENTRIES.map((e) => [e.name, e] as const))(
    "%s: its Romanian words run it, with or without diacritics, and open its form after `raport`",
    (name, entry) => {
      expect(entry.romanian.length).toBeGreaterThan(0);
      for (const word of entry.romanian) {
        for (const spelling of [word, word.normalize("NFD").replace(/\p{M}/gu, ""), word.toUpperCase()]) {
          const parsed = parseFleetCommand(`${spelling} ${entry.example}`, ctx);
          expect(parsed, spelling).toEqual(parseFleetCommand(`${name} ${entry.example}`, ctx));
          if (REPORT_VIEWS[name].inModal)
            expect(parseFleetCommand(`raport ${spelling}`, ctx)).toEqual({
              ok: true,
              kind: "modal",
              report: name,
            });
        }
        expect(fleetUsage.find((l) => l.syntax.startsWith(`/fleet ${name} `))?.romanian).toContain(word);
      }
    },
  );

  it("refuses `all` for a one-vehicle report", () => {
    for (const entry of REPORT_ENTRIES.filter((e) => e.vehicles === "one"))
      expect(parseFleetCommand(`${entry.name} all`, ctx).ok, entry.name).toBe(false);
  });

  it("has a help line per report, and the modal offers exactly those with a label", () => {
    for (const entry of REPORT_ENTRIES)
      expect(
        fleetUsage.some(
          (l) => l.syntax.startsWith(`/fleet ${entry.name} `) && l.does.startsWith(HELP_WORDS[entry.name]),
        ),
      ).toBe(true);
    const offered =
      JSON.stringify(reportModal("{}", undefined, undefined, "en").blocks[0]).match(/"value":"[a-z]+"/g) ??
      [];
    const names = VEHICLE_REPORTS.filter((name) => REPORT_VIEWS[name].inModal);
    expect(offered).toEqual(names.map((name) => `"value":"${name}"`));
    expect(names).not.toContain("vehicles");
    for (const name of names)
      expect(parseFleetCommand(`report ${name}`, ctx)).toMatchObject({ kind: "modal", report: name });
  });
});
