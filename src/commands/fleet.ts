import {
  type AnyReportEntry,
  DEFAULT_MIN_MINUTES,
  isVehicleReportName,
  MAX_MIN_MINUTES,
  REPORT_CATALOGUE,
  REPORT_ENTRIES,
  VEHICLE_REPORTS,
  type VehicleReportName,
} from "../features/reports/catalogue.js";
import type { Language } from "../i18n/language.js";
import { parseAlerts } from "./alerts.js";
import { looksLikePeriod, normalisePeriodText, type PeriodProblem, parsePeriodCore } from "./period.js";
import { parseSchedule, SCHEDULE_EXAMPLES } from "./schedule.js";
import { closestWord, decodeSlackEntities, firstWord, foldWord, squeeze, withoutDiacritics } from "./text.js";
import type {
  FleetCommandResult,
  FleetGrammarContext,
  GrammarContext,
  GrammarError,
  GrammarProblem,
  Period,
  VehicleRef,
} from "./types.js";
import { isAllWord, isRomanianPlate, parseVehicleList } from "./vehicles.js";
import { parseZones } from "./zones.js";

/**
 * `/fleet` grammar. Rules where the contract is silent:
 * - No text, or `report`, opens the report modal; `report <where|route|stops|fuel|refills|temps>` opens
 *   that report's form.
 * - Report commands: the period is recognised at the END of the text (the longest tail of at most four
 *   words that looks like a period); everything before it, split on commas, are vehicles. Words after
 *   a period, or beside `all`, that are no vehicle (`all yesterday please`) are blamed themselves. `key=value`
 *   options (only `min=`, only for stops) may stand anywhere after the subcommand; spaces around `=` are fine.
 * - A report command with no vehicle opens that report's form, prefilled with the period and `min` typed.
 * - `min` is a whole number of minutes from 1 to 1440; default 5.
 * - The reports, their synonyms, which take one vehicle (not `all`) and which a period, come
 *   from the report catalogue (src/features/reports/catalogue.ts).
 * - `alerts`: its subcommands, channel, codes and `subscribe`'s options are read in alerts.ts.
 * - `help [anything]` is help; `login`, `logout`, `whoami`, `queue` take nothing after them.
 * - Romanian words run their subcommand whatever the language setting, with or without diacritics
 *   and case (`coadă` = `coada` = `COADA`; `ș`/`ş`, `ț`/`ţ` alike): `ajutor`, `raport`, `coadă`,
 *   `limba`, and the reports' own from the catalogue (`unde`, `opriri`…). A typo of one is answered
 *   with the Romanian word, spelled as typed (with or without diacritics).
 * - `language [ro|en]`, `language workspace ro|en` (`limba`): read here, answered by the listener.
 * - Numbers may have a decimal comma: `min=7,5` and `last 1,5h` are one number each (and refused
 *   as whole numbers are asked, as `min=7.5` is); other commas separate vehicles.
 */

export { DEFAULT_MIN_MINUTES, MAX_MIN_MINUTES };
export const EXAMPLE_PLATE = "B-123-ABC";

/** The subcommands that are not reports (those come from the catalogue). */
const OTHER_SUBCOMMANDS = [
  "help",
  "login",
  "logout",
  "whoami",
  "report",
  "alerts",
  "queue",
  "zones",
  "language",
  "schedule",
  "schedules",
] as const;
type OtherSubcommand = (typeof OTHER_SUBCOMMANDS)[number];
type Subcommand = OtherSubcommand | VehicleReportName;
const SUBCOMMANDS: readonly Subcommand[] = [...OTHER_SUBCOMMANDS, ...VEHICLE_REPORTS];

/** Words dispatchers may try, mapped to what they probably mean (suggested, never run silently). */
const SYNONYMS: ReadonlyMap<string, Subcommand> = new Map<string, Subcommand>([
  ["alert", "alerts"],
  ["signin", "login"],
  ["signout", "logout"],
  ["me", "whoami"],
  ["jobs", "queue"],
  ["zone", "zones"],
  ["geofence", "zones"],
  ["geofences", "zones"],
  ["scheduled", "schedules"],
  ["cron", "schedules"],
  ...REPORT_ENTRIES.flatMap((e) => e.synonyms.map((word): [string, Subcommand] => [word, e.name])),
]);

