/**
 * English, the command grammar: what a command that does not parse is told (the grammar returns
 * a code and its data, src/commands/problems.ts; these are its words, written by
 * src/commands/views/grammarError.ts), and a period's label (src/commands/periodLabel.ts, written by
 * src/i18n/periodText.ts). Dates come in already written (format.ts `date`). Text parameters come
 * in as inline code, already escaped (what the user typed, or a command in the reader's words).
 */
import { number } from "../format.js";
import { count } from "../plural.js";
import type { Section } from "../section.js";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

type Given = { given: string };

export const grammar = {
  // ---------- a period's label ----------
  periodToday: () => "today",
  periodYesterday: ({ date }: { date: string }) => `yesterday (${date})`,
  periodDayBeforeYesterday: ({ date }: { date: string }) => `day before yesterday (${date})`,
  periodLastHours: (n: number) => `last ${count("en", n, { one: "hour", other: "hours" })}`,
  periodLastDays: (n: number) => `last ${count("en", n, { one: "day", other: "days" })}`,
  periodThisWeek: ({ since }: { since: string }) => `this week (since ${since})`,
  periodThisMonth: ({ since }: { since: string }) => `this month (since ${since})`,
  periodLastWeek: ({ from, to }: { from: string; to: string }) => `last week (${from} – ${to})`,
  periodLastMonth: ({ from, to }: { from: string; to: string }) => `last month (${from} – ${to})`,
  /** A period cut at now. */
  periodUntilNow: ({ period }: { period: string }) => `${period} (until now)`,

  // ---------- an error's frame ----------
  /** Before the example command that works. */
  tryExample: () => "Try:",
  /** Between the last two of a few alternatives ("`B-1-ABC` or `B-2-ABC`"). */
  or: () => "or",
  /** The rest of a short list of echoes: "`a`, `b` and 3 more". */
  andMoreShort: (n: number) => `and ${number("en", n)} more`,

  // ---------- periods ----------
  notADate: ({ given, example }: { given: string; example: string }) =>
    `${given} is not a date. Dates are written YYYY-MM-DD or DD.MM.YYYY, like ${example}.`,
  noSuchMonth: ({ given, month }: { given: string; month: number }) =>
    `${given} is not a date: there is no month ${number("en", month)}. Dates are written YYYY-MM-DD.`,
  noSuchDay: ({ given, month, year, days }: { given: string; month: number; year: number; days: number }) =>
    `${given} is not a date: ${MONTHS[month - 1] ?? month} ${year} has ${count("en", days, { one: "day", other: "days" })}.`,
  tooFarBack: ({ given }: Given) => `${given} is too far back.`,
  notATime: ({ given }: Given) => `${given} is not a time. Times are written HH:mm, from 00:00 to 23:59.`,
  notAStart: ({ given, example }: { given: string; example: string }) =>
    `${given} is not a start: write a date, or a date and a time, like ${example}.`,
  notAnEnd: ({ given, example }: { given: string; example: string }) =>
    `${given} is not an end: write a date, or a date and a time, like ${example}.`,
  notStarted: ({ given }: Given) => `${given} has not started yet: reports cover the past, up to now.`,
  skippedByClocks: ({ given }: Given) => `${given} does not exist in your time zone: the clocks skipped it.`,
  rangeSeparator: ({ given }: Given) =>
    `${given} is not a period: a range has one \`..\` between its start and its end.`,
  endsBeforeStart: ({ given, timed }: { given: string; timed: boolean }) =>
    `${given} ends before it starts: put the earlier ${timed ? "time" : "date"} first.`,
  tooLong: ({ given, maxDays }: { given: string; maxDays: number }) =>
    `${given} is too long: a period can cover at most ${count("en", maxDays, { one: "day", other: "days" })}.`,
  /** `count`: the whole number typed without a unit. */
  lastNeedsUnit: ({ given, count: n }: { given: string; count: number }) =>
    `${given} is not a period. Add the unit: \`last ${n}h\` or \`last ${n}d\`.`,
  lastNotANumber: ({ given }: Given) =>
    `${given} is not a period. Write \`last 12h\` for hours or \`last 3d\` for days, with a whole number.`,
  countOutOfRange: ({ given, hours, max }: { given: string; hours: boolean; max: number }) =>
    `${given}: the number of ${hours ? "hours" : "days"} must be from 1 to ${number("en", max)}${hours ? " (or use days: `last 3d`)" : ""}.`,
  timeNeedsEnd: ({ given, example }: { given: string; example: string }) =>
    `${given}: a time needs an end too, like ${example}.`,
  notAPeriod: ({ given, yesterday, range }: { given: string; yesterday: string; range: string }) =>
    `${given} is not a period. Use \`today\`, \`yesterday\`, \`last 12h\`, \`last 3d\`, \`this week\`, \`last week\`, \`this month\`, \`last month\`, a date like ${yesterday} or a range like ${range}.`,

  // ---------- /fleet reports ----------
  optionTwice: ({ option }: { option: string }) => `${option} is given twice.`,
  strayWords: ({ given }: Given) =>
    `${given} is neither a vehicle nor a period. Give the vehicles, then the period.`,
  periodFirst: ({ given }: Given) =>
    `Put the period after the vehicles: ${given} was read as part of a vehicle.`,
  minNotWhole: ({ given }: Given) =>
    `${given}: give the shortest stop as a whole number of minutes, like \`min=10\`.`,
  minOutOfRange: ({ given, max }: { given: string; max: number }) =>
    `${given}: the shortest stop must be from 1 to ${number("en", max)} minutes.`,
  /** `command`: `/fleet stops`. */
  minOnlyForStops: ({ command }: { command: string }) => `\`min=\` is only for ${command}.`,
  unknownOption: ({ option, command, onlyMin }: { option: string; command: string; onlyMin: boolean }) =>
    `${option} is not something ${command} understands.${onlyMin ? " The only option is `min=<minutes>`." : ""}`,
  /** `vehiclesCommand`: `/fleet vehicles`, for `where`; absent for the other reports. */
  oneVehicleNotAll: ({ command, vehiclesCommand }: { command: string; vehiclesCommand?: string }) =>
    `${command} works on one vehicle at a time, not \`all\`.${vehiclesCommand ? ` For every vehicle use ${vehiclesCommand}.` : ""}`,
  /** `given`: the vehicles, listed (andMoreShort). */
  oneVehicleMany: ({ command, count: n, given }: { command: string; count: number; given: string }) =>
    `${command} works on one vehicle at a time; you gave ${number("en", n)}: ${given}.`,
  snapshotNoPeriod: ({ command, routeCommand }: { command: string; routeCommand: string }) =>
    `${command} shows the latest position and takes no period. For a track over time use ${routeCommand}.`,
  /** `word`: `report`; `reports`: the report words, listed. */
  reportAfterWord: ({ given, word, reports }: { given: string; word: string; reports: string }) =>
    `${given}: after ${word} give nothing, or one of ${reports}.`,
  vehicleWithoutSubcommand: ({ vehicle }: { vehicle: string }) =>
    `Say what you want to know about ${vehicle}, for example where it is or its stops.`,
  notAVehicleId: ({ given }: Given) =>
    `${given} is not a vehicle id: ids are whole numbers after #, like \`#1234\`.`,
  notAVehicle: ({ given }: Given) => `${given} is not a vehicle: give a registration number or a name.`,
  /** `candidates`: the vehicles it matches, listed. */
  vehicleAmbiguous: ({ given, count: n, candidates }: { given: string; count: number; candidates: string }) =>
    `${given} matches ${count("en", n, { one: "vehicle", other: "vehicles" })}: ${candidates}. Give the registration number.`,
  /** `suggestions`: the nearest plates, joined with `or`; empty when none. */
  vehicleUnknownPlate: ({ given, suggestions }: { given: string; suggestions: string }) =>
    `No vehicle with registration number ${given} in this account.${suggestions ? ` Did you mean ${suggestions}?` : ""}`,
  vehicleUnknownName: ({ given, suggestions }: { given: string; suggestions: string }) =>
    `No vehicle named ${given} in this account.${suggestions ? ` Did you mean ${suggestions}?` : ""}`,
  vehicleNotVisible: ({ vehicle }: { vehicle: string }) =>
    `Vehicle ${vehicle} is not visible to this fleet account.`,

  // ---------- /fleet alerts, language, login ----------
  notAChannel: ({ given }: Given) =>
    `${given} is not a channel I can use: type \`#\` and pick the channel from the list Slack shows, or leave it out to use this channel.`,
  oneChannel: () => "Give one channel at a time.",
  takesNothing: ({ command }: { command: string }) => `${command} takes nothing after it.`,
  unsubscribeOnlyChannel: ({ given }: Given) =>
    `\`/fleet alerts unsubscribe\` takes only a channel; ${given} is not one.`,
  /** `codes`: every alert code, listed. */
  notAnAlertCode: ({ given, suggestion, codes }: { given: string; suggestion?: string; codes: string }) =>
    `${given} is not an alert code.${suggestion ? ` Did you mean ${suggestion}?` : ""} Codes: ${codes}, or \`all\`.`,
  zoneName: () => "Give the zone a name, then where it is.",
  zoneNameCharacters: ({ given }: { given: string }) =>
    `${given} cannot be a zone name: at most 60 characters, without < > * _ \` ~ |.`,
  zoneWhere: ({ given }: { given: string }) =>
    `Where is the zone? After its name give its centre as latitude,longitude, or \`at\` and a vehicle (not ${given}).`,
  zoneCoordinates: ({ given }: { given: string }) =>
    `${given} is not a place: latitude from −90 to 90 and longitude from −180 to 180, as a map copies them (44.4326,25.9723).`,
  zoneRadius: ({ given }: { given: string }) => `${given}: the radius is whole metres from 50 to 50,000.`,
  zoneSubcommand: ({ given, suggestion }: { given: string; suggestion?: string }) =>
    `${given} is not something \`/fleet zones\` does.${suggestion ? ` Did you mean \`${suggestion}\`?` : " Use `add`, `remove`, or nothing to list them."}`,
  watchOptionWithoutKind: ({ option, kind }: { option: string; kind: string }) =>
    `${option} is an option of ${kind} alerts: name ${kind} among the codes too.`,
  temperatureNeedsBand: ({ example }: { example: string }) =>
    `Temperature alerts need the range the load must stay in, as \`temp=<min>..<max>\` °C (a chilled load and a frozen one need opposite ranges), for example ${example}.`,
  unknownAlertsSubcommand: ({ given, suggestion }: { given: string; suggestion?: string }) =>
    `${given} is not a command.${suggestion ? ` Did you mean ${suggestion}?` : " Use `subscribe`, `unsubscribe` or `list`."}`,
  oneLanguage: ({ command }: { command: string }) => `${command} takes one language: \`ro\` or \`en\`.`,
  workspaceLanguageMissing: () => "Say which language the workspace gets: `ro` or `en`.",
  notALanguage: ({ given }: Given) =>
    `${given} is not a language fleetbot answers in: \`ro\` (română) or \`en\` (English).`,
  loginTakesNothing: () =>
    "`/fleet login` takes nothing after it (or `workspace`, for the workspace's own account): it opens a private form for the user name and password. Never type a password in a message.",

  // ---------- both commands ----------
  /** `root`: `/fleet` or `/etransport`. */
  unknownCommand: ({ given, root }: { given: string; root: string }) =>
    `${given} is not a command. Here is what ${root} can do:`,
  /** `pauseCommand`: `/etransport pause`, when `stop` was typed; else absent. */
  unknownCommandNear: ({
    given,
    suggestion,
    pauseCommand,
  }: {
    given: string;
    suggestion: string;
    pauseCommand?: string;
  }) =>
    `${given} is not a command. Did you mean ${suggestion}${pauseCommand ? ` (or ${pauseCommand} to stop sending positions for a while)` : ""}?`,
  notACommand: () => "Commands start with `/fleet` or `/etransport`.",

  // ---------- /etransport ----------
  uitLength: ({
    given,
    length,
    uitLength,
    example,
  }: {
    given: string;
    length: number;
    uitLength: number;
    example: string;
  }) =>
    `${given} is not a UIT: it has ${count("en", length, { one: "character", other: "characters" })}, a UIT has ${number("en", uitLength)} letters and digits, like ${example}.`,
  uitCharacters: ({ given, example }: { given: string; example: string }) =>
    `${given} is not a UIT: a UIT has only letters and digits (dashes and spaces are ignored), like ${example}.`,
  oneTransport: ({ command, count: n }: { command: string; count: number }) =>
    `${command} works on one transport at a time; you gave ${number("en", n)} UITs.`,
  historyNeedsUit: ({ command }: { command: string }) =>
    `${command} needs the UIT of the transport whose changes you want to see.`,
  historyOne: ({ command, count: n }: { command: string; count: number }) =>
    `${command} shows one transport at a time; you gave ${number("en", n)} UITs.`,
  /** `verbs`: the commands that act on a transport, listed. */
  uitWithoutVerb: ({ uit, verbs }: { uit: string; verbs: string }) => `Say what to do with ${uit}: ${verbs}.`,
} satisfies Section;
