import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type FleetCommandResult,
  type GrammarContext,
  parseCommandLine,
  parseFleetCommand,
} from "../../src/commands/index.js";
import { periodText } from "../../src/i18n/periodText.js";
import { msg } from "./problemText.js";

const ctx: GrammarContext = { timeZone: "Europe/Bucharest", now: new Date("2026-11-22T10:00:00Z") };
const parse = (text: string) => parseFleetCommand(text, ctx);

function expectOk(text: string): Exclude<FleetCommandResult, { ok: false }> {
  const r = parse(text);
  if (!r.ok) throw new Error(`${text}: ${msg(r)}`);
  return r;
}

/** Every error must carry an example that itself parses OK. */
function expectError(text: string, fragment: string) {
  const r = parse(text);
  expect(r.ok, text).toBe(false);
  if (r.ok) throw new Error("unreachable");
  expect(msg(r)).toContain(fragment);
  expect(r.example).toMatch(/^\/fleet /);
  const again = parseCommandLine(r.example, ctx).result;
  expect(again.ok, `example ${r.example} of ${text}: ${again.ok ? "" : msg(again)}`).toBe(true);
  return r;
}

const refs = (r: FleetCommandResult) => ("vehicles" in r ? r.vehicles.map((v) => `${v.type}:${v.raw}`) : []);

describe("/fleet: commands without arguments", () => {
  it.each([
    ["", { kind: "modal", report: "report" }],
    ["   ", { kind: "modal", report: "report" }],
    ["report", { kind: "modal", report: "report" }],
    ["report stops", { kind: "modal", report: "stops" }],
    ["help", { kind: "help" }],
    ["HELP stops", { kind: "help", topic: "stops" }],
    ["login", { kind: "login" }],
    ["logout", { kind: "logout" }],
    ["whoami", { kind: "whoami" }],
    ["queue", { kind: "queue" }],
    ["vehicles", { kind: "report", report: "vehicles", vehicles: [] }],
    ["vehicles  volvo   fh ", { kind: "report", report: "vehicles", vehicles: [], filter: "volvo fh" }],
    ["vehicles Pop &amp; Son", { kind: "report", report: "vehicles", vehicles: [], filter: "Pop & Son" }],
    ["where", { kind: "modal", report: "where" }],
    ["route", { kind: "modal", report: "route" }],
    ["stops", { kind: "modal", report: "stops" }],
    ["fuel", { kind: "modal", report: "fuel" }],
    ["refills", { kind: "modal", report: "refills" }],
    ["temps", { kind: "modal", report: "temps" }],
    ["alerts", { kind: "alerts-list" }],
    ["alerts list", { kind: "alerts-list" }],
    ["alerts unsubscribe", { kind: "alerts-unsubscribe" }],
  ])("%j", (text, expected) => {
    expect(expectOk(text)).toEqual({ ok: true, ...expected });
  });
});

