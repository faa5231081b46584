import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ALERT_OPTIONS_EXAMPLE, usageExamples } from "../../src/commands/help.js";
import { etransportUsageExamples, fleetUsage, helpText, parseCommandLine } from "../../src/commands/index.js";
import { alertOptions } from "../../src/features/alerts/slack/listeners.js";
import { LANGUAGES } from "../../src/i18n/index.js";

describe("help", () => {
  it("every usage example, in both languages, parses into the command it documents, at any date and zone", () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date("2020-01-01T00:00:00Z"),
          max: new Date("2040-01-01T00:00:00Z"),
          noInvalidDate: true,
        }),
        fc.constantFrom("Europe/Bucharest", "America/New_York", "Pacific/Kiritimati"),
        (now, timeZone) => {
          for (const example of LANGUAGES.flatMap(usageExamples)) {
            const r = parseCommandLine(example, { timeZone, now }).result;
            expect(r.ok, example).toBe(true);
            if (!r.ok) continue;
            if (example === "/fleet report" || example === "/fleet raport") expect(r.kind).toBe("modal");
            else expect(r.kind, example).not.toBe("modal");
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("has one line per command with its example", () => {
    const text = helpText("all", undefined, "en");
    // Placeholders such as <vehicle> are escaped: unescaped, Slack would read them as links.
    const escaped = (t: string) => t.replace(/</g, "&lt;").replace(/>/g, "&gt;");
    const romanian = (words: readonly string[] = []) =>
      words.length > 0 ? ` (${words.map((w) => `\`${w}\``).join(", ")})` : "";
    for (const line of fleetUsage)
      expect(text).toContain(
        `\`${escaped(line.syntax)}\`${romanian(line.romanian)} – ${line.does}. e.g. \`${line.example}\``,
      );
    expect(text).not.toMatch(/<[a-z]/i);
    for (const example of etransportUsageExamples) expect(text).toContain(example);
    expect(helpText("fleet", undefined, "en")).not.toContain("/etransport");
    expect(helpText("etransport", undefined, "en")).not.toContain("/fleet ");
    expect(text.split("\n").length).toBe(fleetUsage.length + etransportUsageExamples.length + 7);
  });

  it("documents the alert filters min=, exclude= and vehicles=, and its example of them is read", () => {
    const subscribe = helpText("fleet", undefined, "en")
      .split("\n")
      .find((line) => line.includes("/fleet alerts subscribe"));
    for (const option of ["min=", "exclude=", "vehicles="]) expect(subscribe).toContain(option);
    const typed = ALERT_OPTIONS_EXAMPLE.replace(/^\/fleet /, "");
    const { text, options, problem } = alertOptions(typed);
    expect(problem).toBeUndefined();
    expect(options).toEqual({ minDurationMinutes: 15, exclude: ["OldData"], vehicles: ["B-123-ABC"] });
    const parsed = parseCommandLine(`/fleet ${text}`, {
      timeZone: "Europe/Bucharest",
      now: new Date(),
    }).result;
    expect(parsed.ok && parsed.kind).toBe("alerts-subscribe");
  });
});
