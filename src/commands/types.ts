import { BAD_TRANSMISSION_CODES } from "../features/alerts/incidents.js";
import { VEHICLE_ALERT_CODES } from "../features/alerts/vehicleWatch/watches.js";
import type { VehicleReportName } from "../features/reports/catalogue.js";
import type { Language } from "../i18n/language.js";
import type { VehicleWatchOptions } from "../platform/store/contract/alerts.js";
import type { Recurrence } from "../platform/store/contract/schedules.js";
import type { VehicleRef } from "../platform/vehicles/vehicleRefs.js";
import type { PeriodLabel, PeriodLabelCode } from "./periodLabel.js";
import type { GrammarProblem } from "./problems.js";

export type { GrammarProblem, GrammarProblemCode, ProblemOf } from "./problems.js";

export type { PeriodLabel, PeriodLabelCode, VehicleRef };

/** Result types of the slash-command grammar. Every union is discriminated by `kind`; `ok` separates errors. */

/** What every parse needs besides the text: the invoking user's IANA zone and the current instant. */
export interface GrammarContext {
  timeZone: string;
  now: Date;
}

/** A `/fleet` parse may know more: the ids Slack gave for the `#names` typed in an alerts command (alertChannelChange). */
export interface FleetGrammarContext extends GrammarContext {
  /** Channel name (lower case, no `#`) → id; a name not here stays typed, and is refused as no channel. */
  channelIds?: ReadonlyMap<string, string>;
}

/**
 * A wrong argument. `problem` says what is wrong, as a code and its data (grammarErrorMessage of
 * src/commands/views/grammarError.ts writes it); `example` is a full command line (starting with
 * `/fleet` or `/etransport`, in English command words) that parses OK with the same context.
 */
export interface GrammarError {
  ok: false;
  kind: "error";
  problem: GrammarProblem;
  example: string;
  /** Closest subcommand or code when the user mistyped one. */
  suggestion?: string;
  /** True when the caller should show the command list under the message (unknown subcommand). */
  showHelp?: boolean;
}

export type PeriodKind =
  | "today"
  | "yesterday"
  | "hours"
  | "days"
  | "this-week"
  | "last-week"
  | "this-month"
  | "last-month"
  | "date"
  | "dates"
  | "datetimes";

/**
 * A reporting period: real instants, `from` inclusive and `to` EXCLUSIVE. Whole days end at the
 * first instant of the next day; `to` never lies after `now` (a period reaching into the future is
 * cut at `now`).
 */
export interface Period {
  kind: PeriodKind;
  from: Date;
  to: Date;
  /** What was asked for, as data (`periodText` of src/i18n/periodText.ts writes it). */
  label: PeriodLabelCode;
  /** The period text as typed (squeezed); empty when the default (`today`) was used. */
  text: string;
  /** True when `to` was cut at `now`. */
  clipped: boolean;
}

export type PeriodResult = { ok: true; kind: "period"; period: Period } | GrammarError;

/** A channel given to `/fleet alerts`; absent means the channel the command was typed in. */
export interface ChannelRef {
  id: string;
  name?: string;
}

/** The transmission codes one can subscribe to: exactly those that open an alert. */
export const TRANSMISSION_ALERT_CODES = BAD_TRANSMISSION_CODES;
/**
 * `expiry`: a UIT's validity ends soon or has ended; `changerequest`: a vehicle change request
 * failed; `notstarted`: a Pending transport past its planned start; `Vanished`: no longer listed
 * and not completed (maybe in Error, which the service hides); `Stalled`: no position sent for
 * the subscription's `stale=` minutes.
 */
export const OTHER_ALERT_CODES = ["expiry", "changerequest", "notstarted", "Vanished", "Stalled"] as const;
/** The vehicle kinds (opt-in): PowerCut, Zone, Idle, Speeding, Offline, Towed, AfterHours, Temperature. */
export const VEHICLE_CODES = [
  VEHICLE_ALERT_CODES.powercut,
  VEHICLE_ALERT_CODES.zone,
  VEHICLE_ALERT_CODES.idle,
  VEHICLE_ALERT_CODES.speeding,
  VEHICLE_ALERT_CODES.offline,
  VEHICLE_ALERT_CODES.towed,
  VEHICLE_ALERT_CODES.afterhours,
  VEHICLE_ALERT_CODES.temperature,
] as const;
export const ALERT_CODES = [...TRANSMISSION_ALERT_CODES, ...OTHER_ALERT_CODES, ...VEHICLE_CODES] as const;
export type AlertCode = (typeof ALERT_CODES)[number];