describe("/fleet: report commands", () => {
  it("splits vehicles from the period at the end, on commas", () => {
    const r = expectOk("stops Volvo FH 12, B-123-ABC last 3d min=10");
    expect(r).toMatchObject({ kind: "report", report: "stops" });
    if (r.kind !== "report") return;
    expect(refs(r)).toEqual(["name:Volvo FH 12", "plate:B-123-ABC"]);
    expect(r.period?.kind).toBe("days");
    expect(r.period?.from.toISOString()).toBe("2026-11-19T10:00:00.000Z");
    expect(r.minMinutes).toBe(10);
  });

  it.each([
    ["stops B-123-ABC", ["plate:B-123-ABC"], "today", 5],
    ["stops b 123 abc", ["plate:b 123 abc"], "today", 5],
    ["stops b123abc,cj07xyz yesterday", ["plate:b123abc", "plate:cj07xyz"], "yesterday", 5],
    ["stops B-123-ABC CJ-07-XYZ today", ["plate:B-123-ABC", "plate:CJ-07-XYZ"], "today", 5],
    ["stops #12 #13 last 2h", ["id:#12", "id:#13"], "hours", 5],
    ["stops all last week min = 15", ["all:all"], "last-week", 15],
    ["stops min=1 all", ["all:all"], "today", 1],
    ["stops ALL, B-123-ABC", ["all:ALL"], "today", 5],
    ["stops B-123-ABC, b123abc, B 123 ABC", ["plate:B-123-ABC"], "today", 5],
    ["STOPS Volvo FH 12 2026-11-03", ["name:Volvo FH 12"], "date", 5],
    ["stops Truck 7 2026-11-03..2026-11-05", ["name:Truck 7"], "dates", 5],
    ["stops B-123-ABC 2026-11-03 08:00 .. 2026-11-03 17:00 min=30", ["plate:B-123-ABC"], "datetimes", 30],
    ["stops B-123-ABC,today", ["plate:B-123-ABC"], "today", 5],
    ["stops Pop &amp; Son this week", ["name:Pop & Son"], "this-week", 5],
  ])("%j", (text, expectedRefs, periodKind, min) => {
    const r = expectOk(text);
    expect(r).toMatchObject({ kind: "report", report: "stops" });
    if (r.kind !== "report") return;
    expect(refs(r)).toEqual(expectedRefs);
    expect(r.period?.kind).toBe(periodKind);
    expect(r.minMinutes).toBe(min);
  });

  it.each([
    ["route B-123-ABC", "route", ["plate:B-123-ABC"], "today"],
    ["route #42 yesterday", "route", ["id:#42"], "yesterday"],
    ["refills Volvo FH 12 last 7d", "refills", ["name:Volvo FH 12"], "days"],
    ["fuel all last week", "fuel", ["all:all"], "last-week"],
    ["fuel B-1-ABC, B-2-ABC 2026-11-01..2026-11-20", "fuel", ["plate:B-1-ABC", "plate:B-2-ABC"], "dates"],
    ["temps Reefer 3 last 12h", "temps", ["name:Reefer 3"], "hours"],
    ["temps all", "temps", ["all:all"], "today"],
  ])("%j", (text, kind, expectedRefs, periodKind) => {
    const r = expectOk(text);
    expect(r).toMatchObject({ kind: "report", report: kind });
    expect(refs(r)).toEqual(expectedRefs);
    expect("period" in r && r.period?.kind).toBe(periodKind);
  });

  it("where takes one vehicle", () => {
    expect(expectOk("where b 123 abc")).toEqual({
      ok: true,
      kind: "report",
      report: "where",
      vehicles: [{ type: "plate", raw: "b 123 abc", normalised: "B123ABC" }],
    });
    expect(expectOk("where #7")).toMatchObject({
      kind: "report",
      report: "where",
      vehicles: [{ type: "id", vehicleId: 7 }],
    });
  });

  it("prefills the form when only the vehicles are missing", () => {
    const r = expectOk("stops last 3d min=10");
    expect(r).toMatchObject({
      kind: "modal",
      report: "stops",
      prefill: { minMinutes: 10, period: { kind: "days" } },
    });
    expect(expectOk("fuel yesterday")).toMatchObject({
      kind: "modal",
      report: "fuel",
      prefill: { period: { kind: "yesterday" } },
    });
    expect(expectOk("stops , ,")).toEqual({ ok: true, kind: "modal", report: "stops" });
  });
});

describe("/fleet: Romanian periods and words that are no vehicle", () => {
  it.each([
    ["fuel B-88-AFH ieri", "yesterday"],
    ["fuel B-88-AFH astăzi", "today"],
    ["stops all alaltăieri min=10", "day before yesterday"],
    ["stops B-1-ABC, CJ-07-XYZ ultimele 24 de ore", "last 24 hours"],
    ["temps all saptamana trecuta", "last week"],
    ["route B-1-ABC luna trecută", "last month"],
  ])("%j: the period is read, not a vehicle", (text, label) => {
    const r = expectOk(text);
    expect(r.kind).toBe("report");
    expect(refs(r).some((ref) => /ieri|azi|zile|ore|trecut|saptamana|alalt/i.test(ref))).toBe(false);
    expect(
      "period" in r && r.period !== undefined && periodText(r.period.label, "en").startsWith(label),
    ).toBe(true);
  });

  it("fuel B-88-AFH ieri is a fuel report for B-88-AFH yesterday", () => {
    const r = expectOk("fuel B-88-AFH ieri");
    expect(refs(r)).toEqual(["plate:B-88-AFH"]);
    expect("period" in r && r.period?.kind).toBe("yesterday");
  });
});