/** Romanian words of the subcommands that are not reports, with diacritics (the reports' are in the catalogue). */
const OTHER_ROMANIAN: ReadonlyArray<readonly [string, OtherSubcommand]> = [
  ["ajutor", "help"],
  ["raport", "report"],
  ["coadă", "queue"],
  ["zone", "zones"],
  ["limba", "language"],
  ["programează", "schedule"],
  ["programări", "schedules"],
];

/** Every Romanian word, as written with diacritics, and the subcommand it runs. */
export const FLEET_ROMANIAN_WORDS: ReadonlyMap<string, Subcommand> = new Map<string, Subcommand>([
  ...OTHER_ROMANIAN,
  ...REPORT_ENTRIES.flatMap((e) => e.romanian.map((word): [string, Subcommand] => [word, e.name])),
]);
/**
 * Romanian words that run their subcommand too, as dispatchers say it, but are not listed in the
 * help nor used to write examples (an example's first word alone in Romanian would mix languages).
 */
const ROMANIAN_ALSO: ReadonlyArray<readonly [string, Subcommand]> = [
  ["alerte", "alerts"],
  ["conectare", "login"],
  ["deconectare", "logout"],
  ...REPORT_ENTRIES.flatMap((e) =>
    (e.romanianAlso ?? []).map((word): [string, Subcommand] => [word, e.name]),
  ),
];
const ROMANIAN_BY_FOLD: ReadonlyMap<string, Subcommand> = new Map(
  [...FLEET_ROMANIAN_WORDS, ...ROMANIAN_ALSO].map(([word, sub]) => [foldWord(word), sub]),
);

/** The subcommand a word names: English (any case) or Romanian (any case, with or without diacritics). */
function subcommandOf(word: string): string {
  return ROMANIAN_BY_FOLD.get(foldWord(word)) ?? word.toLowerCase();
}

/** What a typo may be near: the subcommands, and the Romanian words with and without diacritics. */
const SUGGESTIBLE: readonly string[] = [
  ...SUBCOMMANDS,
  ...[...FLEET_ROMANIAN_WORDS.keys(), ...ROMANIAN_ALSO.map(([w]) => w)].flatMap((w) =>
    foldWord(w) === w ? [w] : [w, foldWord(w)],
  ),
];

const OTHER_EXAMPLES: Record<OtherSubcommand, string> = {
  help: "/fleet help",
  login: "/fleet login",
  logout: "/fleet logout",
  whoami: "/fleet whoami",
  report: "/fleet report",
  alerts: "/fleet alerts list",
  queue: "/fleet queue",
  zones: "/fleet zones",
  language: "/fleet language",
  schedule: SCHEDULE_EXAMPLES.add,
  schedules: SCHEDULE_EXAMPLES.list,
};

function canonicalExample(sub: Subcommand): string {
  if (!isVehicleReportName(sub)) return OTHER_EXAMPLES[sub];
  const { example } = REPORT_CATALOGUE[sub];
  return `/fleet ${sub}${example ? ` ${example}` : ""}`;
}

function fail(problem: GrammarProblem, example: string, extra: Partial<GrammarError> = {}): GrammarError {
  return { ok: false, kind: "error", problem, example, ...extra };
}

// ---------------------------------------------------------------------------------------------
// Report commands: every catalogue entry that names vehicles (the vehicle list takes a filter).

interface ReportArgs {
  vehicleTokens: string[];
  periodText: string;
  options: Map<string, string>;
}

/**
 * Words (commas are words of their own) after `=` spacing and range separators are tightened. A
 * decimal comma stays inside its number: an option's (`min=7,5`) or a `last`/`ultimele` count
 * (`last 1,5h`, `ultimele 1,5 ore`); a comma anywhere else separates vehicles (`#12,#13`).
 */
function tokenise(text: string): string[] {
  const tight = text.replace(/\s*=\s*/g, "=").replace(/\s*(?:\.{2,3}|…)\s*/g, "..");
  return tight.match(/(?:[^\s,]|(?<=(?:[A-Za-z]=|(?:^|\s)(?:last|ultimele) ?)\d+),(?=\d))+|,/gi) ?? [];
}

function splitReportArgs(args: string): ReportArgs | { ok: false; problem: GrammarProblem } {
  const options = new Map<string, string>();
  const rest: string[] = [];
  for (const token of tokenise(args)) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(token);
    if (m) {
      const key = (m[1] ?? "").toLowerCase();
      if (options.has(key)) return { ok: false, problem: { code: "optionTwice", option: `${key}=` } };
      options.set(key, m[2] ?? "");
    } else {
      rest.push(token);
    }
  }
  let k = 0;
  for (let n = Math.min(4, rest.length); n >= 1; n--) {
    const tail = rest.slice(rest.length - n);
    if (tail.includes(",")) continue;
    if (looksLikePeriod(tail.join(" "))) {
      k = n;
      break;
    }
  }
  return {
    vehicleTokens: rest.slice(0, rest.length - k),
    periodText: rest.slice(rest.length - k).join(" "),
    options,
  };
}

