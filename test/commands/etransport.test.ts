import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type EtransportCommandResult,
  normaliseUit,
  parseCommandLine,
  parseEtransportCommand,
  parseUitList,
} from "../../src/commands/index.js";
import { msg } from "./problemText.js";

const ctx = { timeZone: "Europe/Bucharest", now: new Date("2026-11-22T10:00:00Z") };
const parse = (text: string) => parseEtransportCommand(text, ctx);
const U1 = "Y45R577UN544GY4S";
const U2 = "AB12CD34EF56GH78";

function expectError(text: string, fragment: string) {
  const r: EtransportCommandResult = parse(text);
  expect(r.ok, text).toBe(false);
  if (r.ok) throw new Error("unreachable");
  expect(msg(r)).toContain(fragment);
  expect(r.example).toMatch(/^\/etransport /);
  expect(parseCommandLine(r.example, ctx).result.ok, r.example).toBe(true);
  return r;
}

describe("normaliseUit", () => {
  it.each([
    ["y45r-577u-n544-gy4s", U1],
    ["Y45R 577U N544 GY4S", U1],
    ["  Y45R577UN544GY4S ", U1],
    ["Y45R–577U–N544–GY4S", U1],
    ["Y45R577UN544GY4", undefined],
    ["Y45R577UN544GY4S1", undefined],
    ["Y45R.577U.N544.GY4S", undefined],
    ["Y45R577UN544GY4Ș", undefined],
    ["", undefined],
  ])("%j → %j", (text, expected) => {
    expect(normaliseUit(text)).toBe(expected);
  });

  it("accepts any dash/space grouping of a valid 16-character code, alone or in a list", () => {
    const alnum = fc.constantFrom(
      ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".split(""),
    );
    const uit = fc.array(alnum, { minLength: 16, maxLength: 16 });
    const seps = fc.array(fc.constantFrom("", "", "", "-", " ", " - ", "  "), {
      minLength: 16,
      maxLength: 16,
    });
    const written = fc.tuple(uit, seps).map(([chars, s]) => ({
      canonical: chars.join("").toUpperCase(),
      text: chars.map((c, i) => `${c}${i < 15 ? s[i] : ""}`).join(""),
    }));
    fc.assert(
      fc.property(
        fc.array(written, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(", ", ",", " "),
        (list, joiner) => {
          for (const { canonical, text } of list) expect(normaliseUit(text)).toBe(canonical);
          const expected = [...new Set(list.map((u) => u.canonical))];
          // Several UITs separated by commas always work; by spaces they work too, because each adds up to 16.
          const r = parseUitList(list.map((u) => u.text).join(joiner));
          expect(r).toEqual({ ok: true, uits: expected });
          const cmd = parseEtransportCommand(`start ${list.map((u) => u.text).join(joiner)}`);
          expect(cmd).toEqual({ ok: true, kind: "start", uits: expected });
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("/etransport commands", () => {
  it.each([
    ["", { kind: "list", filters: ["default"], statusIds: [1, 2, 6] }],
    ["list", { kind: "list", filters: ["default"], statusIds: [1, 2, 6] }],
    ["list pending", { kind: "list", filters: ["pending"], statusIds: [1] }],
    ["list active", { kind: "list", filters: ["active"], statusIds: [2] }],
    ["list paused", { kind: "list", filters: ["paused"], statusIds: [6] }],
    ["list completed", { kind: "list", filters: ["completed"], statusIds: [3, 4] }],
    ["list ALL", { kind: "list", filters: ["all"], statusIds: [1, 2, 3, 4, 6] }],
    ["list active paused", { kind: "list", filters: ["active", "paused"], statusIds: [2, 6] }],
    [
      "list completed B-123-ABC",
      { kind: "list", filters: ["completed"], statusIds: [3, 4], search: "B-123-ABC" },
    ],
    [
      "list  Cluj   Napoca ",
      { kind: "list", filters: ["default"], statusIds: [1, 2, 6], search: "Cluj Napoca" },
    ],
    ["list y45r-577u-n544-gy4s", { kind: "list", filters: ["default"], statusIds: [1, 2, 6], search: U1 }],
    [
      "list all Y45R 577U N544 GY4S",
      { kind: "list", filters: ["all"], statusIds: [1, 2, 3, 4, 6], search: U1 },
    ],
    ["list constructor", { kind: "list", filters: ["default"], statusIds: [1, 2, 6], search: "constructor" }],
    ["help", { kind: "help" }],
    ["new", { kind: "new" }],
    ["new y45r-577u-n544-gy4s", { kind: "new", uit: U1 }],
    ["start", { kind: "modal", form: "start" }],
    ["pause", { kind: "modal", form: "pause" }],
    ["end", { kind: "modal", form: "end" }],
    ["edit", { kind: "modal", form: "edit" }],
    ["remove", { kind: "modal", form: "remove" }],
    ["start y45r-577u-n544-gy4s", { kind: "start", uits: [U1] }],
    ["START Y45R 577U N544 GY4S", { kind: "start", uits: [U1] }],
    [`pause ${U1} ${U2}`, { kind: "pause", uits: [U1, U2] }],
    [`end ${U1},${U2}, ${U1}`, { kind: "end", uits: [U1, U2] }],
    ["end Y45R 577U N544 GY4S AB12 CD34 EF56 GH78", { kind: "end", uits: [U1, U2] }],
    ["edit Y45R-577U-N544-GY4S", { kind: "edit", uit: U1 }],
    ["remove y45r577un544gy4s", { kind: "remove", uit: U1 }],
    ["history y45r 577u n544 gy4s", { kind: "history", uit: U1 }],
    [`HISTORY ${U1}`, { kind: "history", uit: U1 }],
  ])("%j", (text, expected) => {
    expect(parse(text)).toEqual({ ok: true, ...expected });
  });

  it.each([
    ["start Y45R 577U N544 GY4", "it has 15 characters", `/etransport start Y45R-577U-N544-GY4S`],
    ["start Y45R577UN544GY4S1", "it has 17 characters", `/etransport start Y45R-577U-N544-GY4S`],
    [`end Y45R577UN544GY4 ${U2}`, "`Y45R577UN544GY4` is not a UIT", `/etransport end Y45R-577U-N544-GY4S`],
    [
      "pause Y45R 577U N544 GY4SX",
      "`Y45R 577U N544 GY4SX` is not a UIT",
      `/etransport pause Y45R-577U-N544-GY4S`,
    ],
    ["pause Y45R.577U", "only letters and digits", `/etransport pause Y45R-577U-N544-GY4S`],
    [`edit ${U1} ${U2}`, "one transport at a time; you gave 2", `/etransport edit ${U1}`],
    [`remove ${U1}, ${U2}`, "one transport at a time", `/etransport remove ${U1}`],
    ["new ABC", "is not a UIT", "/etransport new"],
    ["history", "needs the UIT", "/etransport history Y45R-577U-N544-GY4S"],
    ["history ABC-123", "`ABC-123` is not a UIT", "/etransport history Y45R-577U-N544-GY4S"],
    [`history ${U1} ${U2}`, "one transport at a time; you gave 2", `/etransport history ${U1}`],
    [`audit ${U1}`, "Did you mean `/etransport history`", `/etransport history ${U1}`],
    ["stop Y45R-577U-N544-GY4S", "Did you mean `/etransport end`", "/etransport end Y45R-577U-N544-GY4S"],
    [
      "strat Y45R-577U-N544-GY4S",
      "Did you mean `/etransport start`",
      "/etransport start Y45R-577U-N544-GY4S",
    ],
    ["delete", "Did you mean `/etransport remove`", "/etransport remove Y45R-577U-N544-GY4S"],
    ["lst active", "Did you mean `/etransport list`", "/etransport list active"],
    ["Y45R-577U-N544-GY4S", "Say what to do with `Y45R577UN544GY4S`", `/etransport start ${U1}`],
    ["frobnicate", "is not a command", "/etransport help"],
    ["__proto__", "is not a command", "/etransport help"],
  ])("%j", (text, fragment, example) => {
    expect(expectError(text, fragment).example).toBe(example);
  });

  it("suggests pause as well for stop", () => {
    expect(expectError("stop", "/etransport pause").suggestion).toBe("end");
  });

  it("never throws, and every error example parses", () => {
    const words = fc.constantFrom(
      "start",
      "pause",
      "end",
      "edit",
      "remove",
      "list",
      "new",
      "active",
      "all",
      "Y45R",
      "577U",
      "N544",
      "GY4S",
      U1,
      "y45r-577u-n544-gy4s",
      ",",
      "X",
      "strat",
      "12345678901234567",
      "-",
      "..",
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(words, { maxLength: 8 }).map((w) => w.join(" ")),
          fc.string(),
        ),
        (text) => {
          const r = parse(text);
          if (!r.ok) expect(parseCommandLine(r.example, ctx).result.ok, `${text} → ${r.example}`).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
