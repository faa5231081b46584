import { looksLikePeriod, normalisePeriodText, type PeriodProblem, parsePeriodCore } from "./period.js";
import { closestWord, code, decodeSlackEntities, firstWord, squeeze } from "./text.js";
import {
  ALERT_CODES,
  type AlertCode,
  type ChannelRef,
  type FleetCommandResult,
  type GrammarContext,
  type GrammarError,
  type Period,
  type ReportName,
  type VehicleRef,
} from "./types.js";
import { isRomanianPlate, parseVehicleList } from "./vehicles.js";

/**
 * `/fleet` grammar. Rules where the contract is silent:
 * - No text, or `report`, opens the report modal; `report <where|route|stops|fuel|refills|temps>` opens
 *   that report's form.
 * - Report commands: the period is recognised at the END of the text (the longest tail of at most four
 *   words that looks like a period); everything before it, split on commas, are vehicles. `key=value`
 *   options (only `min=`, only for stops) may stand anywhere after the subcommand; spaces around `=` are fine.
 * - A report command with no vehicle opens that report's form, prefilled with the period and `min` typed.
 * - `min` is a whole number of minutes from 1 to 1440; default 5.
 * - `where`, `route`, `refills` take exactly one vehicle and not `all`.
 * - `alerts` alone = `alerts list`. `alerts subscribe` with no codes = every code; `all` = every code.
 *   Codes are case-insensitive and ignore dashes/underscores (`no-gps-coordinates`). The channel is
 *   `<#C…|name>`, `<#C…>` or a bare channel id (C… or G…), anywhere in the list; none = the current channel.
 * - `help [anything]` is help; `login`, `logout`, `whoami`, `queue` take nothing after them.
 */

export const DEFAULT_MIN_MINUTES = 5;
export const MAX_MIN_MINUTES = 1440;
export const EXAMPLE_PLATE = "B-123-ABC";

const SUBCOMMANDS = [
  "help",
  "login",
  "logout",
  "whoami",
  "vehicles",
  "where",
  "route",
  "stops",
  "fuel",
  "refills",
  "temps",
  "report",
  "alerts",
  "queue",
] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

/** Words dispatchers may try, mapped to what they probably mean (suggested, never run silently). */
const SYNONYMS: Record<string, Subcommand> = {
  stop: "stops",
  position: "where",
  location: "where",
  locate: "where",
  track: "route",
  way: "route",
  trip: "route",
  consumption: "fuel",
  refuel: "refills",
  refuels: "refills",
  refueling: "refills",
  refuelling: "refills",
  theft: "refills",
  temp: "temps",
  temperature: "temps",
  temperatures: "temps",
  humidity: "temps",
  alert: "alerts",
  signin: "login",
  signout: "logout",
  me: "whoami",
  jobs: "queue",
  list: "vehicles",
};

const CANONICAL_EXAMPLES: Record<Subcommand, string> = {
  help: "/fleet help",
  login: "/fleet login",
  logout: "/fleet logout",
  whoami: "/fleet whoami",
  vehicles: "/fleet vehicles",
  where: `/fleet where ${EXAMPLE_PLATE}`,
  route: `/fleet route ${EXAMPLE_PLATE} yesterday`,
  stops: `/fleet stops ${EXAMPLE_PLATE} last 3d min=10`,
  fuel: "/fleet fuel all last week",
  refills: `/fleet refills ${EXAMPLE_PLATE} last 7d`,
  temps: `/fleet temps ${EXAMPLE_PLATE} today`,
  report: "/fleet report",
  alerts: "/fleet alerts list",
  queue: "/fleet queue",
};

function fail(message: string, example: string, extra: Partial<GrammarError> = {}): GrammarError {
  return { ok: false, kind: "error", message, example, ...extra };
}

// ---------------------------------------------------------------------------------------------
// Report commands: route, stops, fuel, refills, temps (and where, which takes no period).

const SINGLE: ReadonlySet<string> = new Set(["where", "route", "refills"]);

interface ReportArgs {
  vehicleTokens: string[];
  periodText: string;
  options: Map<string, string>;
}

/** Words (commas are words of their own) after `=` spacing and range separators are tightened. */
function tokenise(text: string): string[] {
  const tight = text.replace(/\s*=\s*/g, "=").replace(/\s*(?:\.{2,3}|…)\s*/g, "..");
  return tight.match(/[^\s,]+|,/g) ?? [];
}

