/**
 * The slash-command grammar of fleetbot: one pure parser for `/fleet` and `/etransport`, periods,
 * UITs and vehicle references, plus pure resolution of references against a vehicle list.
 * No I/O: every function depends only on its arguments.
 */
import { parseEtransportCommand } from "./etransport.js";
import { parseFleetCommand } from "./fleet.js";
import type { EtransportCommandResult, FleetCommandResult, GrammarContext, GrammarError } from "./types.js";

export { type AlertOptionProblem, alertChannelChange, alertOptions } from "./alerts.js";
export {
  DEFAULT_STATUS_IDS,
  ETRANSPORT_ROMANIAN_WORDS,
  parseEtransportCommand,
  STATUS_IDS,
} from "./etransport.js";
export {
  DEFAULT_MIN_MINUTES,
  EXAMPLE_PLATE,
  FLEET_ROMANIAN_WORDS,
  MAX_MIN_MINUTES,
  parseFleetCommand,
} from "./fleet.js";
export {
  etransportUsage,
  etransportUsageExamples,
  fleetUsage,
  fleetUsageExamples,
  helpText,
  type UsageLine,
} from "./help.js";
export { MAX_DAYS, MAX_HOURS, parsePeriod } from "./period.js";
export { SCHEDULE_EXAMPLES, scheduleChange } from "./schedule.js";
export { editDistance } from "./text.js";
export * from "./types.js";
export { EXAMPLE_UIT, normaliseUit, parseUitList, UIT_LENGTH } from "./uit.js";
export {
  isRomanianPlate,
  normalisePlate,
  parseVehicleList,
  parseVehicleRef,
  type ResolvedVehicles,
  resolveVehicle,
  resolveVehicles,
  type VehicleLike,
  type VehicleResolution,
} from "./vehicles.js";

export type CommandLineResult =
  | { command: "fleet"; result: FleetCommandResult }
  | { command: "etransport"; result: EtransportCommandResult }
  | { command: "unknown"; result: GrammarError };

/** Parse a whole line as typed, `/fleet …` or `/etransport …` (used for examples and tests). */
export function parseCommandLine(line: string, ctx: GrammarContext): CommandLineResult {
  const m = /^\s*\/(fleet|etransport)(?:\s+([\s\S]*))?$/i.exec(line);
  const text = m?.[2] ?? "";
  if (m?.[1]?.toLowerCase() === "fleet") return { command: "fleet", result: parseFleetCommand(text, ctx) };
  if (m?.[1]?.toLowerCase() === "etransport") {
    return { command: "etransport", result: parseEtransportCommand(text, ctx) };
  }
  return {
    command: "unknown",
    result: {
      ok: false,
      kind: "error",
      problem: { code: "notACommand" },
      example: "/fleet help",
    },
  };
}