describe("/fleet: wrong arguments", () => {
  it.each([
    ["stops B-123-ABC 2026-13-01", "`2026-13-01` is not a date", "/fleet stops B-123-ABC 2026-11-21"],
    [
      "stops B-123-ABC 2026-02-30 min=10",
      "February 2026 has 28 days",
      "/fleet stops B-123-ABC 2026-11-21 min=10",
    ],
    ["stops B-123-ABC 2026-11-30", "not started yet", "/fleet stops B-123-ABC 2026-11-21"],
    ["stops Volvo, B-1-ABC last 0d", "from 1 to 366", "/fleet stops Volvo, B-1-ABC last 3d"],
    ["fuel all last 9000h", "from 1 to 8,784", "/fleet fuel all last 12h"],
    [
      "route B-123-ABC 2026-11-05..2026-11-03",
      "ends before it starts",
      "/fleet route B-123-ABC 2026-11-19..2026-11-21",
    ],
    [
      "route B-123-ABC 2026-11-03 25:00..2026-11-03 26:00",
      "`25:00` is not a time",
      "/fleet route B-123-ABC 2026-11-21 08:00..2026-11-21 17:00",
    ],
    ["stops B-123-ABC min=0", "from 1 to 1,440", "/fleet stops B-123-ABC min=10"],
    [
      "stops B-123-ABC yesterday min=abc",
      "whole number of minutes",
      "/fleet stops B-123-ABC yesterday min=10",
    ],
    ["stops B-123-ABC 2026-13-01 min=abc", "whole number of minutes", "/fleet stops B-123-ABC min=10"],
    ["stops B-123-ABC min=2000", "from 1 to 1,440", "/fleet stops B-123-ABC min=10"],
    ["stops B-123-ABC min=5 min=6", "given twice", "/fleet stops B-123-ABC last 3d min=10"],
    ["stops B-123-ABC max=5", "The only option is", "/fleet stops B-123-ABC last 3d min=10"],
    ["fuel B-123-ABC min=5 yesterday", "only for `/fleet stops`", "/fleet fuel B-123-ABC yesterday"],
    ["stops today B-123-ABC", "Put the period after the vehicles", "/fleet stops B-123-ABC today"],
    ["stops last 3d B-123-ABC", "Put the period after the vehicles", "/fleet stops B-123-ABC last 3d"],
    ["stops ieri B-123-ABC", "Put the period after the vehicles", "/fleet stops B-123-ABC ieri"],
    [
      "stops săptămâna trecută B-123-ABC",
      "Put the period after the vehicles",
      "/fleet stops B-123-ABC săptămâna trecută",
    ],
    [
      "stops all yesterday please",
      "`please` is neither a vehicle nor a period",
      "/fleet stops all yesterday",
    ],
    ["fuel B-88-AFH ieri pls", "`pls` is neither a vehicle nor a period", "/fleet fuel B-88-AFH ieri"],
    ["stops all please", "`please` is neither a vehicle nor a period", "/fleet stops all"],
    ["route all yesterday thanks", "`thanks` is neither", "/fleet route B-123-ABC yesterday"],
    ["route B-1-ABC, B-2-ABC", "one vehicle at a time; you gave 2", "/fleet route B-1-ABC"],
    ["refills B-10-ABC B-20-ABC last 3d", "one vehicle at a time", "/fleet refills B-10-ABC last 3d"],
    ["route all yesterday", "not `all`", "/fleet route B-123-ABC yesterday"],
    ["where all", "not `all`", "/fleet vehicles"],
    ["where B-1-ABC, B-2-ABC", "one vehicle at a time", "/fleet where B-1-ABC"],
    ["where B-123-ABC yesterday", "takes no period", "/fleet where B-123-ABC"],
    ["stops #abc", "is not a vehicle id", "/fleet stops B-123-ABC last 3d min=10"],
    ["stops #0", "is not a vehicle id", "/fleet stops B-123-ABC last 3d min=10"],
    ["stops B-123-ABC 03/11/2026", "Dates are written YYYY-MM-DD", "/fleet stops B-123-ABC 2026-11-21"],
    [
      "stops B-123-ABC 2026-11-03 08:00",
      "a time needs an end",
      "/fleet stops B-123-ABC 2026-11-21 08:00..2026-11-21 17:00",
    ],
    ["login hunter2", "Never type a password", "/fleet login"],
    ["whoami now", "takes nothing after it", "/fleet whoami"],
    ["queue all", "takes nothing after it", "/fleet queue"],
    ["report everything", "give nothing, or one of", "/fleet report"],
  ])("%j", (text, fragment, example) => {
    expect(expectError(text, fragment).example).toBe(example);
  });

  it("an unknown subcommand suggests the closest and asks for help", () => {
    const r = expectError("stosp B-123-ABC last 3d", "Did you mean `/fleet stops`?");
    expect(r).toMatchObject({
      suggestion: "stops",
      showHelp: true,
      example: "/fleet stops B-123-ABC last 3d",
    });
    expect(expectError("wher", "Did you mean `/fleet where`?").example).toBe("/fleet where B-123-ABC");
    expect(expectError("vehicle", "`/fleet vehicles`").suggestion).toBe("vehicles");
    expect(expectError("temperature all", "`/fleet temps`").example).toBe("/fleet temps all");
    expect(expectError("consumption all yesterday", "`/fleet fuel`").example).toBe(
      "/fleet fuel all yesterday",
    );
    expect(expectError("stosp B-123-ABC 2026-13-01", "`/fleet stops`").example).toBe(
      "/fleet stops B-123-ABC last 3d min=10",
    );
    const far = expectError("xyzzy", "is not a command");
    expect(far).toMatchObject({ showHelp: true, example: "/fleet help" });
    expect(far.suggestion).toBeUndefined();
  });

  it("a bare vehicle asks what to show", () => {
    expect(expectError("B-123-ABC", "Say what you want to know").example).toBe("/fleet where B-123-ABC");
    expect(expectError("b 123 abc", "Say what you want to know").example).toBe("/fleet where b 123 abc");
    expect(expectError("#12", "Say what you want to know").example).toBe("/fleet where #12");
  });
});

