/**
 * `/fleet schedule <report> <recurrence> at <HH:MM> [in #channel]`, `/fleet schedules`,
 * `/fleet schedule remove <id>` (Romanian `programează … în fiecare zi la 07:30`, `programări`,
 * `programează șterge <id>`): the one reading of the schedule commands. Pure.
 *
 * Read from the end: the channel (`in #dispecerat`, `în #dispecerat`), the time (`at 07:30`, `la
 * 7:30`), the recurrence (`every day|weekday|<weekday>|month on <day>`, `în fiecare zi`, `în zilele
 * lucrătoare`, `în fiecare <zi a săptămânii>`, `în fiecare lună pe <zi>`; `daily`, `zilnic`); what
 * is left is the report command, read by the report grammar as if typed after `/fleet`.
 */
import type { Recurrence } from "../platform/store/contract/schedules.js";
import { foldWord, squeeze } from "./text.js";
import type {
  ChannelRef,
  FleetCommand,
  FleetCommandResult,
  FleetGrammarContext,
  GrammarError,
  GrammarProblem,
} from "./types.js";

/** What the schedule commands read to (FleetCommand's `schedule-*` kinds). */
export type ScheduleCommand = Extract<
  FleetCommand,
  { kind: "schedule-add" | "schedule-list" | "schedule-remove" }
>;

export const SCHEDULE_EXAMPLES = {
  add: "/fleet schedule fuel all yesterday every day at 07:30",
  weekly: "/fleet schedule stops all last week every monday at 08:00",
  monthly: "/fleet schedule fuel all last month every month on 1 at 08:00",
  remove: "/fleet schedule remove 7K2Q",
  list: "/fleet schedules",
} as const;

const WEEKDAYS: ReadonlyMap<string, number> = new Map([
  ["sunday", 0],
  ["monday", 1],
  ["tuesday", 2],
  ["wednesday", 3],
  ["thursday", 4],
  ["friday", 5],
  ["saturday", 6],
  // Romanian, folded (no diacritics).
  ["duminica", 0],
  ["luni", 1],
  ["marti", 2],
  ["miercuri", 3],
  ["joi", 4],
  ["vineri", 5],
  ["sambata", 6],
]);

function fail(problem: GrammarProblem, example: string): GrammarError {
  return { ok: false, kind: "error", problem, example };
}

