import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ETRANSPORT_ROMANIAN_WORDS } from "../../src/commands/etransport.js";
import { FLEET_ROMANIAN_WORDS } from "../../src/commands/fleet.js";
import {
  etransportUsage,
  fleetUsage,
  type GrammarContext,
  type GrammarError,
  helpText,
  parseCommandLine,
  parseEtransportCommand,
  parseFleetCommand,
} from "../../src/commands/index.js";
import { helpMessage } from "../../src/commands/views/help.js";
import { alertOptions } from "../../src/features/alerts/slack/listeners.js";
import { alertOptionProblemMessage } from "../../src/features/alerts/slack/views/subscriptionAnswers.js";
import { msg } from "./problemText.js";

const ctx: GrammarContext = { timeZone: "Europe/Bucharest", now: new Date("2026-11-22T10:00:00Z") };
const fleet = (text: string) => parseFleetCommand(text, ctx);
const etransport = (text: string) => parseEtransportCommand(text, ctx);
const UIT = "Y45R577UN544GY4S";

/** The ways one Romanian word reaches the bot: Romanian keyboards write ș/ț below with a comma or a cedilla. */
function spellings(word: string): string[] {
  const cedilla = word.replaceAll("ș", "ş").replaceAll("ț", "ţ");
  const plain = word.normalize("NFD").replace(/\p{M}/gu, "");
  return [word, cedilla, plain, word.toUpperCase(), cedilla.toUpperCase(), word.normalize("NFD")];
}

function expectWorkingError(r: { ok: boolean }, text: string): GrammarError {
  expect(r.ok, text).toBe(false);
  const error = r as GrammarError;
  expect(parseCommandLine(error.example, ctx).result.ok, `${text} → ${error.example}`).toBe(true);
  return error;
}

/**
 * A result with the word echoed as typed (`/fleet raport zzz`) read as its English word: the
 * echo is the one difference a Romanian word may make.
 */
function echoedAs<R>(result: R, spelling: string, english: string): R {
  const problem = (result as { problem?: { given?: unknown } }).problem;
  if (typeof problem?.given !== "string" || !problem.given.startsWith(`/fleet ${spelling} `)) return result;
  return {
    ...result,
    problem: { ...problem, given: `/fleet ${english}${problem.given.slice(`/fleet ${spelling}`.length)}` },
  };
}

