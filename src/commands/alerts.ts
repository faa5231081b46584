/**
 * `/fleet alerts [list | subscribe … | unsubscribe …]`: the one reading of the alerts command and
 * of `subscribe`'s options. Pure, like the rest of the grammar: a channel name typed rather than
 * picked (`#general`) is looked up by the listener (alertChannelChange lists the names) and its id
 * handed back in the context.
 *
 * - `alerts` alone = `alerts list`. `alerts subscribe` with no codes = every code; `all` = every code.
 *   Codes are case-insensitive and ignore dashes/underscores (`no-gps-coordinates`). The channel is
 *   `<#C…|name>`, `<#C…>`, a bare channel id (C… or G…) or a typed `#name` Slack knows, anywhere in
 *   the list; none = the current channel.
 * - `subscribe` options, anywhere after it, spaces around `=` allowed: `min=<minutes>` (0–1440, how
 *   long a problem must last before it is posted), `stale=<minutes>` (0–360, how long without a
 *   position sent before a stalled alert; 0: none), `exclude=<codes>` and `vehicles=<plates>`
 *   (comma-separated), `lang=ro|en` (the language of the channel's alerts). A value that cannot be
 *   read is refused before anything else of the command (the last such option is named).
 */
import { isLanguage } from "../i18n/language.js";
import { closestWord, decodeSlackEntities, firstWord, foldWord, squeeze } from "./text.js";
import {
  ALERT_CODES,
  type AlertCode,
  type AlertSubscribeOptions,
  type ChannelRef,
  type FleetCommandResult,
  type FleetGrammarContext,
  type GrammarError,
  type GrammarProblem,
  OTHER_ALERT_CODES,
  type ProblemOf,
  TRANSMISSION_ALERT_CODES,
  VEHICLE_CODES,
} from "./types.js";

/** An option of `alerts subscribe` whose value cannot be read: which, and the value as typed. */
export type AlertOptionProblem = Omit<ProblemOf<"alertOption">, "code">;

/** Each option's example in an error: one that parses, and what the option's answer shows. */
export const OPTION_EXAMPLES: Record<AlertOptionProblem["option"], string> = {
  min: "/fleet alerts subscribe Error OldData min=15 exclude=NotInRomania",
  stale: "/fleet alerts subscribe Error stale=45",
  lang: "/fleet alerts subscribe Error OldData lang=ro",
  volts: "/fleet alerts subscribe PowerCut volts=11,5",
  idle: "/fleet alerts subscribe Idle idle=30",
  speed: "/fleet alerts subscribe Speeding speed=100",
  offline: "/fleet alerts subscribe Offline offline=120",
  hours: "/fleet alerts subscribe AfterHours hours=06:00-22:00",
  temp: "/fleet alerts subscribe Temperature temp=-25..-15 tempfor=20",
  tempfor: "/fleet alerts subscribe Temperature temp=2..8 tempfor=20",
  zones: '/fleet alerts subscribe Zone zones="Depou București",Client',
};

/** Which vehicle kind each vehicle option belongs to (an option without its kind is refused). */
const OPTION_KIND: Readonly<Record<string, string>> = {
  volts: "PowerCut",
  zones: "Zone",
  idle: "Idle",
  speed: "Speeding",
  offline: "Offline",
  hours: "AfterHours",
  temp: "Temperature",
  tempfor: "Temperature",
};

/** A value: words, or quoted words with spaces (`zones="Depou București",Client`; typographic quotes too). */
const ALERT_OPTION =
  /\b(min|stale|exclude|vehicles|lang|volts|zones|idle|speed|offline|hours|tempfor|temp)\s*=\s*((?:"[^"]*"|“[^”]*”|„[^”]*”|[^\s"“„])+)/gi;
const MAX_MIN_DURATION = 1440;
// Past 6 hours positions can no longer be sent (OldData says so): a later warning is no warning.
const MAX_STALE = 360;

/** `subscribe`'s options taken out of the words after it: the rest, the options, what cannot be read. */
interface OptionsReading {
  rest: string;
  options: AlertSubscribeOptions;
  problem?: AlertOptionProblem;
}

function wholeMinutes(value: string, max: number): number | undefined {
  const minutes = Number(value);
  return Number.isInteger(minutes) && minutes >= 0 && minutes <= max ? minutes : undefined;
}

/** A number as typed, a decimal comma allowed (`11,5`). */
function decimal(value: string): number | undefined {
  if (!/^-?\d+(?:[.,]\d+)?$/.test(value)) return undefined;
  return Number(value.replace(",", "."));
}

function inRange(n: number | undefined, min: number, max: number): number | undefined {
  return n !== undefined && n >= min && n <= max ? n : undefined;
}

