import { describe, expect, it } from "vitest";
import { exampleIn } from "../../src/commands/examples.js";
import { type FleetGrammarContext, parseCommandLine, parseFleetCommand } from "../../src/commands/index.js";
import { grammarErrorMessage } from "../../src/commands/views/grammarError.js";
import { msg } from "./problemText.js";

/** The vehicle kinds' options of `alerts subscribe`, and `/fleet zones` (issue 32), read by the one grammar. */

const ctx: FleetGrammarContext = { timeZone: "Europe/Bucharest", now: new Date("2026-11-22T10:00:00Z") };
const parse = (text: string) => parseFleetCommand(text, ctx);

function subscribed(text: string) {
  const r = parse(text);
  if (!r.ok) throw new Error(`${text}: ${msg(r)}`);
  if (r.kind !== "alerts-subscribe") throw new Error(`${text}: ${r.kind}`);
  return r;
}

function refusal(text: string): { text: string; example: string } {
  const r = parse(text);
  if (r.ok) throw new Error(`${text} was read: ${r.kind}`);
  // Every error's example works, in English words and in Romanian ones.
  expect(parseCommandLine(r.example, ctx).result.ok, r.example).toBe(true);
  expect(parseCommandLine(exampleIn(r.example, "ro"), ctx).result.ok, exampleIn(r.example, "ro")).toBe(true);
  return { text: msg(r), example: r.example };
}

describe("alerts subscribe: the vehicle kinds and their options", () => {
  it("reads every kind, each option, decimal commas and quoted zone names", () => {
    const r = subscribed(
      'alerts subscribe PowerCut Zone Idle Speeding Offline Towed AfterHours Temperature volts=11,5 zones="Depou București",Client idle=30 speed=100 offline=120 hours=6:30-21:00 temp=-25..-15 tempfor=20',
    );
    expect(r.codes).toEqual([
      "PowerCut",
      "Zone",
      "Idle",
      "Speeding",
      "Offline",
      "Towed",
      "AfterHours",
      "Temperature",
    ]);
    expect(r.options.watch).toEqual({
      volts: 11.5,
      zones: ["Depou București", "Client"],
      idleMinutes: 30,
      speedKmh: 100,
      offlineMinutes: 120,
      hours: "06:30-21:00",
      tempMin: -25,
      tempMax: -15,
      tempForMinutes: 20,
    });
  });

  it("kinds are case-insensitive, Romanian subcommand words too, and no option means none stored", () => {
    const r = subscribed("alerte abonează powercut speeding");
    expect(r.codes).toEqual(["PowerCut", "Speeding"]);
    expect(r.options.watch).toBeUndefined();
  });

  it("`all` with vehicle kinds: every transport code beside them (no filter would drop the opt-in kinds)", () => {
    const r = subscribed("alerts subscribe all PowerCut Idle");
    expect(r.codes).toContain("Error");
    expect(r.codes).toContain("Stalled");
    expect(r.codes).toContain("Vanished");
    expect(r.codes.slice(-2)).toEqual(["PowerCut", "Idle"]);
    expect(subscribed("alerts subscribe all").codes).toEqual([]);
  });

  it("hours past midnight and typographic quotes", () => {
    expect(subscribed("alerts subscribe AfterHours hours=22:00–06:00").options.watch?.hours).toBe(
      "22:00-06:00",
    );
    expect(subscribed("alerts subscribe Zone zones=“Depou Nord”").options.watch?.zones).toEqual([
      "Depou Nord",
    ]);
  });

  it.each([
    ["alerts subscribe PowerCut volts=abc", "volts=abc", "PowerCut volts=11,5"],
    ["alerts subscribe PowerCut volts=61", "volts=61", "PowerCut volts=11,5"],
    ["alerts subscribe Idle idle=0", "idle=0", "Idle idle=30"],
    ["alerts subscribe Speeding speed=5", "speed=5", "Speeding speed=100"],
    ["alerts subscribe Speeding speed=95.5", "speed=95.5", "Speeding speed=100"],
    ["alerts subscribe Offline offline=2", "offline=2", "Offline offline=120"],
    ["alerts subscribe AfterHours hours=25:00-06:00", "hours=25:00-06:00", "AfterHours hours=06:00-22:00"],
    ["alerts subscribe AfterHours hours=06:00-06:00", "hours=06:00-06:00", "AfterHours hours=06:00-22:00"],
    ["alerts subscribe Temperature temp=8..2", "temp=8..2", "Temperature temp=-25..-15"],
    ["alerts subscribe Temperature temp=2..8 tempfor=-1", "tempfor=-1", "Temperature temp=2..8 tempfor=20"],
  ])("%s is refused, naming the option and an example that works", (text, option, example) => {
    const r = refusal(text);
    expect(r.text).toContain(option);
    expect(r.example).toContain(example);
    // The example itself is read.
    expect(parse(r.example.replace(/^\/fleet /, "")).ok).toBe(true);
  });

  it("an option without its kind, and Temperature without its range, are refused with an example", () => {
    const option = refusal("alerts subscribe Error OldData speed=100");
    expect(option.text).toMatch(/`speed=` is an option of `Speeding` alerts/);
    expect(parse(option.example.replace(/^\/fleet /, "")).ok).toBe(true);
    const band = refusal("alerts subscribe Temperature");
    expect(band.text).toMatch(/Temperature alerts need the range/);
    expect(parse(band.example.replace(/^\/fleet /, "")).ok).toBe(true);
  });

  it("every refusal reads in Romanian too", () => {
    const r = parse("alerts subscribe Speeding speed=5");
    if (r.ok) throw new Error("read");
    const ro = JSON.stringify(grammarErrorMessage(r, "", "ro"));
    expect(ro).toContain("un număr întreg de km/h, de la 10 la 250");
  });
});