/** Single words that are surely a period (English or Romanian, diacritics dropped). */
const PERIOD_WORDS = /^(today|yesterday|azi|astazi|ieri|alaltaieri)$/;

/** A token inside the vehicle list that is surely a period word: the period must come last. */
function misplacedPeriod(tokens: readonly string[]): string | undefined {
  for (let i = 0; i < tokens.length; i++) {
    const t = withoutDiacritics((tokens[i] ?? "").toLowerCase());
    const next = withoutDiacritics((tokens[i + 1] ?? "").toLowerCase());
    if (PERIOD_WORDS.test(t) || t.includes("..") || /^\d{4}-\d{1,2}-\d{1,2}$/.test(t)) return tokens[i];
    if (
      ((t === "last" || t === "this") && (next === "week" || /^\d/.test(next))) ||
      (t === "ultimele" && /^\d/.test(next)) ||
      ((t === "saptamana" || t === "luna") && /^(trecuta|aceasta)$/.test(next))
    )
      return `${tokens[i]} ${tokens[i + 1]}`;
  }
  return undefined;
}

/** A word that names one vehicle on its own: a plate or `#id`. */
function isPlateOrId(token: string): boolean {
  return isRomanianPlate(token) || /^#\d+$/.test(token);
}

/** A word that stands for vehicles on its own: a plate, `#id` or `all`. */
function isVehicleWord(token: string): boolean {
  return isPlateOrId(token) || isAllWord(token);
}

/** Words that are neither vehicles nor the period: what the user is told, and what they wrote around them. */
interface StrayWords {
  stray: string;
  vehicles: readonly string[];
  periodText: string;
}

/**
 * Unknown words after a period (`all yesterday please`), beside `all` in one comma-free part
 * (`all please`), or after a plate or an id (`B-123-ABC next month`): they are blamed themselves
 * rather than read as part of a vehicle name.
 */
function strayWords(tokens: readonly string[]): StrayWords | undefined {
  for (let i = tokens.length - 2; i >= 0; i--) {
    const after = tokens.slice(i + 1);
    if (after.includes(",") || after.some(isVehicleWord)) break;
    for (let n = Math.min(4, i + 1); n >= 1; n--) {
      const span = tokens.slice(i + 1 - n, i + 1);
      if (span.includes(",") || !looksLikePeriod(span.join(" "))) continue;
      return { stray: after.join(" "), vehicles: tokens.slice(0, i + 1 - n), periodText: span.join(" ") };
    }
  }
  let start = 0;
  for (let i = 0; i <= tokens.length; i++) {
    if (i < tokens.length && tokens[i] !== ",") continue;
    const part = tokens.slice(start, i);
    const others = part.filter((t) => !isAllWord(t));
    if (others.length < part.length && others.length > 0 && !others.every(isVehicleWord)) {
      return { stray: others.join(" "), vehicles: ["all"], periodText: "" };
    }
    // Words after a plate or an id (`B-123-ABC săptămâna viitoare`): a period not understood,
    // never a vehicle name that would silently leave the period at today.
    const [first = "", ...after] = part;
    if (isPlateOrId(first) && !after.every(isVehicleWord)) {
      return {
        stray: after.filter((t) => !isVehicleWord(t)).join(" "),
        vehicles: part.filter(isVehicleWord),
        periodText: "",
      };
    }
    start = i + 1;
  }
  return undefined;
}

function vehiclesText(refs: readonly VehicleRef[]): string {
  return refs.map((r) => r.raw).join(", ");
}

function readMin(value: string): number | GrammarProblem {
  if (!/^\d+$/.test(value)) return { code: "minNotWhole", given: `min=${value}` };
  const n = Number(value);
  if (n < 1 || n > MAX_MIN_MINUTES)
    return { code: "minOutOfRange", given: `min=${value}`, max: MAX_MIN_MINUTES };
  return n;
}

/** A report command as read so far, and the pieces its error examples reuse. */
interface ReportReading {
  report: AnyReportEntry;
  cmd: string;
  example: string;
  ctx: GrammarContext;
}

