import { describe, expect, it } from "vitest";
import { alertOptions, parseEtransportCommand, parseFleetCommand } from "../../src/commands/index.js";
import { withoutDiacritics } from "../../src/commands/text.js";

/**
 * Issue 33, priority 1: what Romanian dispatchers type is read as they mean it (each phrasing with
 * and without diacritics), and what is still not understood is an error with an example that works,
 * never a period silently dropped. Sunday 29 Nov 2026, 15:00 in Bucharest.
 */
const ctx = { now: new Date("2026-11-29T13:00:00Z"), timeZone: "Europe/Bucharest", channelIds: new Map() };
const BUC = (iso: string) => new Date(iso).toISOString();

/** The phrasing as typed, and without its diacritics (ș/ț comma-below and ş/ţ cedilla alike). */
const spellings = (text: string): string[] => [
  ...new Set([text, withoutDiacritics(text), text.replaceAll("ș", "ş").replaceAll("ț", "ţ")]),
];

describe("Romanian periods, with and without diacritics", () => {
  it.each([
    // [period as typed, kind, from, to]
    ["săptămâna asta", "this-week", "2026-11-22T22:00:00Z", "2026-11-29T13:00:00Z"],
    ["săptămâna aceasta", "this-week", "2026-11-22T22:00:00Z", "2026-11-29T13:00:00Z"],
    ["luna asta", "this-month", "2026-10-31T22:00:00Z", "2026-11-29T13:00:00Z"],
    ["luna aceasta", "this-month", "2026-10-31T22:00:00Z", "2026-11-29T13:00:00Z"],
    ["luna trecută", "last-month", "2026-09-30T21:00:00Z", "2026-10-31T22:00:00Z"],
    ["ultima săptămână", "days", "2026-11-22T13:00:00Z", "2026-11-29T13:00:00Z"],
    ["ultima lună", "days", "2026-10-30T13:00:00Z", "2026-11-29T13:00:00Z"],
    ["ultimele 24h", "hours", "2026-11-28T13:00:00Z", "2026-11-29T13:00:00Z"],
    ["ultimele 24 h", "hours", "2026-11-28T13:00:00Z", "2026-11-29T13:00:00Z"],
    ["ultimele 24 de ore", "hours", "2026-11-28T13:00:00Z", "2026-11-29T13:00:00Z"],
    ["ultimele 24 ore", "hours", "2026-11-28T13:00:00Z", "2026-11-29T13:00:00Z"],
    ["ultimele 3 zile", "days", "2026-11-26T13:00:00Z", "2026-11-29T13:00:00Z"],
    ["ultimele 3z", "days", "2026-11-26T13:00:00Z", "2026-11-29T13:00:00Z"],
    ["ultimele 20 de zile", "days", "2026-11-09T13:00:00Z", "2026-11-29T13:00:00Z"],
    ["24.11.2026", "date", "2026-11-23T22:00:00Z", "2026-11-24T22:00:00Z"],
    ["24.11", "date", "2026-11-23T22:00:00Z", "2026-11-24T22:00:00Z"],
    ["23.11..25.11", "dates", "2026-11-22T22:00:00Z", "2026-11-25T22:00:00Z"],
    ["24.11.2026 08:00..24.11.2026 17:00", "datetimes", "2026-11-24T06:00:00Z", "2026-11-24T15:00:00Z"],
  ])("%s", (period, kind, from, to) => {
    for (const text of spellings(period)) {
      const result = parseFleetCommand(`opriri B-123-ABC ${text}`, ctx);
      expect(result.ok, text).toBe(true);
      if (!result.ok || result.kind !== "report") throw new Error(text);
      expect(
        result.vehicles.map((v) => v.raw),
        text,
      ).toEqual(["B-123-ABC"]);
      expect(result.period?.kind, text).toBe(kind);
      expect(result.period?.from.toISOString(), text).toBe(BUC(from));
      expect(result.period?.to.toISOString(), text).toBe(BUC(to));
    }
  });

  it("English has `this month` too", () => {
    const result = parseFleetCommand("fuel all this month", ctx);
    expect(result.ok && result.kind === "report" && result.period?.kind).toBe("this-month");
  });

  it("a dotted date without its year is the last such day up to today", () => {
    const result = parseFleetCommand("opriri toate 30.11", ctx);
    expect(result.ok && result.kind === "report" && result.period?.from.toISOString()).toBe(
      BUC("2025-11-29T22:00:00Z"),
    );
  });
});

