import type { ReportDeps } from "../features/context.js";
import { type AnyReportEntry, DEFAULT_MIN_MINUTES, REPORT_ENTRIES } from "../features/reports/catalogue.js";
import { type Catalogue, type Language, messages } from "../i18n/index.js";
import type { Vehicle } from "../platform/fleet/schemas.js";
import { userCode } from "../platform/slack/views/text.js";
import { ETRANSPORT_ROMANIAN_WORDS } from "./etransport.js";
import { FLEET_ROMANIAN_WORDS } from "./fleet.js";
import { EXAMPLE_UIT } from "./uit.js";

/**
 * Usage lines and examples, in the reader's language: the reader's own command words first, the
 * other language's in brackets (both always work). Every example parses OK whatever the date
 * (they use relative periods), in both languages, which the tests check.
 */

export interface UsageLine {
  syntax: string;
  does: string;
  example: string;
  /** The Romanian words of the command (with diacritics). */
  romanian?: readonly string[];
  /** The words shown in brackets beside the syntax's: the other language's (also without diacritics). */
  others?: readonly string[];
  /** Set when the command's words are alternatives (`start|pause|end`): so are the bracketed ones. */
  alternatives?: boolean;
}

type HelpWords = Catalogue["help"];
type Command = "fleet" | "etransport";

/** A command's line before it is written in a language. */
interface LineSpec {
  /** Its English subcommand words; several are alternatives (`start|pause|end`). */
  subs: readonly string[];
  /** The syntax after the subcommand word. */
  rest?: (t: HelpWords) => string;
  does: (t: HelpWords) => string;
  /** The example's arguments after the subcommand word, by language, or the same in both. */
  args?: string | Readonly<Record<Language, string>>;
}

const ROMANIAN_WORDS: Readonly<Record<Command, ReadonlyMap<string, string>>> = {
  fleet: FLEET_ROMANIAN_WORDS,
  etransport: ETRANSPORT_ROMANIAN_WORDS,
};

/** The Romanian words of the subcommand `sub`, the help's first. */
function romanianOf(command: Command, sub: string): string[] {
  return [...ROMANIAN_WORDS[command]].filter(([, s]) => s === sub).map(([word]) => word);
}

/** A line in `language`: the subcommand in the reader's words, the other language's in brackets. */
function write(command: Command, spec: LineSpec, language: Language): UsageLine {
  const t = messages(language).help;
  const romanianBySub = spec.subs.map((sub) => romanianOf(command, sub));
  const romanian = romanianBySub.flat();
  const shown = language === "ro" ? spec.subs.map((sub, i) => romanianBySub[i]?.[0] ?? sub) : [...spec.subs];
  const others =
    language === "ro"
      ? [
          ...romanianBySub.flatMap((words) => words.slice(1)),
          ...spec.subs.filter((_, i) => (romanianBySub[i]?.length ?? 0) > 0),
        ]
      : romanian;
  const args = typeof spec.args === "string" ? spec.args : spec.args?.[language];
  return {
    syntax: `/${command} ${shown.join("|")}${spec.rest?.(t) ?? ""}`,
    does: spec.does(t),
    example: `/${command} ${shown[0]}${args ? ` ${args}` : ""}`,
    ...(romanian.length > 0 ? { romanian } : {}),
    ...(others.length > 0 ? { others } : {}),
    ...(spec.subs.length > 1 ? { alternatives: true } : {}),
  };
}

/** A report's usage line, from its catalogue entry: `/fleet stops <vehicles|all> [period] [min=<minutes>]`. */
function reportLine(report: AnyReportEntry): LineSpec {
  return {
    subs: [report.name],
    rest: (t) => {
      const vehicles = {
        one: ` <${t.argVehicle()}>`,
        several: ` <${t.argVehicles()}|all>`,
        filter: ` [${t.argFilter()}]`,
      }[report.vehicles];
      const period = report.period === "required" ? ` [${t.argPeriod()}]` : "";
      const min = report.minStop ? ` [min=<${t.argMinutes()}>]` : "";
      return `${vehicles}${period}${min}`;
    },
    // The help section has a line per report, by its name; the stops line names the default `min`.
    does: (t) => t[report.name]({ defaultMinutes: DEFAULT_MIN_MINUTES }),
    args: report.helpExample,
  };
}

/**
 * The scheduled reports' lines (`/fleet schedule`, `schedules`, `schedule remove`): the recurrence
 * and `remove` are written in the reader's words, as the grammar reads both (schedule.ts); the
 * report inside the example too, so the Romanian example is all Romanian.
 */
const SCHEDULE_LINES: Readonly<Record<"add" | "list" | "remove", LineSpec>> = {
  add: {
    subs: ["schedule"],
    rest: (t) => ` <${t.argReport()}> ${t.scheduleWhen()} [${t.scheduleIn()} #${t.argChannel()}]`,
    does: (t) => t.schedule(),
    args: {
      en: "fuel all yesterday every day at 07:30",
      ro: "combustibil toate ieri în fiecare zi la 07:30",
    },
  },
  list: { subs: ["schedules"], does: (t) => t.schedules() },
  remove: {
    subs: ["schedule"],
    rest: (t) => ` ${t.scheduleRemoveWord()} <${t.argId()}>`,
    does: (t) => t.scheduleRemove(),
    args: { en: "remove 7K2Q", ro: "șterge 7K2Q" },
  },
};