/** The period text for an example: the one typed when it parses, else `fallback`. */
function workingPeriod(text: string, ctx: GrammarContext, fallback: string): string {
  return text !== "" && parsePeriodCore(text, ctx).ok ? normalisePeriodText(text) : fallback;
}

/** Vehicle words in the wrong place: stray words, or a period before the vehicles. */
function vehicleWordsProblem(r: ReportReading, vehicleTokens: readonly string[]): GrammarError | undefined {
  const snapshot = r.report.period === "none";
  const stray = strayWords(vehicleTokens);
  if (stray !== undefined) {
    const list = parseVehicleList(stray.vehicles.join(" "));
    const typed = list.ok && list.refs.length > 0 ? vehiclesText(list.refs) : EXAMPLE_PLATE;
    const period =
      snapshot || stray.periodText === "" ? "" : ` ${workingPeriod(stray.periodText, r.ctx, "yesterday")}`;
    // The vehicles typed before it may themselves be wrong (a period among them): then the example's.
    const vehicles = parseReport(r.report, `${typed}${period}`, r.ctx).ok ? typed : EXAMPLE_PLATE;
    return fail({ code: "strayWords", given: stray.stray }, `${r.cmd} ${vehicles}${period}`);
  }
  const misplaced = misplacedPeriod(vehicleTokens);
  if (misplaced === undefined) return undefined;
  return fail(
    { code: "periodFirst", given: misplaced },
    snapshot ? r.example : `${r.cmd} ${EXAMPLE_PLATE} ${workingPeriod(misplaced, r.ctx, "yesterday")}`,
  );
}

/** `min=` and any other option; the number of minutes, or what is wrong. */
function readOptions(
  r: ReportReading,
  options: ReadonlyMap<string, string>,
  withVehiclesAndPeriod: string,
): { minMinutes?: number } | GrammarError {
  let minMinutes: number | undefined;
  for (const [key, value] of options) {
    if (key === "min" && r.report.minStop) {
      const n = readMin(value);
      if (typeof n !== "number") return fail(n, `${withVehiclesAndPeriod} min=10`);
      minMinutes = n;
    } else if (key === "min") {
      return fail({ code: "minOnlyForStops" }, withVehiclesAndPeriod);
    } else {
      return fail(
        { code: "unknownOption", option: `${key}=`, command: r.cmd, onlyMin: r.report.minStop },
        r.example,
      );
    }
  }
  return minMinutes !== undefined ? { minMinutes } : {};
}

/** One-vehicle reports: not `all`, not several. */
function singleVehicleProblem(
  r: ReportReading,
  refs: readonly VehicleRef[],
  withVehiclesAndPeriod: string,
): GrammarError | undefined {
  if (r.report.vehicles !== "one") return undefined;
  const sub = r.report.name;
  if (refs.some((ref) => ref.type === "all")) {
    return fail(
      { code: "oneVehicleNotAll", command: r.cmd, where: sub === "where" },
      sub === "where" ? "/fleet vehicles" : withVehiclesAndPeriod,
    );
  }
  if (refs.length > 1) {
    return fail(
      { code: "oneVehicleMany", command: r.cmd, given: refs.map((ref) => ref.raw) },
      withVehiclesAndPeriod,
    );
  }
  return undefined;
}

/** The vehicles of an example: those typed when they are fine for this report. */
function exampleVehicles(report: AnyReportEntry, refs: readonly VehicleRef[]): string {
  if (refs.length === 0) return EXAMPLE_PLATE;
  if (report.vehicles === "one") return refs.find((ref) => ref.type !== "all")?.raw ?? EXAMPLE_PLATE;
  return vehiclesText(refs);
}