describe("/fleet alerts", () => {
  it.each([
    // No codes, or `all`: no filter at all (every kind, including ones a later fleetbot adds).
    ["alerts subscribe", undefined, []],
    ["alerts subscribe all", undefined, []],
    ["alerts subscribe <#C0123ABC|general>", { id: "C0123ABC", name: "general" }, []],
    ["alerts subscribe <#C0123ABC>", { id: "C0123ABC" }, []],
    ["alerts subscribe <#C0123ABC|>", { id: "C0123ABC" }, []],
    ["alerts subscribe vanished STALLED notstarted", undefined, ["Vanished", "Stalled", "notstarted"]],
    ["alerts subscribe C0123ABCDE error", { id: "C0123ABCDE" }, ["Error"]],
    [
      "alerts subscribe <#G0123ABC|ops> error, OLDDATA no-gps-coordinates",
      { id: "G0123ABC", name: "ops" },
      ["Error", "OldData", "NoGPSCoordinates"],
    ],
    [
      "alerts subscribe notinromania missing_etransport_configuration withouttransmission",
      undefined,
      ["NotInRomania", "MissingETransportConfiguration", "WithoutTransmission"],
    ],
    ["alerts subscribe expiry ChangeRequest error error", undefined, ["expiry", "changerequest", "Error"]],
    ["alerts subscribe Error <#C0123ABC|general>", { id: "C0123ABC", name: "general" }, ["Error"]],
  ])("%j", (text, channel, codes) => {
    const r = expectOk(text);
    expect(r.kind).toBe("alerts-subscribe");
    if (r.kind !== "alerts-subscribe") return;
    expect(r.channel).toEqual(channel);
    expect(r.codes).toEqual(codes);
  });

  it("unsubscribes a channel", () => {
    expect(expectOk("alerts unsubscribe <#C0123ABC|general>")).toEqual({
      ok: true,
      kind: "alerts-unsubscribe",
      channel: { id: "C0123ABC", name: "general" },
    });
  });

  it.each([
    ["alerts subscribe #general", "pick the channel from the list"],
    ["alerts subscribe <#C0123ABC|a> <#C0456DEF|b>", "one channel at a time"],
    ["alerts subscribe olddta", "Did you mean `OldData`?"],
    ["alerts subscribe banana", "is not an alert code"],
    ["alerts unsubscribe error", "takes only a channel"],
    ["alerts list now", "takes nothing after it"],
    ["alerts subscrib", "Did you mean `/fleet alerts subscribe`?"],
    ["alerts frobnicate", "is not a command"],
  ])("%j", (text, fragment) => {
    expectError(text, fragment);
  });

  it("suggests the closest code", () => {
    expect(expectError("alerts subscribe olddta", "OldData")).toMatchObject({
      suggestion: "OldData",
      example: "/fleet alerts subscribe OldData",
    });
  });
});

