import { z } from "zod";
import type { FleetClient, FleetSession } from "../../fleet/client.js";
import type { Vehicle } from "../../fleet/schemas.js";
import {
  type AnyReportEntry,
  DEFAULT_MIN_MINUTES,
  plannedCalls,
  REPORT_CATALOGUE,
  type ReportRun,
  reportVehicle,
  VEHICLE_REPORTS,
  type VehicleReportName,
  type VehicleReportResult,
} from "../../reports/catalogue.js";
import { describeResolutionProblem, resolveVehicles } from "../../reports/vehicleRefs.js";
import type { KindHandler } from "../kinds.js";
import type { VehicleCache } from "../vehicleCache.js";
import { zoneNoteField } from "./userZone.js";

export { reportVehicle, VEHICLE_REPORTS, type VehicleReportName, type VehicleReportResult };

const reportNames = z.custom<VehicleReportName>(
  (value) => typeof value === "string" && (VEHICLE_REPORTS as readonly string[]).includes(value),
  { message: "not a vehicle report" },
);

const vehicleRefSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("all"), raw: z.string(), normalised: z.literal("ALL") }),
  z.object({ type: z.literal("id"), raw: z.string(), normalised: z.string(), vehicleId: z.number().int() }),
  z.object({ type: z.literal("plate"), raw: z.string(), normalised: z.string() }),
  z.object({ type: z.literal("name"), raw: z.string(), normalised: z.string() }),
]);

export const vehicleReportParams = z.object({
  report: reportNames,
  refs: z.array(vehicleRefSchema).default([]),
  filter: z.string().optional(),
  /** `text`: the period as typed (empty: the default, today), re-read when the task settles the zone. */
  period: z
    .object({ fromMs: z.number(), toMs: z.number(), label: z.string(), text: z.string().optional() })
    .optional(),
  minMinutes: z.number().int().min(1).optional(),
  /** The invoking user's zone: texts and files are written in it. */
  timeZone: z.string(),
  ...zoneNoteField,
});
export type VehicleReportParams = z.infer<typeof vehicleReportParams>;

export interface VehicleDataDeps {
  client: FleetClient;
  vehicles: VehicleCache<Vehicle>;
  /** FLEET_MIN_INTERVAL_MS: no fresher vehicle list can be had sooner. */
  intervalMs: number;
  now?: () => number;
}

const asLike = (vehicle: Vehicle) => ({ ...reportVehicle(vehicle), vehicleUId: vehicle.vehicleUId, vehicle });

/**
 * Every /fleet report as one task kind, driven by the report catalogue. The vehicle list
 * comes from the account's cache (positions no older than one interval; plates and names
 * within the cache's time to live); a name the list does not know refreshes it once before
 * the user is told.
 */
export function vehicleReportHandler(deps: VehicleDataDeps): KindHandler<"vehicle-report", FleetSession> {
  const now = deps.now ?? Date.now;
  return {
    kind: "vehicle-report",
    params: vehicleReportParams,
    async run(ctx) {
      const p = ctx.params;
      const report: AnyReportEntry = REPORT_CATALOGUE[p.report];
      // A snapshot report wants positions no older than one interval.
      const snapshot = report.period === "none";
      const estimated = 1 + plannedCalls(deps.client, report, [], p.period);
      ctx.progress(0, estimated);
      // Fetched with this task's own session: another user's stored password must not matter.
      let list = await deps.vehicles.get(ctx.session, ctx.call, snapshot ? deps.intervalMs : undefined);
      let resolved = resolveVehicles(p.refs, list.vehicles.map(asLike));
      if (!resolved.ok && now() - list.fetchedAt > deps.intervalMs) {
        // A vehicle the list does not know may be new: one fresh list before saying so.
        list = await deps.vehicles.get(ctx.session, ctx.call, 0);
        resolved = resolveVehicles(p.refs, list.vehicles.map(asLike));
      }
      if (!resolved.ok) {
        return {
          kind: "resolution",
          problems: resolved.problems.map(
            (r) => describeResolutionProblem(r) ?? "A vehicle could not be found.",
          ),
        };
      }
      const chosen = report.vehicles === "filter" ? list.vehicles : resolved.vehicles.map((v) => v.vehicle);
      if (report.vehicles === "one" && chosen.length === 0) {
        return { kind: "resolution", problems: ["Name one vehicle."] };
      }
      const total =
        1 +
        plannedCalls(
          deps.client,
          report,
          chosen.map((v) => v.vehicleId),
          p.period,
        );
      ctx.progress(1, total);
      const run: ReportRun = {
        session: ctx.session,
        call: ctx.call,
        vehicles: chosen,
        period: p.period ? { ...p.period, timeZone: p.timeZone } : undefined,
        filter: p.filter,
        minMinutes: p.minMinutes ?? DEFAULT_MIN_MINUTES,
        nowMs: now(),
        // A refused call (learned limit) re-plans the rest: the total grows with it.
        onProgress: (done, calls) => ctx.progress(1 + done, calls === undefined ? total : 1 + calls),
      };
      return report.run(run);
    },
  };
}
