/**
 * English, the help (`/fleet help`, `/etransport help`, the App Home's command list) and the App
 * Home. Each command's description is keyed by its subcommand; a report's by the report's name
 * (src/features/reports/catalogue.ts keeps only its codes and data). The command words themselves are the
 * grammar's (src/commands): both languages' words always work.
 */
import type { Section } from "../section.js";

export const help = {
  /** The help message's notification text. */
  title: () => "fleetbot commands",
  /** A command list's heading: `command` is "/fleet" or "/etransport". */
  heading: ({ command }: { command: string }) =>
    `*${command}* _(in brackets: the Romanian word, also without diacritics)_`,
  /** Before a line's example. */
  example: () => "e.g.",
  // The placeholders of a command's syntax (written inside `<…>` or `[…]`).
  argVehicle: () => "vehicle",
  argVehicles: () => "vehicles",
  argPeriod: () => "period",
  argMinutes: () => "minutes",
  argChannel: () => "channel",
  argCodes: () => "codes",
  argPlates: () => "plates",
  argZones: () => "zones",
  argName: () => "name",
  argSearch: () => "search",
  /** The list's status filters, as typed (the grammar reads both languages' words). */
  listFilters: () => "pending|active|paused|completed|all",
  argFilter: () => "filter",
  argReport: () => "report",
  argId: () => "id",
  /** A schedule's recurrence and time, as typed (`/fleet schedule`; the grammar reads both languages'). */
  scheduleWhen: () => "every day|weekday|<weekday>|month on <day> at <HH:MM>",
  /** The word before a schedule's channel (`in #channel`). */
  scheduleIn: () => "in",
  /** The word that removes a schedule (`/fleet schedule remove <id>`). */
  scheduleRemoveWord: () => "remove",

  help: () => "this list",
  login: () => "link your fleet account (opens a form)",
  loginWorkspace: () =>
    "the workspace's fleet account, for everyone who linked none (installed with Add to Slack: the installer or an admin)",
  logout: () => "unlink your fleet account",
  whoami: () => "the fleet account your commands use",
  language: () => "the language fleetbot speaks to you: `ro` (română) or `en` (English)",
  report: () => "a form to build any report above",
  alertsSubscribe: () =>
    "post transport alerts in a channel (all codes when none given); `min=15` posts a problem only once it lasted 15 minutes, `exclude=OldData,Error` leaves codes out, `vehicles=B-123-ABC,CJ-10-XYZ` keeps to those vehicles, `stale=45` warns when no position was sent for 45 minutes (default 30, `stale=0` off)",
  alertsVehicle: () =>
    "watch the vehicles themselves (opt-in, by name): power cut below `volts=` (6 V), arrival in a zone (`zones=`: every zone), idling for `idle=` minutes (20), speed over `speed=` (90 km/h), no position for `offline=` minutes (60), moved with the engine off, moving outside `hours=` (06:00-22:00), a reefer outside `temp=` for `tempfor=` minutes (15)",
  alertsUnsubscribe: () => "stop alerts in a channel",
  zones: () => "the workspace's zones, for `Zone` alerts",
  zonesAdd: () => "add a zone: its centre and radius in metres (default 300, 50–50,000)",
  zonesAddAt: () => "add a zone centred where a vehicle is now",
  zonesRemove: () => "remove a zone",
  alertsList: () => "channels that receive alerts",
  queue: () => "your queued and running requests",
  schedule: () =>
    "post a report in a channel on a schedule (the one you type it in, or `in #channel`), run as your fleet account: the report command as you would type it, its period read at each run (`yesterday`: the day before the run), the time in your Slack time zone; `every weekday` is Monday to Friday, and a month without the day runs on its last day",
  schedules: () =>
    "this channel's scheduled reports and yours elsewhere, with Pause or Resume, Run now and Remove",
  scheduleRemove: () =>
    "remove a schedule (its id is in `/fleet schedules`): yours, or one paused because its author left the channel or unlinked",

  // The reports, by name.
  vehicles: () => "vehicles with their last position",
  where: () => "last position with a map link",
  route: () => "track summary with GPX and CSV files",
  stops: ({ defaultMinutes }: { defaultMinutes: number }) =>
    `stops of at least \`min\` minutes (default ${defaultMinutes}), CSV file`,
  fuel: () => "fuel consumption with totals",
  refills: () => "refuelling and possible fuel theft",
  temps: () => "temperature and humidity summary with a chart",

  etransportNew: () => "create a transport (opens a form)",
  etransportList: () => "transports with buttons (default: pending, active and paused)",
  etransportStartPauseEnd: () => "start, pause or end transports",
  etransportEdit: () => "change a transport (opens a form)",
  etransportRemove: () => "delete a transport, after you confirm",
  etransportHistory: () =>
    "who created, changed, started, paused, ended or removed a transport, when, and the service's answer",

  vehiclesNote: () =>
    "*Vehicles*: registration number (`b 123 abc` = `B-123-ABC`), name, or `#&lt;id&gt;`; several separated by commas; `all` for every vehicle",
  periodsNote: () =>
    "*Periods* (your time zone): `today` (default), `yesterday`, `last 12h`, `last 3d`, `this week`, `last week`, `this month`, `last month`, `2026-11-03` or `03.11.2026`, `2026-11-03..2026-11-05`, `2026-11-03 08:00..2026-11-03 17:00`; in Romanian too: `azi`, `ieri`, `alaltăieri`, `săptămâna trecută`, `luna asta`, `luna trecută`, `ultimele 3 zile`, `ultimele 12 ore`",
  alertCodesNote: () =>
    "*Alert codes*: `Error`, `OldData`, `NoGPSCoordinates`, `NotInRomania`, `MissingETransportConfiguration`, `WithoutTransmission`, `expiry` (UIT validity ending), `changerequest` (vehicle change failed), `notstarted` (Pending past its start), `Vanished` (no longer listed, not completed: maybe in Error, which the service hides), `Stalled` (no position sent for `stale=` minutes, default 30; `stale=0` off), or `all` (the default)",
  vehicleKindsNote: () =>
    "*Vehicle alerts* (only when named): `PowerCut` (power below `volts=`, 6 V), `Zone` (arrives in a zone of `/fleet zones`; `zones=` names some), `Idle` (engine running, standing `idle=` min, 20), `Speeding` (over `speed=` km/h, 90), `Offline` (no position for `offline=` min, 60), `Towed` (moved with the engine off), `AfterHours` (moving outside `hours=`, 06:00-22:00), `Temperature` (a reefer outside `temp=&lt;min&gt;..&lt;max&gt;` °C for `tempfor=` min, 15); a vehicle in private mode is watched only for `PowerCut` and `Offline`",
  uitNote: () => "*UIT*: 16 letters and digits; dashes and spaces do not matter",

  // The App Home.
  /** `account`: the fleet account's name, escaped for mrkdwn. */
  homeAccountLinked: ({ account }: { account: string }) =>
    `You act as the fleet account *${account}* (linked by you).`,
  homeAccountWorkspace: ({ account }: { account: string }) =>
    `You act as the fleet account *${account}* (the workspace account).`,
  homeNoAccount: () => "You have no fleet account: link yours to use fleetbot.",
  homeLink: () => "Link my fleet account",
  homeUnlink: () => "Unlink my account",
  homeRequests: () => "*Your requests*",
  homeNoRequests: () => "*Your requests*: nothing waiting.",
  /** `example`, `list`: the help's `/fleet schedule` and `/fleet schedules` examples. */
  homeSchedules: ({ example, list }: { example: string; list: string }) =>
    `*Scheduled reports*: \`${example}\` in a channel posts that report there at that time, as your fleet account; \`${list}\` in the channel lists its schedules, with Pause, Run now and Remove.`,
  /** A request's state in the App Home's list. */
  homeTaskState: (state: "queued" | "running" | "done" | "failed" | "cancelled") => state,
  /** How long a request may still take (`duration` from format.ts, or "under a second"). */
  /** `link`: the support page as an mrkdwn link. */
  supportAt: ({ link }: { link: string }) =>
    `Help and support: ${link} · what fleetbot stores and how it is deleted: /privacy on the same site.`,
  supportAsk: () =>
    "Help and support: ask whoever added fleetbot to this workspace. Uninstalling fleetbot deletes everything it stored for the workspace within a minute.",
} satisfies Section;