describe("/fleet: Romanian words", () => {
  // Written out, not read from the grammar: the contract's words.
  const words: [string, string][] = [
    ["unde", "where"],
    ["vehicule", "vehicles"],
    ["traseu", "route"],
    ["opriri", "stops"],
    ["combustibil", "fuel"],
    ["consum", "fuel"],
    ["alimentări", "refills"],
    ["alimentari", "refills"],
    ["temperaturi", "temps"],
    ["raport", "report"],
    ["coadă", "queue"],
    ["coada", "queue"],
    ["ajutor", "help"],
    ["limba", "language"],
  ];
  const args = fc.constantFrom(
    "",
    "B-123-ABC",
    "B-123-ABC yesterday",
    "all last week",
    "B-123-ABC, CJ-07-XYZ ultimele 3 zile min=10",
    "volvo",
    "stops",
    "ro",
    "x=1",
    "all please",
  );

  it("the grammar's list is the contract's", () => {
    const listed = [...FLEET_ROMANIAN_WORDS.keys()].flatMap(spellings).map((w) => w.toLowerCase());
    for (const [word] of words) expect(listed, word).toContain(word);
  });

  it("each word, in every spelling, reads as its English subcommand, whatever follows", () => {
    fc.assert(
      fc.property(fc.constantFrom(...words), args, ([word, english], rest) => {
        const expected = fleet(`${english} ${rest}`);
        for (const spelling of spellings(word))
          expect(echoedAs(fleet(`${spelling} ${rest}`), spelling, english), spelling).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("runs the reports and the other commands", () => {
    expect(fleet("unde B-123-ABC")).toMatchObject({ ok: true, kind: "report", report: "where" });
    expect(fleet("Opriri all ieri min=15")).toMatchObject({ ok: true, report: "stops", minMinutes: 15 });
    expect(fleet("alimentări B-123-ABC ultimele 7 zile")).toMatchObject({ ok: true, report: "refills" });
    expect(fleet("COADĂ")).toEqual({ ok: true, kind: "queue" });
    expect(fleet("coadă acum")).toMatchObject({ ok: false, example: "/fleet queue" });
    expect(fleet("ajutor")).toEqual({ ok: true, kind: "help" });
    expect(fleet("raport")).toEqual({ ok: true, kind: "modal", report: "report" });
    expect(fleet("vehicule volvo")).toMatchObject({ ok: true, report: "vehicles", filter: "volvo" });
  });

  it("`report`/`raport` opens a report's form by its Romanian word too", () => {
    for (const text of ["report opriri", "raport opriri", "raport Opriri", "raport stops"])
      expect(fleet(text), text).toEqual({ ok: true, kind: "modal", report: "stops" });
    expect(fleet("raport alimentari")).toEqual({ ok: true, kind: "modal", report: "refills" });
    expect(fleet("raport consum")).toEqual({ ok: true, kind: "modal", report: "fuel" });
  });

  it("`limba`/`language` is a command of its own: whose language and which", () => {
    expect(fleet("language")).toEqual({ ok: true, kind: "language", scope: "user" });
    expect(fleet("limba")).toEqual({ ok: true, kind: "language", scope: "user" });
    expect(fleet("limbă ro")).toEqual({ ok: true, kind: "language", scope: "user", language: "ro" });
    expect(fleet("LIMBA română")).toEqual({ ok: true, kind: "language", scope: "user", language: "ro" });
    expect(fleet("language English")).toEqual({ ok: true, kind: "language", scope: "user", language: "en" });
    expect(fleet("language workspace en")).toEqual({
      ok: true,
      kind: "language",
      scope: "workspace",
      language: "en",
    });
    expect(msg(expectWorkingError(fleet("language fr"), "fr"))).toContain("`fr`");
    expect(expectWorkingError(fleet("limba workspace"), "workspace").example).toBe(
      "/fleet language workspace en",
    );
    expectWorkingError(fleet("language ro en"), "two");
  });

  it.each([
    ["opriir", "opriri"],
    ["undee", "unde"],
    ["alimentar", "alimentari"],
    ["alimentăr", "alimentări"],
    ["coad", "coada"],
    ["caodă", "coadă"],
    ["temperatur", "temperaturi"],
    ["combustibl", "combustibil"],
    ["traseul", "traseu"],
    ["ajutr", "ajutor"],
  ])("suggests a Romanian word for a typo of one: %s → %s", (typed, suggestion) => {
    const r = expectWorkingError(fleet(`${typed} B-123-ABC`), typed);
    expect(r).toMatchObject({ suggestion, showHelp: true });
    expect(msg(r)).toContain(`Did you mean \`/fleet ${suggestion}\``);
  });

  it("still suggests English for a typo of English", () => {
    expect(fleet("stosp B-123-ABC")).toMatchObject({ ok: false, suggestion: "stops" });
    expect(fleet("qeueu")).toMatchObject({ ok: false, suggestion: "queue" });
  });
});

describe("/etransport: Romanian words", () => {
  const words: [string, string][] = [
    ["listă", "list"],
    ["lista", "list"],
    ["nou", "new"],
    ["pornește", "start"],
    ["porne\u015fte", "start"], // the cedilla ş
    ["porneste", "start"],
    ["pauză", "pause"],
    ["pauza", "pause"],
    ["finalizează", "end"],
    ["finalizeaza", "end"],
    ["editează", "edit"],
    ["editeaza", "edit"],
    ["șterge", "remove"],
    ["\u015fterge", "remove"], // the cedilla ş
    ["sterge", "remove"],
    ["ajutor", "help"],
  ];
  const args = fc.constantFrom("", UIT, `${UIT} AB12CD34EF56GH78`, "active B-123-ABC", "Y45R-577U", "x");

  it("the comma-below and cedilla ș are different characters, and both are read", () => {
    expect("pornește").not.toBe("porneşte");
    expect("pornește".codePointAt(5)).toBe(0x219);
    expect("porneşte".codePointAt(5)).toBe(0x15f);
    expect("ţ".codePointAt(0)).toBe(0x163);
    expect(etransport(`pornește ${UIT}`)).toEqual(etransport(`porneşte ${UIT}`));
  });

  it("the grammar's list is the contract's", () => {
    const listed = [...ETRANSPORT_ROMANIAN_WORDS.keys()].flatMap(spellings).map((w) => w.toLowerCase());
    for (const [word] of words) expect(listed, word).toContain(word);
  });

  it("each word, in every spelling, reads as its English subcommand, whatever follows", () => {
    fc.assert(
      fc.property(fc.constantFrom(...words), args, ([word, english], rest) => {
        const expected = etransport(`${english} ${rest}`);
        for (const spelling of spellings(word))
          expect(etransport(`${spelling} ${rest}`), spelling).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("acts on transports", () => {
    expect(etransport(`termină ${UIT}`)).toEqual({ ok: true, kind: "end", uits: [UIT] });
    expect(etransport(`ŞTERGE ${UIT}`)).toEqual({ ok: true, kind: "remove", uit: UIT });
    expect(etransport("pauza")).toEqual({ ok: true, kind: "modal", form: "pause" });
    expect(etransport("listă completed")).toMatchObject({ ok: true, kind: "list", statusIds: [3, 4] });
  });

  it.each([
    ["pornest", "porneste"],
    ["pornețte", "pornește"],
    ["strege", "sterge"],
    ["termna", "termina"],
    ["editaza", "editeaza"],
  ])("suggests a Romanian word for a typo of one: %s → %s", (typed, suggestion) => {
    const r = expectWorkingError(etransport(`${typed} ${UIT}`), typed);
    expect(r).toMatchObject({ suggestion, showHelp: true });
  });
});

describe("help shows the Romanian word beside the English one", () => {
  it("on each line that has one", () => {
    const text = helpText("all", undefined, "en");
    expect(text).toContain("`/fleet where &lt;vehicle&gt;` (`unde`) – ");
    expect(text).toContain("`/fleet fuel &lt;vehicles|all&gt; [period]` (`combustibil`, `consum`) – ");
    expect(text).toContain("`/fleet refills &lt;vehicle&gt; [period]` (`alimentări`) – ");
    expect(text).toContain("`/fleet queue` (`coadă`) – ");
    expect(text).toContain("`/fleet help` (`ajutor`) – ");
    expect(text).toContain("`/fleet report` (`raport`) – ");
    expect(text).toContain("(`pornește`|`pauză`|`finalizează`) – start, pause or end transports");
    expect(text).toContain("`/etransport remove &lt;UIT&gt;` (`șterge`) – ");
    expect(text).toContain("`/etransport list [pending|active|paused|completed|all] [search]` (`listă`) – ");
    for (const word of [...FLEET_ROMANIAN_WORDS.keys(), ...ETRANSPORT_ROMANIAN_WORDS.keys()])
      if (word !== "limba") expect(text, word).toContain(`\`${word}\``);
  });

  it("each Romanian word of a usage line runs its example as the English word does", () => {
    const check = (command: string, usage: typeof fleetUsage) => {
      for (const line of usage) {
        const [, english = "", rest = ""] = /^\/\w+ (\S+)(.*)$/.exec(line.example) ?? [];
        for (const word of line.romanian ?? []) {
          const meant = { fleet: FLEET_ROMANIAN_WORDS, etransport: ETRANSPORT_ROMANIAN_WORDS }[command]?.get(
            word,
          );
          if (meant !== english) continue; // start|pause|end: the example is start's
          for (const spelling of spellings(word)) {
            const romanian = parseCommandLine(`/${command} ${spelling}${rest}`, ctx).result;
            expect(romanian, `${spelling}${rest}`).toEqual(parseCommandLine(line.example, ctx).result);
          }
        }
      }
    };
    check("fleet", fleetUsage);
    check("etransport", etransportUsage);
  });

  it("stays within Slack's limits", () => {
    for (const which of ["all", "fleet", "etransport"] as const) {
      const message = helpMessage(helpText(which, undefined, "en"), undefined, "fleetbot");
      expect(message.blocks.length).toBeLessThanOrEqual(50);
      for (const block of message.blocks)
        if (block.type === "section") expect(block.text?.text.length ?? 0).toBeLessThanOrEqual(3000);
    }
  });
});

describe("decimal comma", () => {
  const digits = fc.integer({ min: 0, max: 99 });

  it("is one number, refused as its dot form is, for min= and for last/ultimele counts", () => {
    fc.assert(
      fc.property(
        digits,
        fc.integer({ min: 1, max: 9 }),
        fc.constantFrom(
          (n: string) => `stops all min=${n}`,
          (n: string) => `opriri B-123-ABC, CJ-07-XYZ ieri min = ${n}`,
          (n: string) => `stops all last ${n}h`,
          (n: string) => `fuel all last ${n}d`,
          (n: string) => `stops all last${n}h`,
          (n: string) => `temperaturi all ultimele ${n} ore`,
          (n: string) => `temps #12 ultimele ${n} zile`,
        ),
        (whole, fraction, typed) => {
          const comma = fleet(typed(`${whole},${fraction}`));
          const dot = fleet(typed(`${whole}.${fraction}`));
          const error = expectWorkingError(comma, typed(`${whole},${fraction}`));
          expect(msg(error)).toContain(`${whole},${fraction}`);
          expect(msg(error).replace(`${whole},${fraction}`, `${whole}.${fraction}`)).toBe(
            msg(dot as GrammarError),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("names what is wrong: whole numbers", () => {
    expect(msg(expectWorkingError(fleet("stops all min=7,5"), "min"))).toContain(
      "`min=7,5`: give the shortest stop as a whole number of minutes",
    );
    expect(msg(expectWorkingError(fleet("stops all last 1,5h"), "last"))).toContain(
      "`last 1,5h` is not a period",
    );
    expect(msg(expectWorkingError(fleet("opriri all ultimele 1,5 ore"), "ultimele"))).toContain(
      "`ultimele 1,5 ore` is not a period",
    );
  });

  it("other commas still separate vehicles", () => {
    const ids = (text: string) => {
      const r = fleet(text);
      return r.ok && r.kind === "report" ? r.vehicles.map((v) => v.raw) : r;
    };
    expect(ids("stops #12,#13 last 2h")).toEqual(["#12", "#13"]);
    expect(ids("stops B-123-ABC,CJ-07-XYZ min=10")).toEqual(["B-123-ABC", "CJ-07-XYZ"]);
    expect(ids("stops Truck 1,Truck 2 yesterday")).toEqual(["Truck 1", "Truck 2"]);
    expect(ids("stops B-123-ABC min=10,CJ-07-XYZ")).toEqual(["B-123-ABC", "CJ-07-XYZ"]);
  });

  it("alerts subscribe min= and stale= take whole minutes: a comma is refused as a dot is, never read as 7 or 75", () => {
    for (const key of ["min", "stale"]) {
      for (const typed of [`${key}=7,5`, `${key} = 7,5`]) {
        const { options, problem } = alertOptions(`alerts subscribe Error ${typed}`);
        expect(problem, typed).toEqual({ option: key, value: "7,5" });
        const said = JSON.stringify(alertOptionProblemMessage(problem!, "en"));
        expect(said).toContain("whole minutes");
        expect(said).toContain(`${key}=7,5`);
        expect(JSON.stringify(alertOptionProblemMessage(problem!, "ro"))).toContain("număr întreg de minute");
        expect(options?.minDurationMinutes).toBeUndefined();
        expect(options?.staleMinutes).toBeUndefined();
      }
      const dot = alertOptions(`alerts subscribe Error ${key}=7.5`).problem;
      expect(alertOptions(`alerts subscribe Error ${key}=7,5`).problem).toEqual({ ...dot, value: "7,5" });
    }
  });
});