const CHANNEL = /^(?:<#([CG][A-Z0-9]{2,})(?:\|([^>]*))?>|#([a-z0-9][a-z0-9._-]{0,79}))$/i;

/** `at 07:30` / `la 7.30` → "07:30"; undefined when the words are not a time of day. */
function readTime(word: string): string | undefined {
  const m = /^(\d{1,2})[:.](\d{2})$/.exec(word);
  if (!m) return undefined;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  if (hour > 23 || minute > 59) return undefined;
  return `${String(hour).padStart(2, "0")}:${m[2]}`;
}

/** The recurrence at the end of the folded words, and how many words it took. */
function readRecurrence(
  folded: readonly string[],
  time: string,
): { recurrence: Recurrence; words: number } | "day" | undefined {
  const end = (n: number) => folded.slice(-n);
  const is = (n: number, ...words: string[]) => end(n).join(" ") === words.join(" ");
  if (is(2, "every", "day") || is(1, "daily") || is(3, "in", "fiecare", "zi") || is(1, "zilnic"))
    return {
      recurrence: { every: "day", time },
      words: is(1, "daily") || is(1, "zilnic") ? 1 : is(2, "every", "day") ? 2 : 3,
    };
  if (is(2, "every", "weekday") || is(3, "in", "zilele", "lucratoare"))
    return { recurrence: { every: "weekday", time }, words: is(2, "every", "weekday") ? 2 : 3 };
  const [a2, b2] = end(2);
  if (a2 === "every" && b2 !== undefined && WEEKDAYS.has(b2))
    return { recurrence: { every: "week", weekday: WEEKDAYS.get(b2)!, time }, words: 2 };
  const [a3, b3, c3] = end(3);
  if (a3 === "in" && b3 === "fiecare" && c3 !== undefined && WEEKDAYS.has(c3))
    return { recurrence: { every: "week", weekday: WEEKDAYS.get(c3)!, time }, words: 3 };
  // every month on <day> / în fiecare lună pe <day>
  const [m1, m2, m3, m4] = end(4);
  const monthly =
    (m1 === "every" && m2 === "month" && m3 === "on") || (m1 === "fiecare" && m2 === "luna" && m3 === "pe");
  if (monthly && m4 !== undefined) {
    const day = Number(m4);
    if (!Number.isInteger(day) || day < 1 || day > 31 || !/^\d+$/.test(m4)) return "day";
    const words = m1 === "fiecare" && folded.at(-5) === "in" ? 5 : 4;
    return { recurrence: { every: "month", day, time }, words };
  }
  return undefined;
}

export function parseSchedule(
  args: string,
  ctx: FleetGrammarContext,
  parseReport: (text: string, ctx: FleetGrammarContext) => FleetCommandResult,
): ScheduleCommand | GrammarError {
  const words = squeeze(args).split(" ").filter(Boolean);
  const first = foldWord(words[0] ?? "");
  if (first === "" || first === "list" || first === "lista") {
    if (words.length > 1)
      return fail({ code: "takesNothing", command: "/fleet schedules" }, SCHEDULE_EXAMPLES.list);
    return { ok: true, kind: "schedule-list" };
  }
  if (first === "remove" || first === "delete" || first === "sterge") {
    const id = words[1] ?? "";
    if (words.length !== 2 || !/^[0-9A-Za-z]{3,8}$/.test(id))
      return fail(
        { code: "scheduleCommand", part: "id", given: words.slice(1).join(" ") },
        SCHEDULE_EXAMPLES.remove,
      );
    return { ok: true, kind: "schedule-remove", id: id.toUpperCase() };
  }
  const rest = [...words];
  let channel: ChannelRef | undefined;
  const last = rest.at(-1) ?? "";
  const channelMatch = CHANNEL.exec(last);
  if (channelMatch && ["in", "în"].includes((rest.at(-2) ?? "").toLowerCase())) {
    rest.splice(-2, 2);
    // A typed `#name` gets the id the listener looked up (none: "", answered as unknown).
    const name = (channelMatch[3] ?? "").toLowerCase();
    channel = channelMatch[1]
      ? { id: channelMatch[1], ...(channelMatch[2] ? { name: channelMatch[2] } : {}) }
      : { id: ctx.channelIds?.get(name) ?? "", name };
  }
  const time = readTime(rest.at(-1) ?? "");
  const atWord = foldWord(rest.at(-2) ?? "");
  if (!time || (atWord !== "at" && atWord !== "la"))
    return fail(
      { code: "scheduleCommand", part: "time", given: rest.slice(-2).join(" ") },
      SCHEDULE_EXAMPLES.add,
    );
  rest.splice(-2, 2);
  const recurrence = readRecurrence(rest.map(foldWord), time);
  if (recurrence === "day")
    return fail(
      { code: "scheduleCommand", part: "day", given: rest.slice(-1).join(" ") },
      SCHEDULE_EXAMPLES.monthly,
    );
  if (!recurrence)
    return fail(
      { code: "scheduleCommand", part: "recurrence", given: rest.slice(-3).join(" ") },
      SCHEDULE_EXAMPLES.add,
    );
  rest.splice(-recurrence.words, recurrence.words);
  const report = rest.join(" ");
  if (report === "") return fail({ code: "scheduleCommand", part: "report" }, SCHEDULE_EXAMPLES.add);
  const parsed = parseReport(report, ctx);
  // A first word that is no command at all: said as "not a report", not with /fleet's whole help.
  if (!parsed.ok && parsed.problem.code === "unknownSubcommand")
    return fail({ code: "scheduleCommand", part: "notAReport", given: report }, SCHEDULE_EXAMPLES.add);
  if (!parsed.ok) return parsed;
  if (parsed.kind !== "report")
    return fail({ code: "scheduleCommand", part: "notAReport", given: report }, SCHEDULE_EXAMPLES.add);
  return {
    ok: true,
    kind: "schedule-add",
    report,
    recurrence: recurrence.recurrence,
    ...(channel ? { channel } : {}),
  };
}

/**
 * Whether the text is a schedule being made (`/fleet schedule … at 07:30 [in #name]`, Romanian
 * too): its listener asks Slack (the channel, the author's zone) and answers after the ack. The
 * typed `#name` is returned for the listener to look up (FleetGrammarContext.channelIds).
 */
export function scheduleChange(text: string): { typedChannels: string[] } | undefined {
  const words = squeeze(text).split(" ").filter(Boolean);
  const sub = foldWord(words[0] ?? "");
  if (!["schedule", "schedules", "programeaza", "programari"].includes(sub)) return undefined;
  const next = foldWord(words[1] ?? "");
  if (["", "list", "lista", "remove", "delete", "sterge"].includes(next)) return undefined;
  const typed = /^#([a-z0-9][a-z0-9._-]{0,79})$/i.exec(words.at(-1) ?? "")?.[1];
  return { typedChannels: typed ? [typed.toLowerCase()] : [] };
}
