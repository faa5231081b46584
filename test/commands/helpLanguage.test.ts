/**
 * The help in the reader's language: English as it always was (the English words first, the
 * Romanian in brackets); Romanian with the Romanian words first, the English in brackets, every
 * description in Romanian, and every example a command that parses, the same command as the
 * English line's.
 */
import { describe, expect, it } from "vitest";
import { helpText, usageExamples, usageLines } from "../../src/commands/help.js";
import { parseCommandLine } from "../../src/commands/index.js";
import { helpMessage } from "../../src/commands/views/help.js";
import { messages } from "../../src/i18n/index.js";

const ctx = { timeZone: "Europe/Bucharest", now: new Date("2026-11-22T10:00:00Z") };
const parse = (text: string) => parseCommandLine(text, ctx).result;
/**
 * What a command does: its parse without the period and vehicles as typed (`ieri` or `yesterday`,
 * `toate` or `all`); a schedule's
 * report (kept as typed, `combustibil toate ieri`) by what that report does.
 */
const meaning = (text: string): unknown => {
  const parsed = parse(text);
  if (parsed.ok && parsed.kind === "schedule-add")
    return { ...parsed, report: meaning(`/fleet ${parsed.report}`) };
  if (!parsed.ok) return parsed;
  // Vehicles by what they name, not as typed (`toate` and `all` are every vehicle).
  const typedAside =
    "vehicles" in parsed && Array.isArray(parsed.vehicles)
      ? { ...parsed, vehicles: parsed.vehicles.map(({ raw: _raw, ...vehicle }) => vehicle) }
      : parsed;
  if (!("period" in parsed) || !parsed.period) return typedAside;
  const { text: _typed, ...period } = parsed.period;
  return { ...typedAside, period };
};
const escaped = (t: string) => t.replace(/</g, "&lt;").replace(/>/g, "&gt;");

describe("the help in Romanian", () => {
  const text = helpText("all", undefined, "ro");

  it("has one line per command: the Romanian words first, the English in brackets, `Ex.:`", () => {
    for (const command of ["fleet", "etransport"] as const)
      for (const line of usageLines(command, "ro")) {
        const others = line.others ?? [];
        const bracketed =
          others.length > 0 ? ` (${others.map((w) => `\`${w}\``).join(line.alternatives ? "|" : ", ")})` : "";
        expect(text).toContain(
          `• \`${escaped(line.syntax)}\`${bracketed} – ${line.does}. Ex.: \`${line.example}\``,
        );
      }
    expect(text.split("\n").length).toBe(
      usageLines("fleet", "ro").length + usageLines("etransport", "ro").length + 7,
    );
    expect(text).not.toMatch(/<[a-z]/i);
    expect(text).not.toContain("e.g.");
  });

  it("shows the examples the issue names", () => {
    expect(text).toContain("• `/fleet ajutor` (`help`) – lista aceasta. Ex.: `/fleet ajutor`");
    expect(text).toContain("`/fleet unde &lt;vehicul&gt;` (`where`) – ");
    expect(text).toContain("`/fleet combustibil &lt;vehicule|all&gt; [perioadă]` (`consum`, `fuel`) – ");
    expect(text).toContain("`/fleet coadă` (`queue`) – ");
    expect(text).toContain("`/fleet raport` (`report`) – ");
    expect(text).toContain("(`start`|`pause`|`end`) – pornește, pune în pauză sau finalizează transporturi");
    expect(text).toContain("Ex.: `/fleet traseu B-123-ABC ieri`");
    expect(text).toContain("Ex.: `/fleet combustibil toate săptămâna trecută`");
    // A command with no Romanian word keeps its English one, without brackets.
    expect(text).toContain("• `/fleet login` – asociază-ți contul platformei GPS");
  });

  it("writes every description, heading and note in Romanian", () => {
    const ro = messages("ro").help;
    const en = messages("en").help;
    for (const command of ["fleet", "etransport"] as const) {
      const roLines = usageLines(command, "ro");
      const enLines = usageLines(command, "en");
      expect(roLines.length).toBe(enLines.length);
      for (const [i, line] of roLines.entries()) expect(line.does, line.syntax).not.toBe(enLines[i]?.does);
    }
    for (const note of [ro.vehiclesNote(), ro.periodsNote(), ro.alertCodesNote(), ro.uitNote()])
      expect(text).toContain(note);
    expect(text).toContain(ro.heading({ command: "/fleet" }));
    expect(text).not.toContain(en.heading({ command: "/fleet" }));
    for (const english of ["this list", "*Periods*", "*Vehicles*", "transports with buttons"])
      expect(text).not.toContain(english);
  });

  it("every Romanian example parses, as the same command as its English line's", () => {
    for (const command of ["fleet", "etransport"] as const) {
      const enLines = usageLines(command, "en");
      usageLines(command, "ro").forEach((line, i) => {
        const english = enLines[i]?.example ?? "";
        const parsed = parse(line.example);
        expect(parsed.ok, line.example).toBe(true);
        expect(meaning(line.example), `${line.example} ≡ ${english}`).toEqual(meaning(english));
      });
    }
    expect(usageExamples("ro").length).toBe(usageExamples("en").length);
  });

  it("narrows to one command, and fits Slack's limits", () => {
    expect(helpText("fleet", undefined, "ro")).not.toContain("/etransport");
    expect(helpText("etransport", undefined, "ro")).not.toContain("/fleet ");
    expect(helpText("etransport", undefined, "ro")).toContain("`/etransport nou` (`new`)");
    for (const which of ["all", "fleet", "etransport"] as const) {
      const message = helpMessage(helpText(which, undefined, "ro"), undefined, "fleetbot");
      expect(message.blocks.length).toBeLessThanOrEqual(50);
      for (const block of message.blocks)
        if (block.type === "section") expect(block.text?.text.length ?? 0).toBeLessThanOrEqual(3000);
    }
  });

  it("uses the reader's own vehicles in Romanian examples too", () => {
    const own = helpText("fleet", { plates: ["B-77-KMT"], vehicleId: 41 }, "ro");
    expect(own).toContain("Ex.: `/fleet opriri B-77-KMT ultimele 3 zile min=10`");
    expect(own).toContain("Ex.: `/fleet temperaturi #41 ultimele 12 ore`");
    expect(own).not.toMatch(/B-123-ABC|CJ-07-XYZ|#1234\b/);
  });
});

describe("the help in English", () => {
  it("is as before: the English words first, the Romanian in brackets, `e.g.`", () => {
    const text = helpText("all", undefined, "en");
    expect(text).toBe(helpText("all", undefined, "en"));
    expect(text).toContain("• `/fleet help` (`ajutor`) – this list. e.g. `/fleet help`");
    expect(text).toContain("*/fleet* _(in brackets: the Romanian word, also without diacritics)_");
    expect(text).toContain("e.g. `/fleet route B-123-ABC yesterday`");
    expect(text).not.toContain("Ex.: `");
  });
});