function splitReportArgs(args: string): ReportArgs | { ok: false; message: string; option?: string } {
  const options = new Map<string, string>();
  const rest: string[] = [];
  for (const token of tokenise(args)) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(token);
    if (m) {
      const key = (m[1] ?? "").toLowerCase();
      if (options.has(key)) return { ok: false, message: `${code(`${key}=`)} is given twice.`, option: key };
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

/** A token inside the vehicle list that is surely a period word: the period must come last. */
function misplacedPeriod(tokens: readonly string[]): string | undefined {
  for (let i = 0; i < tokens.length; i++) {
    const t = (tokens[i] ?? "").toLowerCase();
    const next = (tokens[i + 1] ?? "").toLowerCase();
    if (t === "today" || t === "yesterday" || t.includes("..") || /^\d{4}-\d{1,2}-\d{1,2}$/.test(t))
      return tokens[i];
    if ((t === "last" || t === "this") && (next === "week" || /^\d/.test(next)))
      return `${tokens[i]} ${tokens[i + 1]}`;
  }
  return undefined;
}

function vehiclesText(refs: readonly VehicleRef[]): string {
  return refs.map((r) => r.raw).join(", ");
}

function readMin(value: string): number | string {
  if (!/^\d+$/.test(value)) {
    return `${code(`min=${value}`)}: give the shortest stop as a whole number of minutes, like ${code("min=10")}.`;
  }
  const n = Number(value);
  if (n < 1 || n > MAX_MIN_MINUTES) {
    return `${code(`min=${value}`)}: the shortest stop must be from 1 to ${MAX_MIN_MINUTES} minutes.`;
  }
  return n;
}

function parseReport(sub: ReportName, args: string, ctx: GrammarContext): FleetCommandResult {
  const cmd = `/fleet ${sub}`;
  const split = splitReportArgs(args);
  if ("ok" in split) return fail(split.message, CANONICAL_EXAMPLES[sub]);
  const { vehicleTokens, periodText, options } = split;

  // Vehicles first: the example of any later error reuses them when they are fine.
  const misplaced = misplacedPeriod(vehicleTokens);
  if (misplaced !== undefined) {
    return fail(
      `Put the period after the vehicles: ${code(misplaced)} was read as part of a vehicle.`,
      sub === "where"
        ? CANONICAL_EXAMPLES.where
        : `${cmd} ${EXAMPLE_PLATE} ${parsePeriodCore(misplaced, ctx).ok ? normalisePeriodText(misplaced) : "yesterday"}`,
    );
  }
  const list = parseVehicleList(vehicleTokens.join(" "));
  if (!list.ok) return fail(list.message, CANONICAL_EXAMPLES[sub]);
  const refs = list.refs;
  const single = SINGLE.has(sub);
  const okVehicles =
    refs.length === 0
      ? EXAMPLE_PLATE
      : single
        ? (refs.find((r) => r.type !== "all")?.raw ?? EXAMPLE_PLATE)
        : vehiclesText(refs);
  const withVehicles = `${cmd} ${okVehicles}`;

  // Options. Examples keep the period only when it is itself fine.
  const periodFine = sub !== "where" && periodText !== "" && parsePeriodCore(periodText, ctx).ok;
  const okPeriod = periodFine ? ` ${periodText}` : "";
  let minMinutes: number | undefined;
  for (const [key, value] of options) {
    if (key === "min" && sub === "stops") {
      const n = readMin(value);
      if (typeof n === "string") return fail(n, `${withVehicles}${okPeriod} min=10`);
      minMinutes = n;
    } else if (key === "min") {
      return fail(`${code("min=")} is only for ${code("/fleet stops")}.`, `${withVehicles}${okPeriod}`);
    } else {
      const only = sub === "stops" ? ` The only option is ${code("min=<minutes>")}.` : "";
      return fail(
        `${code(`${key}=`)} is not something ${code(cmd)} understands.${only}`,
        CANONICAL_EXAMPLES[sub],
      );
    }
  }

  if (sub === "where") {
    if (periodText !== "") {
      return fail(
        `${code(cmd)} shows the latest position and takes no period. For a track over time use ${code("/fleet route")}.`,
        withVehicles,
      );
    }
  }

  // Period.
  let period: Period | undefined;
  if (sub !== "where") {
    const parsed = parsePeriodCore(periodText, ctx);
    if (!parsed.ok) {
      return fail(parsed.message, periodExample(withVehicles, parsed, minMinutes));
    }
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

  if (single) {
    if (refs.some((r) => r.type === "all")) {
      const instead = sub === "where" ? ` For every vehicle use ${code("/fleet vehicles")}.` : "";
      return fail(
        `${code(cmd)} works on one vehicle at a time, not ${code("all")}.${instead}`,
        sub === "where" ? "/fleet vehicles" : `${withVehicles}${okPeriod}`,
      );
    }
    if (refs.length > 1) {
      return fail(
        `${code(cmd)} works on one vehicle at a time; you gave ${refs.length}: ${refs.map((r) => code(r.raw)).join(", ")}.`,
        `${withVehicles}${okPeriod}`,
      );
    }
  }
  const vehicle = refs[0]!;
  const all = refs.find((r) => r.type === "all");
  const vehicles = all ? [all] : refs;
  switch (sub) {
    case "where":
      return { ok: true, kind: "where", vehicle };
    case "route":
      return { ok: true, kind: "route", vehicle, period: period! };
    case "refills":
      return { ok: true, kind: "refills", vehicle, period: period! };
    case "stops":
      return {
        ok: true,
        kind: "stops",
        vehicles,
        period: period!,
        minMinutes: minMinutes ?? DEFAULT_MIN_MINUTES,
      };
    case "fuel":
      return { ok: true, kind: "fuel", vehicles, period: period! };
    case "temps":
      return { ok: true, kind: "temps", vehicles, period: period! };
  }
}

function periodExample(withVehicles: string, problem: PeriodProblem, minMinutes: number | undefined): string {
  return `${withVehicles} ${problem.fix}${minMinutes !== undefined ? ` min=${minMinutes}` : ""}`;
}

// ---------------------------------------------------------------------------------------------
// Alerts.

const CODE_BY_KEY = new Map<string, AlertCode>(ALERT_CODES.map((c) => [c.toLowerCase(), c]));
const CHANNEL_LINK = /^<#([CG][A-Z0-9]{2,})(?:\|([^>]*))?>$/;
const CHANNEL_ID = /^[CG][A-Z0-9]{8,}$/;

function readChannel(token: string): ChannelRef | undefined {
  const link = CHANNEL_LINK.exec(token);
  if (link) {
    const name = link[2] ? decodeSlackEntities(link[2]) : "";
    return name ? { id: link[1] ?? "", name } : { id: link[1] ?? "" };
  }
  if (CHANNEL_ID.test(token)) return { id: token };
  return undefined;
}

function channelProblem(token: string): string {
  return `${code(token)} is not a channel I can use: type ${code("#")} and pick the channel from the list Slack shows, or leave it out to use this channel.`;
}

function parseAlerts(args: string): FleetCommandResult {
  const [subRaw, rest] = firstWord(args);
  const sub = subRaw.toLowerCase();
  const tokens = rest.match(/[^\s,]+/g) ?? [];
  const channels: ChannelRef[] = [];
  const words: string[] = [];
  for (const token of tokens) {
    const channel = readChannel(token);
    if (channel) channels.push(channel);
    else if (token.startsWith("#") || token.startsWith("<#"))
      return fail(channelProblem(token), "/fleet alerts subscribe Error OldData");
    else words.push(token);
  }
  if (channels.length > 1) {
    return fail(
      "Give one channel at a time.",
      sub === "unsubscribe" ? "/fleet alerts unsubscribe" : "/fleet alerts subscribe Error",
    );
  }
  const channel = channels[0];
  switch (sub) {
    case "":
    case "list":
      if (rest !== "")
        return fail(`${code("/fleet alerts list")} takes nothing after it.`, "/fleet alerts list");
      return { ok: true, kind: "alerts-list" };
    case "unsubscribe":
      if (words.length > 0) {
        return fail(
          `${code("/fleet alerts unsubscribe")} takes only a channel; ${code(words.join(" "))} is not one.`,
          "/fleet alerts unsubscribe",
        );
      }
      return channel
        ? { ok: true, kind: "alerts-unsubscribe", channel }
        : { ok: true, kind: "alerts-unsubscribe" };
    case "subscribe": {
      const codes: AlertCode[] = [];
      for (const word of words) {
        const key = word.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
        if (key === "all") {
          for (const c of ALERT_CODES) if (!codes.includes(c)) codes.push(c);
          continue;
        }
        const found = CODE_BY_KEY.get(key);
        if (!found) {
          const near = closestWord(key, [...CODE_BY_KEY.keys()]);
          const nearCode = near ? CODE_BY_KEY.get(near) : undefined;
          const hint = nearCode ? ` Did you mean ${code(nearCode)}?` : "";
          return fail(
            `${code(word)} is not an alert code.${hint} Codes: ${ALERT_CODES.map((c) => code(c)).join(", ")}, or ${code("all")}.`,
            `/fleet alerts subscribe ${nearCode ?? "Error OldData"}`,
            nearCode ? { suggestion: nearCode } : {},
          );
        }
        if (!codes.includes(found)) codes.push(found);
      }
      const all = codes.length === 0 ? [...ALERT_CODES] : codes;
      return channel
        ? { ok: true, kind: "alerts-subscribe", channel, codes: all }
        : { ok: true, kind: "alerts-subscribe", codes: all };
    }
    default: {
      const near = closestWord(sub, ["subscribe", "unsubscribe", "list"]);
      return fail(
        `${code(`/fleet alerts ${subRaw}`)} is not a command.${near ? ` Did you mean ${code(`/fleet alerts ${near}`)}?` : ` Use ${code("subscribe")}, ${code("unsubscribe")} or ${code("list")}.`}`,
        near === "subscribe"
          ? "/fleet alerts subscribe"
          : near === "unsubscribe"
            ? "/fleet alerts unsubscribe"
            : "/fleet alerts list",
        near ? { suggestion: near } : {},
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------

const REPORTS: readonly ReportName[] = ["where", "route", "stops", "fuel", "refills", "temps"];

function noArguments(sub: Subcommand, args: string): GrammarError | undefined {
  if (args === "") return undefined;
  if (sub === "login") {
    return fail(
      `${code("/fleet login")} takes nothing after it: it opens a private form for your user name and password. Never type a password in a message.`,
      "/fleet login",
    );
  }
  return fail(`${code(`/fleet ${sub}`)} takes nothing after it.`, `/fleet ${sub}`);
}

function unknownSubcommand(word: string, args: string, ctx: GrammarContext): GrammarError {
  const whole = squeeze(`${word} ${args}`);
  const vehicle =
    isRomanianPlate(word) || /^#\d+$/.test(word)
      ? word
      : /^[A-Za-z0-9 -]+$/.test(whole) && isRomanianPlate(whole)
        ? whole
        : undefined;
  if (vehicle !== undefined) {
    const where = parseFleetCommand(`where ${vehicle}`, ctx);
    if (where.ok && where.kind === "where") {
      return fail(
        `Say what you want to know about ${code(vehicle)}, for example where it is or its stops.`,
        `/fleet where ${vehicle}`,
        { suggestion: "where", showHelp: true },
      );
    }
  }
  const lower = word.toLowerCase();
  const near =
    (Object.hasOwn(SYNONYMS, lower) ? SYNONYMS[lower] : undefined) ?? closestWord(lower, SUBCOMMANDS);
  if (near) {
    const retry = `/fleet ${near}${args ? ` ${args}` : ""}`;
    const retried = parseFleetCommand(`${near} ${args}`, ctx);
    const example = retried.ok && retried.kind !== "modal" ? retry : CANONICAL_EXAMPLES[near as Subcommand];
    return fail(
      `${code(`/fleet ${word}`)} is not a command. Did you mean ${code(`/fleet ${near}`)}?`,
      example,
      {
        suggestion: near,
        showHelp: true,
      },
    );
  }
  return fail(
    `${code(`/fleet ${word}`)} is not a command. Here is what ${code("/fleet")} can do:`,
    "/fleet help",
    {
      showHelp: true,
    },
  );
}

/** Parse the text after `/fleet`. Pure: the same text and context always give the same result. */
export function parseFleetCommand(text: string, ctx: GrammarContext): FleetCommandResult {
  const [word, args] = firstWord(text);
  const sub = word.toLowerCase();
  if (sub === "") return { ok: true, kind: "modal", report: "report" };
  switch (sub) {
    case "help": {
      const topic = args.toLowerCase();
      return topic ? { ok: true, kind: "help", topic } : { ok: true, kind: "help" };
    }
    case "login":
    case "logout":
    case "whoami":
    case "queue":
      return noArguments(sub, args) ?? { ok: true, kind: sub };
    case "vehicles": {
      const filter = squeeze(decodeSlackEntities(args));
      return filter ? { ok: true, kind: "vehicles", filter } : { ok: true, kind: "vehicles" };
    }
    case "report": {
      if (args === "") return { ok: true, kind: "modal", report: "report" };
      const which = args.toLowerCase();
      if ((REPORTS as readonly string[]).includes(which))
        return { ok: true, kind: "modal", report: which as ReportName };
      return fail(
        `${code(`/fleet report ${args}`)}: after ${code("report")} give nothing, or one of ${REPORTS.map((r) => code(r)).join(", ")}.`,
        "/fleet report",
      );
    }
    case "alerts":
      return parseAlerts(args);
    case "where":
    case "route":
    case "stops":
    case "fuel":
    case "refills":
    case "temps":
      return parseReport(sub, args, ctx);
    default:
      return unknownSubcommand(word, args, ctx);
  }
}