/** The schedule lines in `language` (the App Home names their examples). */
export function scheduleUsage(language: Language): { add: UsageLine; list: UsageLine; remove: UsageLine } {
  return {
    add: write("fleet", SCHEDULE_LINES.add, language),
    list: write("fleet", SCHEDULE_LINES.list, language),
    remove: write("fleet", SCHEDULE_LINES.remove, language),
  };
}

/** An example of the alert filters, for the tests: the grammar reads them (alerts.ts). */
export const ALERT_OPTIONS_EXAMPLE =
  "/fleet alerts subscribe Error min=15 exclude=OldData vehicles=B-123-ABC";

const FLEET_LINES: readonly LineSpec[] = [
  { subs: ["help"], does: (t) => t.help() },
  { subs: ["login"], does: (t) => t.login() },
  { subs: ["login"], rest: () => " workspace", does: (t) => t.loginWorkspace(), args: "workspace" },
  { subs: ["logout"], does: (t) => t.logout() },
  { subs: ["whoami"], does: (t) => t.whoami() },
  ...REPORT_ENTRIES.map(reportLine),
  { subs: ["report"], does: (t) => t.report() },
  {
    subs: ["alerts"],
    rest: (t) =>
      ` subscribe [#${t.argChannel()}] [${t.argCodes()}…] [min=<${t.argMinutes()}>] [exclude=<${t.argCodes()}>] [vehicles=<${t.argPlates()}>] [stale=<${t.argMinutes()}>]`,
    does: (t) => t.alertsSubscribe(),
    args: "subscribe Error OldData NoGPSCoordinates",
  },
  {
    subs: ["alerts"],
    rest: (t) => ` unsubscribe [#${t.argChannel()}]`,
    does: (t) => t.alertsUnsubscribe(),
    args: "unsubscribe",
  },
  {
    subs: ["alerts"],
    rest: (t) =>
      ` subscribe <PowerCut|Zone|Idle|Speeding|Offline|Towed|AfterHours|Temperature…> [volts=<V>] [zones=<${t.argZones()}>] [idle=<${t.argMinutes()}>] [speed=<km/h>] [offline=<${t.argMinutes()}>] [hours=<HH:MM-HH:MM>] [temp=<min>..<max>] [tempfor=<${t.argMinutes()}>]`,
    does: (t) => t.alertsVehicle(),
    args: "subscribe PowerCut Idle Speeding speed=100",
  },
  { subs: ["alerts"], rest: () => " list", does: (t) => t.alertsList(), args: "list" },
  { subs: ["zones"], does: (t) => t.zones() },
  {
    subs: ["zones"],
    rest: (t) => ` add <${t.argName()}> <lat>,<lon> [radius=<m>]`,
    does: (t) => t.zonesAdd(),
    args: "add Depou 44.4326,25.9723 radius=500",
  },
  {
    subs: ["zones"],
    rest: (t) => ` add <${t.argName()}> at <${t.argVehicle()}> [radius=<m>]`,
    does: (t) => t.zonesAddAt(),
    args: "add Client at B-123-ABC",
  },
  {
    subs: ["zones"],
    rest: (t) => ` remove <${t.argName()}>`,
    does: (t) => t.zonesRemove(),
    args: "remove Depou",
  },
  { subs: ["queue"], does: (t) => t.queue() },
  SCHEDULE_LINES.add,
  SCHEDULE_LINES.list,
  SCHEDULE_LINES.remove,
  { subs: ["language"], rest: () => " [ro|en]", does: (t) => t.language(), args: "ro" },
];

const ETRANSPORT_LINES: readonly LineSpec[] = [
  { subs: ["new"], does: (t) => t.etransportNew() },
  {
    subs: ["list"],
    rest: (t) => ` [${t.listFilters()}] [${t.argSearch()}]`,
    does: (t) => t.etransportList(),
    args: "active B-123-ABC",
  },
  {
    subs: ["start", "pause", "end"],
    rest: () => " <UIT> [<UIT>…]",
    does: (t) => t.etransportStartPauseEnd(),
    args: EXAMPLE_UIT,
  },
  { subs: ["edit"], rest: () => " <UIT>", does: (t) => t.etransportEdit(), args: EXAMPLE_UIT },
  { subs: ["remove"], rest: () => " <UIT>", does: (t) => t.etransportRemove(), args: EXAMPLE_UIT },
  { subs: ["history"], rest: () => " <UIT>", does: (t) => t.etransportHistory(), args: EXAMPLE_UIT },
];