describe("/fleet: properties", () => {
  const words = fc.constantFrom(
    "stops",
    "route",
    "fuel",
    "refills",
    "temps",
    "where",
    "vehicles",
    "alerts",
    "subscribe",
    "login",
    "help",
    "stosp",
    "B-123-ABC",
    "b",
    "123",
    "abc",
    "#12",
    "#x",
    "all",
    ",",
    "Volvo",
    "FH",
    "today",
    "yesterday",
    "last",
    "3d",
    "0h",
    "week",
    "this",
    "2026-11-03",
    "2026-13-01",
    "2026-11-03..2026-11-05",
    "08:00..17:00",
    "2027-01-01",
    "..",
    "min=10",
    "min=0",
    "min=",
    "x=1",
    "<#C0123ABC|general>",
    "#general",
    "error",
    "olddata",
    "zzz",
    "2026-11-03 08:00..2026-11-03 17:00",
    "25:00",
    "&amp;",
    "ieri",
    "azi",
    "ultimele",
    "zile",
    "de",
    "săptămâna",
    "trecută",
    "luna",
    "please",
    "unde",
    "opriri",
    "ALIMENTĂRI",
    "coada",
    "raport",
    "limba",
    "workspace",
    "ro",
    "1,5h",
    "min=7,5",
    "7,5",
  );
  const texts = fc.array(words, { maxLength: 7 }).map((ws) => ws.join(" "));

  it("gives a working example when the typed pieces do not combine (a vehicle named like a period word)", () => {
    const r = parseFleetCommand("stops ultimele 2026-13-01 0h", ctx);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(parseCommandLine(r.example, ctx).result.ok).toBe(true);
  });

  it("never throws; every error has a message and an example that parses OK", () => {
    fc.assert(
      fc.property(texts, fc.constantFrom("Europe/Bucharest", "America/New_York"), (text, timeZone) => {
        const c = { timeZone, now: ctx.now };
        const r = parseFleetCommand(text, c);
        if (r.ok) return;
        expect(msg(r).length).toBeGreaterThan(0);
        const again = parseCommandLine(r.example, c).result;
        expect(again.ok, `${text} → ${r.example}`).toBe(true);
      }),
      { numRuns: 4000 },
    );
  });

  it("tolerates arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const r = parseFleetCommand(text, ctx);
        if (!r.ok) expect(parseCommandLine(r.example, ctx).result.ok, `${text} → ${r.example}`).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
