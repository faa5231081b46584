import { describe, expect, it } from "vitest";
import { exampleIn } from "../../src/commands/examples.js";
import { type FleetGrammarContext, parseCommandLine, parseFleetCommand } from "../../src/commands/index.js";
import { parseSchedule } from "../../src/commands/schedule.js";
import { grammarProblemText } from "../../src/commands/views/grammarError.js";

/** `/fleet schedule` read by the one grammar (issue 34): English and Romanian, and wrong input. */

const ctx: FleetGrammarContext = { timeZone: "Europe/Bucharest", now: new Date("2026-11-22T10:00:00Z") };
const parse = (text: string) => parseSchedule(text, ctx, parseFleetCommand);

describe("/fleet schedule", () => {
  it.each([
    ["fuel all yesterday every day at 07:30", "fuel all yesterday", { every: "day", time: "07:30" }],
    ["fuel all yesterday daily at 7:30", "fuel all yesterday", { every: "day", time: "07:30" }],
    [
      "stops all yesterday min=15 every weekday at 07:30",
      "stops all yesterday min=15",
      { every: "weekday", time: "07:30" },
    ],
    [
      "fuel all last week every monday at 08:00",
      "fuel all last week",
      { every: "week", weekday: 1, time: "08:00" },
    ],
    [
      "fuel all last month every month on 1 at 08:00",
      "fuel all last month",
      { every: "month", day: 1, time: "08:00" },
    ],
    [
      "temps all yesterday every month on 31 at 06:05",
      "temps all yesterday",
      { every: "month", day: 31, time: "06:05" },
    ],
    [
      "combustibil toate ieri în fiecare zi la 07:30",
      "combustibil toate ieri",
      { every: "day", time: "07:30" },
    ],
    [
      "combustibil toate ieri in fiecare zi la 07.30",
      "combustibil toate ieri",
      { every: "day", time: "07:30" },
    ],
    [
      "opriri toate ieri în zilele lucrătoare la 07:30",
      "opriri toate ieri",
      { every: "weekday", time: "07:30" },
    ],
    [
      "opriri toate ieri in zilele lucratoare la 07:30",
      "opriri toate ieri",
      { every: "weekday", time: "07:30" },
    ],
    [
      "combustibil toate săptămâna trecută în fiecare luni la 08:00",
      "combustibil toate săptămâna trecută",
      { every: "week", weekday: 1, time: "08:00" },
    ],
    [
      "consum toate luna trecută în fiecare lună pe 1 la 08:00",
      "consum toate luna trecută",
      { every: "month", day: 1, time: "08:00" },
    ],
    ["combustibil toate ieri zilnic la 07:30", "combustibil toate ieri", { every: "day", time: "07:30" }],
    // The two languages' words may mix: a dispatcher types what comes first.
    [
      "fuel all yesterday every sâmbătă at 09:00",
      "fuel all yesterday",
      { every: "week", weekday: 6, time: "09:00" },
    ],
  ])("%s", (text, report, recurrence) => {
    const r = parse(text);
    if (report === undefined) {
      expect(r.ok).toBe(false);
      return;
    }
    expect(r).toEqual({ ok: true, kind: "schedule-add", report, recurrence });
  });

  it("in #channel, a picked one or a typed one", () => {
    expect(parse("fuel all yesterday every day at 07:30 in <#C0DISPECER|dispecerat>")).toMatchObject({
      ok: true,
      channel: { id: "C0DISPECER", name: "dispecerat" },
    });
    expect(parse("combustibil toate ieri în fiecare zi la 07:30 în #dispecerat")).toMatchObject({
      ok: true,
      channel: { id: "", name: "dispecerat" },
    });
  });

  it("lists and removes", () => {
    expect(parse("")).toEqual({ ok: true, kind: "schedule-list" });
    expect(parse("list")).toEqual({ ok: true, kind: "schedule-list" });
    expect(parse("remove 7k2q")).toEqual({ ok: true, kind: "schedule-remove", id: "7K2Q" });
    expect(parse("șterge 7K2Q")).toEqual({ ok: true, kind: "schedule-remove", id: "7K2Q" });
  });

  it.each([
    ["fuel all yesterday every day", /Say when it runs, at the end: `at 07:30`/, /Spune când rulează/],
    ["fuel all yesterday every day at 25:00", /not `at 25:00`/, /nu `at 25:00`/],
    ["fuel all yesterday every fortnight at 07:30", /How often\?/, /Cât de des\?/],
    ["fuel all last month every month on 32 at 08:00", /`32` is not a day of the month/, /nu e o zi a lunii/],
    ["every day at 07:30", /Which report\?/, /Ce raport\?/],
    ["queue every day at 07:30", /`queue` is not a report/, /nu e un raport/],
    ["remove", /Give the schedule's id/, /Scrie codul programării/],
  ])("%s is refused with words in both languages and an example that works", (text, en, ro) => {
    const r = parse(text);
    if (r.ok) throw new Error(`${text} was read`);
    expect(grammarProblemText(r.problem, "en")).toMatch(en);
    expect(grammarProblemText(r.problem, "ro")).toMatch(ro);
    const example = parse(r.example.replace(/^\/fleet schedule ?/, ""));
    expect(example.ok, r.example).toBe(true);
  });

  it("a report command that cannot be read is answered as the report grammar answers it", () => {
    const r = parse("fuel B-123-ABC tomorrow every day at 07:30");
    expect(r.ok).toBe(false);
  });
});

describe("a schedule error's example, for a Romanian reader", () => {
  it.each([
    [
      "/fleet schedule fuel all yesterday every day at 07:30",
      "/fleet programează combustibil toate ieri în fiecare zi la 07:30",
    ],
    [
      "/fleet schedule stops all last week every monday at 08:00",
      "/fleet programează opriri toate săptămâna trecută în fiecare luni la 08:00",
    ],
    [
      "/fleet schedule fuel all last month every month on 1 at 08:00",
      "/fleet programează combustibil toate luna trecută în fiecare lună pe 1 la 08:00",
    ],
    ["/fleet schedule remove 7K2Q", "/fleet programează șterge 7K2Q"],
  ])("%s → %s, the same command", (english, romanian) => {
    expect(exampleIn(english, "ro")).toBe(romanian);
    const ctx = { timeZone: "Europe/Bucharest", now: new Date("2026-11-29T10:00:00Z") };
    expect(parseCommandLine(romanian, ctx).result.ok).toBe(true);
  });
});

describe("a schedule of something that is no report", () => {
  it("is answered as such, with a schedule that works, not with /fleet's help", () => {
    const result = parse("<!channel> every day at 07:30");
    expect(result).toMatchObject({ ok: false, problem: { code: "scheduleCommand", part: "notAReport" } });
    expect(result.ok ? "" : result.example).toBe("/fleet schedule fuel all yesterday every day at 07:30");
  });
});