const USAGE: Readonly<Record<Command, Readonly<Record<Language, readonly UsageLine[]>>>> = {
  fleet: {
    en: FLEET_LINES.map((l) => write("fleet", l, "en")),
    ro: FLEET_LINES.map((l) => write("fleet", l, "ro")),
  },
  etransport: {
    en: ETRANSPORT_LINES.map((l) => write("etransport", l, "en")),
    ro: ETRANSPORT_LINES.map((l) => write("etransport", l, "ro")),
  },
};

/** The usage lines of `/fleet` or `/etransport` in `language`. */
export function usageLines(command: Command, language: Language): readonly UsageLine[] {
  return USAGE[command][language];
}

/** Every example of the help in `language`, both commands. */
export function usageExamples(language: Language): readonly string[] {
  return [...USAGE.fleet[language], ...USAGE.etransport[language]].map((l) => l.example);
}

export const fleetUsage: readonly UsageLine[] = USAGE.fleet.en;
export const etransportUsage: readonly UsageLine[] = USAGE.etransport.en;

export const fleetUsageExamples: readonly string[] = fleetUsage.map((l) => l.example);
export const etransportUsageExamples: readonly string[] = etransportUsage.map((l) => l.example);

function lines(usage: readonly UsageLine[], language: Language): string[] {
  // Escaped, or Slack would read the syntax's placeholders (`<vehicle>`) as links; fleetbot's own
  // text, so never cut.
  const whole = (text: string) => userCode(text, text.length * 5);
  const eg = messages(language).help.example();
  return usage.map((l) => `• ${whole(l.syntax)}${bracketed(l)} – ${l.does}. ${eg} ${whole(l.example)}`);
}

/** ` (`unde`)`, ` (`pornește`|`pauză`|`termină`)` as the syntax writes alternatives; empty when none. */
function bracketed(line: UsageLine): string {
  const words = line.others ?? [];
  // `start|pause|end`: the words of alternative subcommands are alternatives too.
  const between = line.alternatives ? "|" : ", ";
  return words.length > 0 ? ` (${words.map((w) => userCode(w)).join(between)})` : "";
}

/**
 * Vehicles of the reader's account for the examples: made-up plates answer "No vehicle…" to
 * whoever tries them.
 */
export interface VehicleExamples {
  /** Plates written as one word each (a command reads them so), the first used most. */
  plates: readonly string[];
  vehicleId?: number;
}

/** The examples from an account's vehicle list (its first two plates); undefined when it has none. */
export function vehicleExamples(
  vehicles: readonly Pick<Vehicle, "vehicleId" | "vehicleRegistrationNumber">[],
): VehicleExamples | undefined {
  const withPlates = vehicles.flatMap((v) => {
    const plate = (v.vehicleRegistrationNumber ?? "").trim().replace(/\s+/g, "-");
    return /^[\p{L}\p{N}]+(-[\p{L}\p{N}]+)*$/u.test(plate) ? [{ plate, id: v.vehicleId }] : [];
  });
  const first = withPlates[0];
  if (!first) return undefined;
  return { plates: withPlates.slice(0, 2).map((v) => v.plate), vehicleId: first.id };
}

/** The made-up vehicles of the help (and of a grammar error's example), replaced by the account's own. */
export function withVehicles(text: string, examples: VehicleExamples | undefined): string {
  const [first, second] = examples?.plates ?? [];
  if (!examples || !first) return text;
  const secondPlate = (all: string) =>
    second ? all.replace(/CJ-(07|10)-XYZ/g, second) : all.replace(/,\s?CJ-(07|10)-XYZ/g, "");
  return secondPlate(text)
    .replaceAll("b 123 abc", first.toLowerCase().replaceAll("-", " "))
    .replaceAll("B-123-ABC", first)
    .replaceAll("#1234", examples.vehicleId !== undefined ? `#${examples.vehicleId}` : first);
}

/**
 * The command list as Slack mrkdwn, one line per command, in the reader's `language`. `which`
 * narrows it to one slash command; `examples`: the reader's vehicles, used in the examples when
 * their account's list is known.
 */
export function helpText(
  which: "fleet" | "etransport" | "all",
  examples: VehicleExamples | undefined,
  language: Language,
): string {
  const t = messages(language).help;
  const out: string[] = [];
  if (which !== "etransport")
    out.push(t.heading({ command: "/fleet" }), ...lines(USAGE.fleet[language], language));
  if (which !== "fleet")
    out.push(t.heading({ command: "/etransport" }), ...lines(USAGE.etransport[language], language));
  if (which !== "etransport")
    out.push(t.vehiclesNote(), t.periodsNote(), t.alertCodesNote(), t.vehicleKindsNote());
  if (which !== "fleet") out.push(t.uitNote());
  return withVehicles(out.join("\n"), examples);
}

/**
 * The user's own vehicles for the help's examples and the forms' placeholders, when their account's
 * list is cached (no fleet call: help answers within the ack).
 */
export async function examplesFor(
  deps: Pick<ReportDeps, "users" | "vehicles">,
  userId: string,
): Promise<VehicleExamples | undefined> {
  const account = await deps.users.accountOf(userId);
  const cached = account ? await deps.vehicles.peek(account.username, userId) : undefined;
  return cached ? vehicleExamples(cached) : undefined;
}