/** The options of `/fleet alerts subscribe` besides its codes, as AlertSubscriptions.subscribe takes them. */
export interface AlertSubscribeOptions {
  /** `min=<minutes>`: how long a problem must last before it is posted. */
  minDurationMinutes?: number;
  /** `stale=<minutes>`: no position sent this long raises a stalled alert; 0 turns it off. */
  staleMinutes?: number;
  /** `exclude=<codes>`, as typed: the subscription's store checks them. */
  exclude?: string[];
  /** `vehicles=<plates>`. */
  vehicles?: string[];
  /** `lang=ro|en`: the language of the channel's alerts; absent, the workspace default. */
  language?: Language;
  /** The vehicle kinds' options (`volts=`, `zones=`, `idle=`, `speed=`, `offline=`, `hours=`, `temp=`, `tempfor=`). */
  watch?: VehicleWatchOptions;
}

/** A vehicle report's name: the report catalogue's (src/features/reports/catalogue.ts). */
export type ReportName = VehicleReportName;

export interface ReportPrefill {
  vehicles?: VehicleRef[];
  period?: Period;
  minMinutes?: number;
}

export type FleetCommand =
  | { ok: true; kind: "help"; topic?: string }
  | { ok: true; kind: "login"; workspace?: true }
  | { ok: true; kind: "logout" }
  | { ok: true; kind: "whoami" }
  | { ok: true; kind: "queue" }
  /** `/fleet zones`: list, add (at a centre or at a vehicle's position, as typed) or remove the workspace's zones. */
  | { ok: true; kind: "zones-list" }
  | {
      ok: true;
      kind: "zones-add";
      name: string;
      centre?: { latitude: number; longitude: number };
      /** The vehicle whose position is the centre, as typed (resolved by the listener). */
      vehicle?: string;
      radiusMeters: number;
    }
  | { ok: true; kind: "zones-remove"; name: string }

  /**
   * A vehicle report, as the catalogue entry of `report` asks: one vehicle or several (`all`
   * alone when given), a period unless it is a snapshot, `minMinutes` when it takes `min=`,
   * `filter` (no vehicles) for the vehicle list.
   */
  | ReportCommand
  | {
      ok: true;
      kind: "alerts-subscribe";
      channel?: ChannelRef;
      /** Empty: every code. */
      codes: AlertCode[];
      options: AlertSubscribeOptions;
    }
  | { ok: true; kind: "alerts-unsubscribe"; channel?: ChannelRef }
  | { ok: true; kind: "alerts-list" }
  /**
   * `/fleet language [ro|en]`, `/fleet language workspace ro|en` (`limba`): the user's language, or
   * the workspace default; no `language` = show the one in use (answered by listeners/language.ts).
   */
  | { ok: true; kind: "language"; scope: "user" | "workspace"; language?: Language }
  /**
   * `/fleet schedule <report> <recurrence> at <HH:MM> [in #channel]`: the report command as typed
   * after `/fleet` (its period read again at each run), its recurrence, the channel when another.
   */
  | { ok: true; kind: "schedule-add"; report: string; recurrence: Recurrence; channel?: ChannelRef }
  /** `/fleet schedules`: the channel's schedules, and the user's own. */
  | { ok: true; kind: "schedule-list" }
  | { ok: true; kind: "schedule-remove"; id: string }
  /**
   * Arguments missing: open a modal. `report: "report"` is the modal that builds any report;
   * the others open that report's form, prefilled with whatever was typed and understood.
   */
  | { ok: true; kind: "modal"; report: ReportName | "report"; prefill?: ReportPrefill };

export type FleetCommandResult = FleetCommand | GrammarError;

export interface ReportCommand {
  ok: true;
  kind: "report";
  report: ReportName;
  vehicles: VehicleRef[];
  period?: Period;
  minMinutes?: number;
  filter?: string;
}

export type TransportStatusFilter = "default" | "pending" | "active" | "paused" | "completed" | "all";

export type EtransportCommand =
  | { ok: true; kind: "help" }
  /** Opens the create form; `uit` prefills it when one was typed. */
  | { ok: true; kind: "new"; uit?: string }
  | {
      ok: true;
      kind: "list";
      /** The words typed (`default` when none). */
      filters: TransportStatusFilter[];
      /** load-transports statusIds, ascending, no duplicates. */
      statusIds: number[];
      search?: string;
    }
  | { ok: true; kind: "start"; uits: string[] }
  | { ok: true; kind: "pause"; uits: string[] }
  | { ok: true; kind: "end"; uits: string[] }
  | { ok: true; kind: "edit"; uit: string }
  | { ok: true; kind: "remove"; uit: string }
  /** The audit trail of one transport (the user's fleet account's entries only). */
  | { ok: true; kind: "history"; uit: string }
  /** Arguments missing: open a form that asks for the transport(s). */
  | { ok: true; kind: "modal"; form: "start" | "pause" | "end" | "edit" | "remove" };

export type EtransportCommandResult = EtransportCommand | GrammarError;
