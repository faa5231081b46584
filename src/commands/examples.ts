import type { Language } from "../i18n/language.js";
import { pluralCategory } from "../i18n/plural.js";
import { ETRANSPORT_ROMANIAN_WORDS, parseEtransportCommand } from "./etransport.js";
import { FLEET_ROMANIAN_WORDS, parseFleetCommand } from "./fleet.js";
import type { GrammarContext } from "./types.js";

/**
 * A command line of fleetbot's (an error's example, a command named in a message) in the reader's
 * command words: for a Romanian reader the subcommand becomes its Romanian word (`/fleet stops` →
 * `/fleet opriri`, `/etransport start` → `/etransport pornește`) and English period words their
 * Romanian (`yesterday` → `ieri`, `last 3d` → `ultimele 3 zile`), and `all` its `toate`. Words with
 * no Romanian (`min=`, `alerts subscribe`, `history`) stay. English readers get the line as it is.
 */

const COMMANDS = { "/fleet": FLEET_ROMANIAN_WORDS, "/etransport": ETRANSPORT_ROMANIAN_WORDS } as const;

/** The first Romanian word of each subcommand (the help's). */
function firstWords(words: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const [word, sub] of words) if (!out.has(sub)) out.set(sub, word);
  return out;
}
const ROMANIAN_OF = {
  "/fleet": firstWords(FLEET_ROMANIAN_WORDS),
  "/etransport": firstWords(ETRANSPORT_ROMANIAN_WORDS),
} as const;

/** English period words and their Romanian, longest first. */
const PERIODS: ReadonlyArray<readonly [RegExp, (m: RegExpExecArray) => string]> = [
  [/(^| )day before yesterday(?= |$)/, (m) => `${m[1]}alaltăieri`],
  [/(^| )yesterday(?= |$)/, (m) => `${m[1]}ieri`],
  [/(^| )today(?= |$)/, (m) => `${m[1]}azi`],
  [/(^| )this week(?= |$)/, (m) => `${m[1]}săptămâna aceasta`],
  [/(^| )last week(?= |$)/, (m) => `${m[1]}săptămâna trecută`],
  [/(^| )last month(?= |$)/, (m) => `${m[1]}luna trecută`],
  [/(^| )last ?(\d+) ?(h|d)(?= |$)/, (m) => `${m[1]}${lastN(Number(m[2]), m[3] === "h" ? "ore" : "zile")}`],
];

/** `ultima zi`, `ultimele 3 zile`, `ultimele 24 de ore`: Romanian puts `de` before the noun from 20. */
function lastN(n: number, unit: "ore" | "zile"): string {
  if (pluralCategory("ro", n) === "one") return unit === "ore" ? "ultima oră" : "ultima zi";
  return `ultimele ${n} ${pluralCategory("ro", n) === "other" ? "de " : ""}${unit}`;
}

/** A schedule's recurrence words and their Romanian (`every monday at` → `în fiecare luni la`). */
const RECURRENCES: ReadonlyArray<readonly [RegExp, string]> = [
  [/ every day at /, " în fiecare zi la "],
  [/ every weekday at /, " în zilele lucrătoare la "],
  [/ every month on (\d+) at /, " în fiecare lună pe $1 la "],
  ...(
    [
      ["monday", "luni"],
      ["tuesday", "marți"],
      ["wednesday", "miercuri"],
      ["thursday", "joi"],
      ["friday", "vineri"],
      ["saturday", "sâmbătă"],
      ["sunday", "duminică"],
    ] as const
  ).map(([en, ro]): readonly [RegExp, string] => [new RegExp(` every ${en} at `), ` în fiecare ${ro} la `]),
];

/**
 * `/fleet schedule <report> <recurrence> at <HH:MM>`: the report read as a `/fleet` line of its own
 * (its subcommand and period in Romanian), then the recurrence.
 */
function romanianSchedule(rest: string): string {
  const recurrence = RECURRENCES.map(([pattern, ro]) => ({ found: pattern.exec(rest), ro, pattern })).find(
    (r) => r.found,
  );
  if (!recurrence?.found) return rest;
  const at = recurrence.found.index;
  const report = romanianLine(`/fleet${rest.slice(0, at)}`).slice("/fleet".length);
  return `${report}${rest.slice(at).replace(recurrence.pattern, recurrence.ro)}`;
}

function romanianLine(line: string): string {
  const m = /^(\/fleet|\/etransport) (\S+)(.*)$/.exec(line);
  if (!m) return line;
  if (line.startsWith("/fleet schedule ")) {
    const rest = m[3] ?? "";
    const romanian = rest.startsWith(" remove ")
      ? ` șterge ${rest.slice(" remove ".length)}`
      : romanianSchedule(rest);
    return `/fleet ${ROMANIAN_OF["/fleet"].get("schedule")}${romanian}`;
  }
  const root = m[1] as keyof typeof COMMANDS;
  const sub = m[2] ?? "";
  let rest = m[3] ?? "";
  const word = ROMANIAN_OF[root].get(sub) ?? sub;
  if (root === "/fleet") {
    for (const [pattern, romanian] of PERIODS) {
      const found = pattern.exec(rest);
      if (found) {
        rest = `${rest.slice(0, found.index)}${romanian(found)}${rest.slice(found.index + found[0].length)}`;
        break;
      }
    }
    // Every vehicle: what a dispatcher types (`opriri toate ieri`), not the English word.
    rest = rest.replace(/(^| )all(?= |$)/, "$1toate");
  }
  return `${root} ${word}${rest}`;
}

/** A command fleetbot names (`/fleet stops`), in the reader's command words. */
export function commandIn(line: string, language: Language): string {
  return language === "ro" ? romanianLine(line) : line;
}

/**
 * Where the guard reads both lines: any date an example names (at most a year before the user's
 * today) is in the past there, so the two lines meet the same rules; the user's own zone and
 * today are not needed to compare them.
 */
const GUARD: GrammarContext = { timeZone: "UTC", now: new Date("2100-01-01T12:00:00Z") };

/** The command a line parses into (the words as typed left out), or undefined. */
function meaning(line: string): string | undefined {
  const m = /^\/(fleet|etransport)(?: (.*))?$/.exec(line);
  if (!m) return undefined;
  const text = m[2] ?? "";
  const result = m[1] === "fleet" ? parseFleetCommand(text, GUARD) : parseEtransportCommand(text, GUARD);
  if (!result.ok) return undefined;
  // A schedule keeps its report as typed (`combustibil toate ieri`): compared by what that report does.
  if (result.kind === "schedule-add")
    return JSON.stringify({ ...result, report: meaning(`/fleet ${result.report}`) ?? result.report });
  // The words as typed (`text`, a vehicle's `raw`: `toate` for `all`) are not what it means.
  return JSON.stringify(result, (key, value) => (key === "text" || key === "raw" ? undefined : value));
}

/**
 * An error's example (a whole command line that parses) in the reader's command words. The
 * Romanian line is given only when it parses into the very command the English one does; else
 * the English line, which always works.
 */
export function exampleIn(example: string, language: Language): string {
  if (language === "en") return example;
  const romanian = romanianLine(example);
  if (romanian === example) return example;
  const english = meaning(example);
  return english !== undefined && meaning(romanian) === english ? romanian : example;
}