/** `HH:MM-HH:MM` (an en dash too), as stored: `06:00-22:00`; undefined when not two different times of day. */
function readHours(value: string): string | undefined {
  const m = /^(\d{1,2})[:.](\d{2})[-–](\d{1,2})[:.](\d{2})$/.exec(value);
  if (!m) return undefined;
  const [h1, m1, h2, m2] = [m[1], m[2], m[3], m[4]].map(Number) as [number, number, number, number];
  if (h1 > 23 || h2 > 23 || m1 > 59 || m2 > 59 || (h1 === h2 && m1 === m2)) return undefined;
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(h1)}:${two(m1)}-${two(h2)}:${two(m2)}`;
}

/** `<min>..<max>` °C, each −50..50 (a decimal comma allowed), min below max. */
function readBand(value: string): { min: number; max: number } | undefined {
  const m = /^(-?\d+(?:[.,]\d+)?)\.\.(-?\d+(?:[.,]\d+)?)$/.exec(value.replace(/−/g, "-"));
  if (!m) return undefined;
  const min = inRange(decimal(m[1] ?? ""), -50, 50);
  const max = inRange(decimal(m[2] ?? ""), -50, 50);
  return min !== undefined && max !== undefined && min < max ? { min, max } : undefined;
}

/** Comma-separated names, a quoted one keeping its spaces and commas. */
function readNames(value: string): string[] {
  const names: string[] = [];
  for (const m of value.matchAll(/"([^"]*)"|“([^”]*)”|„([^”]*)”|([^,]+)/g)) {
    const name = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? "").trim();
    if (name !== "") names.push(name);
  }
  return names;
}

/** A vehicle kind's option into `watch`; false when its value cannot be read. */
function readWatchOption(
  name: string,
  value: string,
  watch: NonNullable<AlertSubscribeOptions["watch"]>,
): boolean {
  const whole = (min: number, max: number) => {
    const n = decimal(value);
    return n !== undefined && Number.isInteger(n) ? inRange(n, min, max) : undefined;
  };
  switch (name) {
    case "volts": {
      const volts = inRange(decimal(value), 0, 60);
      if (volts !== undefined) watch.volts = volts;
      return volts !== undefined;
    }
    case "idle": {
      const minutes = whole(1, 1440);
      if (minutes !== undefined) watch.idleMinutes = minutes;
      return minutes !== undefined;
    }
    case "speed": {
      const kmh = whole(10, 250);
      if (kmh !== undefined) watch.speedKmh = kmh;
      return kmh !== undefined;
    }
    case "offline": {
      const minutes = whole(5, 10080);
      if (minutes !== undefined) watch.offlineMinutes = minutes;
      return minutes !== undefined;
    }
    case "tempfor": {
      const minutes = whole(0, 1440);
      if (minutes !== undefined) watch.tempForMinutes = minutes;
      return minutes !== undefined;
    }
    case "hours": {
      const hours = readHours(value);
      if (hours !== undefined) watch.hours = hours;
      return hours !== undefined;
    }
    case "temp": {
      const band = readBand(value);
      if (band) {
        watch.tempMin = band.min;
        watch.tempMax = band.max;
      }
      return band !== undefined;
    }
    case "zones": {
      const names = readNames(value);
      if (names.length > 0) watch.zones = names;
      return names.length > 0;
    }
    default:
      return false;
  }
}

function readOptions(text: string): OptionsReading {
  const options: AlertSubscribeOptions = {};
  const watch: NonNullable<AlertSubscribeOptions["watch"]> = {};
  let problem: AlertOptionProblem | undefined;
  const rest = text.replace(ALERT_OPTION, (_match, key: string, value: string) => {
    const name = key.toLowerCase();
    if (name in OPTION_KIND) {
      if (!readWatchOption(name, value, watch))
        problem = { option: name as AlertOptionProblem["option"], value };
    } else if (name === "min" || name === "stale") {
      const minutes = wholeMinutes(value, name === "min" ? MAX_MIN_DURATION : MAX_STALE);
      if (minutes === undefined) problem = { option: name, value };
      else if (name === "min") options.minDurationMinutes = minutes;
      else options.staleMinutes = minutes;
    } else if (name === "lang") {
      const language = value.toLowerCase();
      if (isLanguage(language)) options.language = language;
      else problem = { option: "lang", value };
    } else {
      const list = value
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean);
      if (name === "exclude") options.exclude = list;
      else options.vehicles = list;
    }
    return " ";
  });
  if (Object.keys(watch).length > 0) options.watch = watch;
  return { rest: squeeze(rest), options, ...(problem ? { problem } : {}) };
}

/**
 * A vehicle option needs its kind among the codes (`speed=` with `Speeding`), and `Temperature`
 * needs its band; undefined when the subscription reads whole.
 */
function watchProblem(codes: readonly string[], options: AlertSubscribeOptions): GrammarError | undefined {
  const named = new Set(codes.map((c) => c.toLowerCase()));
  const watch = options.watch ?? {};
  const given: Record<string, boolean> = {
    volts: watch.volts !== undefined,
    zones: watch.zones !== undefined,
    idle: watch.idleMinutes !== undefined,
    speed: watch.speedKmh !== undefined,
    offline: watch.offlineMinutes !== undefined,
    hours: watch.hours !== undefined,
    temp: watch.tempMin !== undefined,
    tempfor: watch.tempForMinutes !== undefined,
  };
  for (const [option, kind] of Object.entries(OPTION_KIND)) {
    if (given[option] && !named.has(kind.toLowerCase())) {
      return fail(
        { code: "watchOptionWithoutKind", option: `${option}=`, kind },
        OPTION_EXAMPLES[option as AlertOptionProblem["option"]],
      );
    }
  }
  if (named.has("temperature") && watch.tempMin === undefined) {
    return fail({ code: "temperatureNeedsBand" }, OPTION_EXAMPLES.temp);
  }
  return undefined;
}

/** `alerts subscribe|unsubscribe` (or `alert …`, which the grammar answers as a slip of `alerts`). */
function channelChangeOf(
  text: string,
): { sub: "subscribe" | "unsubscribe"; typed: string; rest: string } | undefined {
  const [word, args] = firstWord(text);
  if (!/^(alerts?|alerte)$/i.test(word)) return undefined;
  const [subRaw, rest] = firstWord(args);
  const sub = alertSubcommandOf(subRaw);
  return sub === "subscribe" || sub === "unsubscribe" ? { sub, typed: `${word} ${subRaw}`, rest } : undefined;
}

/**
 * A `/fleet` text's alert options and the text without them: `options` only for `alerts
 * subscribe`, `problem` when one cannot be read. What parseFleetCommand reads, apart.
 */
export function alertOptions(text: string): {
  text: string;
  options?: AlertSubscribeOptions;
  problem?: AlertOptionProblem;
} {
  const change = channelChangeOf(text);
  if (change?.sub !== "subscribe") return { text };
  const { rest, options, problem } = readOptions(change.rest);
  return { text: squeeze(`${change.typed} ${rest}`), options, ...(problem ? { problem } : {}) };
}

/** A channel name typed, not picked: `#general` (Slack sends a picked one as `<#C…|general>`). */
const TYPED_CHANNEL = /^#([a-z0-9][a-z0-9._-]{0,79})$/i;