function parseReport(report: AnyReportEntry, args: string, ctx: GrammarContext): FleetCommandResult {
  const sub = report.name;
  const r: ReportReading = { report, cmd: `/fleet ${sub}`, example: canonicalExample(sub), ctx };
  const snapshot = report.period === "none";
  const split = splitReportArgs(args);
  if ("ok" in split) return fail(split.problem, r.example);
  const { vehicleTokens, periodText, options } = split;

  // Vehicles first: the example of any later error reuses them when they are fine.
  const wordsProblem = vehicleWordsProblem(r, vehicleTokens);
  if (wordsProblem) return wordsProblem;
  const list = parseVehicleList(vehicleTokens.join(" "));
  if (!list.ok) return fail(list.problem, r.example);
  const refs = list.refs;
  const withVehicles = `${r.cmd} ${exampleVehicles(report, refs)}`;
  // Examples keep the period only when it is itself fine.
  const periodFine = !snapshot && periodText !== "" && parsePeriodCore(periodText, ctx).ok;
  const withVehiclesAndPeriod = `${withVehicles}${periodFine ? ` ${periodText}` : ""}`;

  const read = readOptions(r, options, withVehiclesAndPeriod);
  if ("ok" in read) return read;
  const { minMinutes } = read;
  if (snapshot && periodText !== "") {
    return fail({ code: "snapshotNoPeriod", command: r.cmd }, withVehicles);
  }
  let period: Period | undefined;
  if (!snapshot) {
    const parsed = parsePeriodCore(periodText, ctx);
    if (!parsed.ok) return fail(parsed.problem, periodExample(withVehicles, parsed, minMinutes));
    period = parsed.period;
  }

  if (refs.length === 0) {
    const prefill: { period?: Period; minMinutes?: number } = {};
    if (periodText !== "" && period) prefill.period = period;
    if (minMinutes !== undefined) prefill.minMinutes = minMinutes;
    return Object.keys(prefill).length > 0
      ? { ok: true, kind: "modal", report: sub, prefill }
      : { ok: true, kind: "modal", report: sub };
  }
  const single = singleVehicleProblem(r, refs, withVehiclesAndPeriod);
  if (single) return single;
  const all = refs.find((ref) => ref.type === "all");
  return {
    ok: true,
    kind: "report",
    report: sub,
    vehicles: all ? [all] : refs,
    ...(period ? { period } : {}),
    ...(report.minStop ? { minMinutes: minMinutes ?? DEFAULT_MIN_MINUTES } : {}),
  };
}

function periodExample(withVehicles: string, problem: PeriodProblem, minMinutes: number | undefined): string {
  return `${withVehicles} ${problem.fix}${minMinutes !== undefined ? ` min=${minMinutes}` : ""}`;
}

// ---------------------------------------------------------------------------------------------

/** Language words (compared without case and diacritics), English and Romanian. */
const LANGUAGE_WORDS: ReadonlyMap<string, Language> = new Map<string, Language>([
  ["en", "en"],
  ["english", "en"],
  ["engleza", "en"],
  ["ro", "ro"],
  ["romanian", "ro"],
  ["romana", "ro"],
]);

/** `language [ro|en]`, `language workspace ro|en`: whose language, and which (none = show it). */
function parseLanguage(args: string): FleetCommandResult {
  const words = squeeze(args)
    .split(" ")
    .filter((w) => w !== "");
  const workspace = foldWord(words[0] ?? "") === "workspace";
  const rest = workspace ? words.slice(1) : words;
  const scope = workspace ? "workspace" : "user";
  const cmd = workspace ? "/fleet language workspace" : "/fleet language";
  if (rest.length > 1) {
    return fail({ code: "oneLanguage", command: cmd }, `${cmd} en`);
  }
  const typed = rest[0];
  if (typed === undefined) {
    return workspace
      ? fail({ code: "workspaceLanguageMissing" }, `${cmd} en`)
      : { ok: true, kind: "language", scope };
  }
  const language = LANGUAGE_WORDS.get(foldWord(typed));
  if (language === undefined) {
    return fail({ code: "notALanguage", given: typed }, `${cmd} en`);
  }
  return { ok: true, kind: "language", scope, language };
}

/** Reports the report modal builds: those that name vehicles. */
export const MODAL_REPORTS: readonly VehicleReportName[] = REPORT_ENTRIES.filter(
  (e) => e.vehicles !== "filter",
).map((e) => e.name);

function noArguments(sub: Subcommand, args: string): GrammarError | undefined {
  if (args === "") return undefined;
  if (sub === "login") {
    return fail({ code: "loginTakesNothing" }, "/fleet login");
  }
  return fail({ code: "takesNothing", command: `/fleet ${sub}` }, `/fleet ${sub}`);
}