describe("/fleet zones", () => {
  it.each([
    ["zones", { kind: "zones-list" }],
    ["zone", { kind: "zones-list" }],
    ["zones list", { kind: "zones-list" }],
    [
      "zones add Depou 44.4326,25.9723",
      {
        kind: "zones-add",
        name: "Depou",
        centre: { latitude: 44.4326, longitude: 25.9723 },
        radiusMeters: 300,
      },
    ],
    [
      "zones add Depou București 44.4326, 25.9723 radius=500",
      {
        kind: "zones-add",
        name: "Depou București",
        centre: { latitude: 44.4326, longitude: 25.9723 },
        radiusMeters: 500,
      },
    ],
    [
      "zone adaugă Depou Sud 44,3 26,1 rază=600",
      {
        kind: "zones-add",
        name: "Depou Sud",
        centre: { latitude: 44.3, longitude: 26.1 },
        radiusMeters: 600,
      },
    ],
    [
      'zones add "Hala 2, Ploiești" 44.94 26.02',
      {
        kind: "zones-add",
        name: "Hala 2, Ploiești",
        centre: { latitude: 44.94, longitude: 26.02 },
        radiusMeters: 300,
      },
    ],
    [
      "zones add Client at B-123-ABC",
      { kind: "zones-add", name: "Client", vehicle: "B-123-ABC", radiusMeters: 300 },
    ],
    [
      "zone adauga Depozit la Gara la CJ-07-XYZ radius=1000",
      { kind: "zones-add", name: "Depozit la Gara", vehicle: "CJ-07-XYZ", radiusMeters: 1000 },
    ],
    ["zones remove Depou", { kind: "zones-remove", name: "Depou" }],
    ["zone șterge depou sud", { kind: "zones-remove", name: "depou sud" }],
    ["zone sterge Depou", { kind: "zones-remove", name: "Depou" }],
  ])("%s", (text, expected) => {
    expect(parse(text)).toEqual({ ok: true, ...expected });
  });

  it("a synonym is suggested, never run", () => {
    expect(refusal("geofences").text).toMatch(/zones/);
  });

  it.each([
    ["zones add Depou 95,200", /is not a place/],
    ["zones add Depou 0,0", /is not a place/],
    ["zones add", /Give the zone a name/],
    ["zones add Depou", /Where is the zone\?/],
    ["zones add Depou 44.4,26.1 radius=20", /radius is whole metres from 50 to 50,000/],
    ["zones add Depou 44.4,26.1 radius=60000", /radius is whole metres from 50 to 50,000/],
    ["zones add *bold* 44.4,26.1", /cannot be a zone name/],
    ["zones remove", /Give the zone a name/],
    ["zones adds Depou 44.4,26.1", /Did you mean `add`\?/],
    ["zones list please", /takes nothing/],
  ])("%s is refused: %s", (text, answer) => {
    const r = refusal(text);
    expect(r.text).toMatch(answer);
    expect(parse(r.example.replace(/^\/fleet /, "")).ok).toBe(true);
  });
});