/**
 * Whether the text changes a channel's alerts (`alerts subscribe|unsubscribe`): the listener then
 * acknowledges first, since the answer asks Slack (membership, can the bot post there). `typedChannels`:
 * the names typed as `#name`, lower case, for it to look up (FleetGrammarContext.channelIds);
 * none when an option cannot be read, since that is the answer.
 */
export function alertChannelChange(text: string): { typedChannels: string[] } | undefined {
  const change = channelChangeOf(text);
  if (!change) return undefined;
  const reading = change.sub === "subscribe" ? readOptions(change.rest) : { rest: change.rest };
  if ("problem" in reading && reading.problem) return { typedChannels: [] };
  const names = reading.rest
    .split(" ")
    .map((word) => TYPED_CHANNEL.exec(word)?.[1]?.toLowerCase())
    .filter((name): name is string => name !== undefined);
  return { typedChannels: [...new Set(names)] };
}

function fail(problem: GrammarProblem, example: string, extra: Partial<GrammarError> = {}): GrammarError {
  return { ok: false, kind: "error", problem, example, ...extra };
}

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

/**
 * `#name` as the listener found it: each whole word of the text (not a piece of a comma list,
 * which was not looked up) that Slack knows becomes the channel's link.
 */
function withChannelIds(text: string, channelIds: ReadonlyMap<string, string> | undefined): string {
  if (!channelIds || channelIds.size === 0) return text;
  return text
    .split(" ")
    .map((word) => {
      const name = TYPED_CHANNEL.exec(word)?.[1]?.toLowerCase();
      const id = name === undefined ? undefined : channelIds.get(name);
      return id === undefined ? word : `<#${id}|${name}>`;
    })
    .join(" ");
}

