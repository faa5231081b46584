import type { VehicleLike, VehicleResolution } from "../platform/vehicles/vehicleRefs.js";

/** The options of `alerts subscribe` whose value is read (the lists are taken as typed). */
export type AlertOptionName =
  | "min"
  | "stale"
  | "lang"
  | "volts"
  | "idle"
  | "speed"
  | "offline"
  | "hours"
  | "temp"
  | "tempfor"
  | "zones";

/**
 * What is wrong with a command, as a code and its data (no words): src/commands/views/grammarError.ts
 * writes it in the reader's language from the `grammar` catalogue. Text fields are what the user
 * typed or fleetbot's own command text, shown as inline code; a `command` field is a command line
 * (`/fleet stops`) written in the reader's command words.
 */
export type GrammarProblem =
  // ---------- periods ----------
  | { code: "notADate"; given: string; example: string }
  | { code: "noSuchMonth"; given: string; month: number }
  | { code: "noSuchDay"; given: string; month: number; year: number; days: number }
  | { code: "tooFarBack"; given: string }
  | { code: "notATime"; given: string }
  | { code: "notAStart"; given: string; example: string }
  | { code: "notAnEnd"; given: string; example: string }
  | { code: "notStarted"; given: string }
  | { code: "skippedByClocks"; given: string }
  | { code: "rangeSeparator"; given: string }
  | { code: "endsBeforeStart"; given: string; timed: boolean }
  | { code: "tooLong"; given: string; maxDays: number }
  | { code: "lastNeedsUnit"; given: string; count: number }
  | { code: "lastNotANumber"; given: string }
  | { code: "countOutOfRange"; given: string; hours: boolean; max: number }
  | { code: "timeNeedsEnd"; given: string; example: string }
  | { code: "notAPeriod"; given: string; yesterday: string; range: string }
  // ---------- /fleet reports ----------
  | { code: "optionTwice"; option: string }
  | { code: "strayWords"; given: string }
  | { code: "periodFirst"; given: string }
  | { code: "minNotWhole"; given: string }
  | { code: "minOutOfRange"; given: string; max: number }
  | { code: "minOnlyForStops" }
  | { code: "unknownOption"; option: string; command: string; onlyMin: boolean }
  | { code: "oneVehicleNotAll"; command: string; where: boolean }
  | { code: "oneVehicleMany"; command: string; given: readonly string[] }
  | { code: "snapshotNoPeriod"; command: string }
  | { code: "reportAfterWord"; given: string }
  | { code: "vehicleWithoutSubcommand"; vehicle: string }
  | { code: "notAVehicleId"; given: string }
  | { code: "notAVehicle"; given: string }
  | {
      code: "vehiclesNotFound";
      problems: readonly Exclude<VehicleResolution<VehicleLike>, { kind: "found" | "all" }>[];
    }
  // ---------- /fleet alerts, language, login ----------
  | { code: "notAChannel"; given: string }
  | { code: "oneChannel" }
  | { code: "takesNothing"; command: string }
  | { code: "unsubscribeOnlyChannel"; given: string }
  | { code: "notAnAlertCode"; given: string; suggestion?: string }
  /** An option of `alerts subscribe` whose value cannot be read; `value` as typed. */
  | { code: "alertOption"; option: AlertOptionName; value: string }
  /** A vehicle kind's option given without the kind (`speed=100` without `Speeding`). */
  | { code: "watchOptionWithoutKind"; option: string; kind: string }
  /** `/fleet zones` that cannot be read: which part, as typed. */
  | {
      code: "zoneCommand";
      problem: "name" | "nameCharacters" | "where" | "coordinates" | "radius" | "subcommand";
      given?: string;
      suggestion?: string;
    }
  /** `/fleet schedule` that cannot be read: which part, as typed. */
  | {
      code: "scheduleCommand";
      part: "time" | "recurrence" | "day" | "report" | "notAReport" | "id";
      given?: string;
    }
  /** `Temperature` without `temp=<min>..<max>`: a chilled load and a frozen one need opposite bands. */
  | { code: "temperatureNeedsBand" }
  | { code: "unknownAlertsSubcommand"; given: string; suggestion?: string }
  | { code: "oneLanguage"; command: string }
  | { code: "workspaceLanguageMissing" }
  | { code: "notALanguage"; given: string }
  | { code: "loginTakesNothing" }
  // ---------- both commands ----------
  /** `given`: the command as typed (`/fleet stpos`); `suggestion`: the near word, as found. */
  | {
      code: "unknownSubcommand";
      root: "/fleet" | "/etransport";
      given: string;
      suggestion?: string;
      pauseToo?: boolean;
    }
  | { code: "notACommand" }
  // ---------- /etransport ----------
  | { code: "uitLength"; given: string; length: number }
  | { code: "uitCharacters"; given: string }
  | { code: "oneTransport"; command: string; count: number }
  | { code: "historyNeedsUit" }
  | { code: "historyOne"; count: number }
  | { code: "uitWithoutVerb"; uit: string };

export type GrammarProblemCode = GrammarProblem["code"];
export type ProblemOf<C extends GrammarProblemCode> = Extract<GrammarProblem, { code: C }>;