describe("Romanian command words", () => {
  it.each([
    ["opriri toate ieri", "report", "stops"],
    ["staționări toate ieri", "report", "stops"],
    ["poziție B-123-ABC", "report", "where"],
    ["localizare B-123-ABC", "report", "where"],
    ["mașini", "report", "vehicles"],
    ["camioane volvo", "report", "vehicles"],
    ["cine sunt", "whoami", undefined],
    ["conectare", "login", undefined],
    ["deconectare", "logout", undefined],
    ["alerte listă", "alerts-list", undefined],
    ["alerte abonează Error", "alerts-subscribe", undefined],
    ["alerte dezabonează", "alerts-unsubscribe", undefined],
  ])("%s", (typed, kind, report) => {
    for (const text of spellings(typed)) {
      const result = parseFleetCommand(alertOptions(text).text, ctx);
      expect(result.ok, text).toBe(true);
      if (!result.ok) throw new Error(text);
      expect(result.kind, text).toBe(kind);
      if (report !== undefined && result.kind === "report") expect(result.report, text).toBe(report);
    }
  });

  it("`toate` is every vehicle, not a vehicle's name", () => {
    for (const text of ["opriri toate ieri", "combustibil TOATE săptămâna trecută", "opriri toți ieri"]) {
      const result = parseFleetCommand(text, ctx);
      expect(result.ok && result.kind === "report" && result.vehicles.map((v) => v.type), text).toEqual([
        "all",
      ]);
    }
  });

  it("`alerte abonează` reads its options as `alerts subscribe` does", () => {
    const reading = alertOptions("alerte abonează Error min=15 lang=ro");
    expect(reading.options).toEqual({ minDurationMinutes: 15, language: "ro" });
  });
});

describe("/etransport list filters in Romanian", () => {
  it.each([
    ["listă toate", ["all"], undefined],
    ["listă finalizate", ["completed"], undefined],
    ["listă pauză", ["paused"], undefined],
    ["listă în pauză", ["paused"], undefined],
    ["listă în așteptare", ["pending"], undefined],
    ["listă în desfășurare", ["active"], undefined],
    ["listă în desfășurare în pauză B-123-ABC", ["active", "paused"], "B-123-ABC"],
    ["listă toate Popescu", ["all"], "Popescu"],
  ])("%s", (typed, filters, search) => {
    for (const text of spellings(typed)) {
      const result = parseEtransportCommand(text, ctx);
      expect(result.ok && result.kind === "list" && result.filters, text).toEqual(filters);
      expect(result.ok && result.kind === "list" && result.search, text).toBe(search);
    }
  });
});

describe("what is still not understood is an error with an example that works", () => {
  it.each([
    ["opriri B-123-ABC săptămâna viitoare", "săptămâna viitoare"],
    ["opriri B-123-ABC mâine", "mâine"],
    ["stops B-123-ABC next month", "next month"],
    ["opriri B-123-ABC 32.11", "32.11"],
    ["opriri toate ultimele trei zile", "ultimele trei zile"],
  ])("%s", (text, given) => {
    const result = parseFleetCommand(text, ctx);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(JSON.stringify(result.problem)).toContain(given);
    const example = result.example.replace(/^\/fleet /, "");
    expect(parseFleetCommand(example, ctx).ok, result.example).toBe(true);
  });
});