function readCodes(words: readonly string[]): AlertCode[] | GrammarError {
  const codes: AlertCode[] = [];
  let everything = false;
  for (const word of words) {
    const key = word.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
    // Every kind, including kinds a later fleetbot adds: stored as no filter at all.
    if (key === "all") {
      everything = true;
      continue;
    }
    const found = CODE_BY_KEY.get(key);
    if (!found) {
      const near = closestWord(key, [...CODE_BY_KEY.keys()]);
      const nearCode = near ? CODE_BY_KEY.get(near) : undefined;
      return fail(
        { code: "notAnAlertCode", given: word, ...(nearCode ? { suggestion: nearCode } : {}) },
        `/fleet alerts subscribe ${nearCode ?? "Error OldData"}`,
        nearCode ? { suggestion: nearCode } : {},
      );
    }
    if (!codes.includes(found)) codes.push(found);
  }
  if (!everything) return codes;
  // `all` alone stores no filter (every transport kind, later ones too). With vehicle kinds it
  // names every transport code beside them: vehicle kinds are opt-in, so no filter would drop them.
  const vehicle = codes.filter((c) => (VEHICLE_CODES as readonly string[]).includes(c));
  return vehicle.length === 0 ? [] : [...TRANSMISSION_ALERT_CODES, ...OTHER_ALERT_CODES, ...vehicle];
}

function unknownAlertsSubcommand(subRaw: string, sub: string): GrammarError {
  const near = closestWord(sub, ["subscribe", "unsubscribe", "list"]);
  return fail(
    {
      code: "unknownAlertsSubcommand",
      given: `/fleet alerts ${subRaw}`,
      ...(near ? { suggestion: `/fleet alerts ${near}` } : {}),
    },
    near === "subscribe"
      ? "/fleet alerts subscribe"
      : near === "unsubscribe"
        ? "/fleet alerts unsubscribe"
        : "/fleet alerts list",
    near ? { suggestion: near } : {},
  );
}

/** The text after `/fleet alerts`. */
/** `alerts`' subcommands in Romanian (folded: no case, no diacritics): `abonează`, `dezabonează`, `listă`. */
const ROMANIAN_ALERT_SUBCOMMANDS: ReadonlyMap<string, string> = new Map([
  ["aboneaza", "subscribe"],
  ["dezaboneaza", "unsubscribe"],
  ["lista", "list"],
]);

/** The English subcommand a word names (Romanian words run theirs), lower case; other words as typed, lower case. */
function alertSubcommandOf(word: string): string {
  return ROMANIAN_ALERT_SUBCOMMANDS.get(foldWord(word)) ?? word.toLowerCase();
}

export function parseAlerts(args: string, ctx: Pick<FleetGrammarContext, "channelIds">): FleetCommandResult {
  const [subRaw, typed] = firstWord(args);
  const sub = alertSubcommandOf(subRaw);
  let rest = typed;
  let options: AlertSubscribeOptions = {};
  if (sub === "subscribe") {
    const reading = readOptions(typed);
    if (reading.problem) {
      return fail({ code: "alertOption", ...reading.problem }, OPTION_EXAMPLES[reading.problem.option]);
    }
    rest = reading.rest;
    options = reading.options;
  }
  if (sub === "subscribe" || sub === "unsubscribe") rest = withChannelIds(rest, ctx.channelIds);
  const tokens = rest.match(/[^\s,]+/g) ?? [];
  const channels: ChannelRef[] = [];
  const words: string[] = [];
  for (const token of tokens) {
    const channel = readChannel(token);
    if (channel) channels.push(channel);
    else if (token.startsWith("#") || token.startsWith("<#"))
      return fail({ code: "notAChannel", given: token }, "/fleet alerts subscribe Error OldData");
    else words.push(token);
  }
  if (channels.length > 1) {
    return fail(
      { code: "oneChannel" },
      sub === "unsubscribe" ? "/fleet alerts unsubscribe" : "/fleet alerts subscribe Error",
    );
  }
  const channel = channels[0];
  switch (sub) {
    case "":
    case "list":
      if (rest !== "")
        return fail({ code: "takesNothing", command: "/fleet alerts list" }, "/fleet alerts list");
      return { ok: true, kind: "alerts-list" };
    case "unsubscribe":
      if (words.length > 0) {
        return fail({ code: "unsubscribeOnlyChannel", given: words.join(" ") }, "/fleet alerts unsubscribe");
      }
      return channel
        ? { ok: true, kind: "alerts-unsubscribe", channel }
        : { ok: true, kind: "alerts-unsubscribe" };
    case "subscribe": {
      const codes = readCodes(words);
      if (!Array.isArray(codes)) return codes;
      const refused = watchProblem(codes, options);
      if (refused) return refused;
      return channel
        ? { ok: true, kind: "alerts-subscribe", channel, codes, options }
        : { ok: true, kind: "alerts-subscribe", codes, options };
    }
    default:
      return unknownAlertsSubcommand(subRaw, sub);
  }
}