function unknownSubcommand(word: string, args: string, ctx: FleetGrammarContext): GrammarError {
  const whole = squeeze(`${word} ${args}`);
  const vehicle =
    isRomanianPlate(word) || /^#\d+$/.test(word)
      ? word
      : /^[A-Za-z0-9 -]+$/.test(whole) && isRomanianPlate(whole)
        ? whole
        : undefined;
  if (vehicle !== undefined) {
    const where = parseFleetCommand(`where ${vehicle}`, ctx);
    if (where.ok && where.kind === "report") {
      return fail({ code: "vehicleWithoutSubcommand", vehicle }, `/fleet where ${vehicle}`, {
        suggestion: "where",
        showHelp: true,
      });
    }
  }
  const lower = word.toLowerCase();
  const near = SYNONYMS.get(lower) ?? closestWord(lower, SUGGESTIBLE);
  if (near) {
    const retry = `/fleet ${near}${args ? ` ${args}` : ""}`;
    const retried = parseFleetCommand(`${near} ${args}`, ctx);
    const example = retried.ok && retried.kind !== "modal" ? retry : exampleOfWord(near);
    return fail(
      { code: "unknownSubcommand", root: "/fleet", given: `/fleet ${word}`, suggestion: `/fleet ${near}` },
      example,
      {
        suggestion: near,
        showHelp: true,
      },
    );
  }
  return fail({ code: "unknownSubcommand", root: "/fleet", given: `/fleet ${word}` }, "/fleet help", {
    showHelp: true,
  });
}

/** The canonical example of a subcommand found by closestWord (one of SUGGESTIBLE). */
function exampleOfWord(word: string): string {
  const name = subcommandOf(word);
  const sub = SUBCOMMANDS.find((s) => s === name);
  return sub ? canonicalExample(sub) : "/fleet help";
}

/** Parse the text after `/fleet`. Pure: the same text and context always give the same result. */
/**
 * An error's example is built from what the user typed; when those pieces combine into
 * something that does not parse (a vehicle named like a period word), the report's canonical
 * example stands in: an example must always work.
 */
function withWorkingExample(
  result: FleetCommandResult,
  sub: VehicleReportName,
  ctx: FleetGrammarContext,
): FleetCommandResult {
  if (result.ok) return result;
  const prefix = "/fleet ";
  if (result.example.startsWith(prefix)) {
    const again = parseFleetCommandCore(result.example.slice(prefix.length), ctx, false);
    if (again.ok) return result;
  }
  return { ...result, example: canonicalExample(sub) };
}

export function parseFleetCommand(text: string, ctx: FleetGrammarContext): FleetCommandResult {
  return parseFleetCommandCore(text, ctx, true);
}

function parseFleetCommandCore(
  text: string,
  ctx: FleetGrammarContext,
  checkExample: boolean,
): FleetCommandResult {
  const [word, args] = firstWord(text);
  // `cine sunt` ("who am I"): the one Romanian subcommand of two words.
  if (foldWord(word) === "cine" && foldWord(args) === "sunt") return { ok: true, kind: "whoami" };
  const sub = subcommandOf(word);
  if (sub === "") return { ok: true, kind: "modal", report: "report" };
  switch (sub) {
    case "help": {
      const topic = args.toLowerCase();
      return topic ? { ok: true, kind: "help", topic } : { ok: true, kind: "help" };
    }
    case "login":
      // `login workspace`: the workspace's own fleet account (multi-workspace mode).
      if (foldWord(args) === "workspace") return { ok: true, kind: "login", workspace: true };
      return noArguments(sub, args) ?? { ok: true, kind: sub };
    case "logout":
    case "whoami":
    case "queue":
      return noArguments(sub, args) ?? { ok: true, kind: sub };
    case "report": {
      if (args === "") return { ok: true, kind: "modal", report: "report" };
      const which = MODAL_REPORTS.find((name) => name === subcommandOf(args));
      if (which) return { ok: true, kind: "modal", report: which };
      // Echoed as typed (`raport …` stays `raport`), like every other echo.
      return fail({ code: "reportAfterWord", given: `/fleet ${word} ${args}` }, "/fleet report");
    }
    case "alerts":
      return parseAlerts(args, ctx);
    case "zones":
      return parseZones(args);
    case "language":
      return parseLanguage(args);
    // `schedules` alone lists; with words it reads as `schedule` (`schedules remove 7K2Q`).
    case "schedule":
    case "schedules":
      return parseSchedule(args, ctx, (report, readAt) =>
        parseFleetCommandCore(report, readAt, checkExample),
      );
    default: {
      if (!isVehicleReportName(sub)) return unknownSubcommand(word, args, ctx);
      const report: AnyReportEntry = REPORT_CATALOGUE[sub];
      if (report.vehicles !== "filter") {
        const result = parseReport(report, args, ctx);
        return checkExample ? withWorkingExample(result, sub, ctx) : result;
      }
      const filter = squeeze(decodeSlackEntities(args));
      return { ok: true, kind: "report", report: sub, vehicles: [], ...(filter ? { filter } : {}) };
    }
  }
}
