import { z } from "zod";
import type { FleetClient, FleetSession } from "../../fleet/client.js";
import type { Vehicle } from "../../fleet/schemas.js";
import {
  type FuelReport,
  fuelReport,
  type PositionReport,
  positionReport,
  type RefillsReport,
  type ReportPeriod,
  type ReportVehicle,
  type RouteReport,
  refillsReport,
  routeReport,
  type StopsReport,
  stopsReport,
  type TemperatureReport,
  temperatureReport,
  type VehicleListReport,
  vehicleListReport,
} from "../../reports/index.js";
import { describeResolutionProblem, resolveVehicles } from "../../slack/grammar/vehicles.js";
import type { TaskContext, TaskHandler } from "../runner.js";
import type { VehicleCache } from "../vehicleCache.js";

export const VEHICLE_REPORTS = ["vehicles", "where", "route", "stops", "fuel", "refills", "temps"] as const;
export type VehicleReportName = (typeof VEHICLE_REPORTS)[number];

const vehicleRefSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("all"), raw: z.string(), normalised: z.literal("ALL") }),
  z.object({ type: z.literal("id"), raw: z.string(), normalised: z.string(), vehicleId: z.number().int() }),
  z.object({ type: z.literal("plate"), raw: z.string(), normalised: z.string() }),
  z.object({ type: z.literal("name"), raw: z.string(), normalised: z.string() }),
]);

export const vehicleReportParams = z.object({
  report: z.enum(VEHICLE_REPORTS),
  refs: z.array(vehicleRefSchema).default([]),
  filter: z.string().optional(),
  period: z.object({ fromMs: z.number(), toMs: z.number(), label: z.string() }).optional(),
  minMinutes: z.number().int().min(1).optional(),
  /** The invoking user's zone: texts and files are written in it. */
  timeZone: z.string(),
});
export type VehicleReportParams = z.infer<typeof vehicleReportParams>;

/** What a vehicle-data task leaves for the Slack side to render (JSON-safe: stored in SQLite). */
export type VehicleReportResult =
  | { kind: "resolution"; problems: string[] }
  | { kind: "vehicles"; report: VehicleListReport }
  | { kind: "where"; report: PositionReport }
  | { kind: "route"; report: RouteReport }
  | { kind: "stops"; report: StopsReport }
  | { kind: "fuel"; report: FuelReport }
  | { kind: "refills"; report: RefillsReport }
  | { kind: "temps"; report: TemperatureReport };

export interface VehicleDataDeps {
  client: FleetClient;
  vehicles: VehicleCache<Vehicle>;
  /** FLEET_MIN_INTERVAL_MS: no fresher vehicle list can be had sooner. */
  intervalMs: number;
  now?: () => number;
}

export function reportVehicle(vehicle: Vehicle): ReportVehicle {
  return {
    vehicleId: vehicle.vehicleId,
    plate: vehicle.vehicleRegistrationNumber ?? `#${vehicle.vehicleId}`,
    name: vehicle.vehicleName ?? "",
  };
}

const asLike = (vehicle: Vehicle) => ({ ...reportVehicle(vehicle), vehicleUId: vehicle.vehicleUId, vehicle });

/**
 * Every /fleet report as one task kind. The vehicle list comes from the account's cache
 * (positions no older than one interval; plates and names within the cache's time to
 * live); a name the list does not know refreshes it once before the user is told.
 */
export function vehicleReportHandler(
  deps: VehicleDataDeps,
): TaskHandler<VehicleReportParams, VehicleReportResult, FleetSession> {
  const now = deps.now ?? Date.now;
  return {
    kind: "vehicle-report",
    params: vehicleReportParams,
    async run(ctx) {
      const p = ctx.params;
      const positional = p.report === "where" || p.report === "vehicles";
      const estimated = 1 + plannedCalls(deps.client, p, []);
      ctx.progress(0, estimated);
      // Fetched with this task's own session: another user's stored password must not matter.
      const load = () => ctx.session.vehicles(ctx.call);
      let list = await deps.vehicles.get(
        ctx.task.account,
        ctx.call,
        positional ? deps.intervalMs : undefined,
        load,
      );
      let resolved = resolveVehicles(p.refs, list.vehicles.map(asLike));
      if (!resolved.ok && now() - list.fetchedAt > deps.intervalMs) {
        // A vehicle the list does not know may be new: one fresh list before saying so.
        list = await deps.vehicles.get(ctx.task.account, ctx.call, 0, load);
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
      const chosen = p.report === "vehicles" ? list.vehicles : resolved.vehicles.map((v) => v.vehicle);
      const ids = chosen.map((v) => v.vehicleId);
      const total = 1 + plannedCalls(deps.client, p, ids);
      ctx.progress(1, total);
      const onProgress = (done: number) => ctx.progress(1 + done, total);
      return runReport(ctx, p, chosen, ids, onProgress, now());
    },
  };
}

function periodOf(p: VehicleReportParams): ReportPeriod {
  if (!p.period) throw new Error(`The ${p.report} report needs a period`);
  return { ...p.period, timeZone: p.timeZone };
}

function plannedCalls(client: FleetClient, p: VehicleReportParams, ids: number[]): number {
  if (p.report === "vehicles" || p.report === "where" || !p.period) return 0;
  const from = new Date(p.period.fromMs);
  const to = new Date(p.period.toMs);
  const vehicleIds = ids.length > 0 ? ids : [0];
  if (p.report === "refills") return client.plan("refills", { vehicleIds, from, to }).length;
  const endpoint =
    p.report === "route"
      ? "way"
      : p.report === "fuel"
        ? "consumption"
        : p.report === "temps"
          ? "temperatures"
          : "stops";
  return client.plan(endpoint, { vehicleIds, from, to }).length;
}

async function runReport(
  ctx: TaskContext<VehicleReportParams, FleetSession>,
  p: VehicleReportParams,
  chosen: Vehicle[],
  ids: number[],
  onProgress: (done: number) => void,
  nowMs: number,
): Promise<VehicleReportResult> {
  const session = ctx.session;
  switch (p.report) {
    case "vehicles":
      return { kind: "vehicles", report: vehicleListReport(chosen, p.filter, nowMs) };
    case "where": {
      const vehicle = chosen[0];
      if (!vehicle) return { kind: "resolution", problems: ["Name one vehicle."] };
      return { kind: "where", report: positionReport(vehicle, nowMs) };
    }
    case "route": {
      const period = periodOf(p);
      const vehicle = chosen[0]!;
      const points = await session.wayAll(
        { vehicleIds: [vehicle.vehicleId], from: new Date(period.fromMs), to: new Date(period.toMs) },
        ctx.call,
        onProgress,
      );
      return { kind: "route", report: routeReport(points, reportVehicle(vehicle), period) };
    }
    case "stops": {
      const period = periodOf(p);
      const minMinutes = p.minMinutes ?? 5;
      const stops = await session.stopsAll(
        {
          vehicleIds: ids,
          from: new Date(period.fromMs),
          to: new Date(period.toMs),
          stationaryMarginMinutes: minMinutes,
        },
        ctx.call,
        onProgress,
      );
      return { kind: "stops", report: stopsReport(stops, chosen.map(reportVehicle), period, minMinutes) };
    }
    case "fuel": {
      const period = periodOf(p);
      const records = await session.consumptionAll(
        { vehicleIds: ids, from: new Date(period.fromMs), to: new Date(period.toMs) },
        ctx.call,
        onProgress,
      );
      return { kind: "fuel", report: fuelReport(records, chosen.map(reportVehicle), period) };
    }
    case "refills": {
      const period = periodOf(p);
      const vehicle = chosen[0]!;
      const events = await session.refillsAll(
        { vehicleIds: [vehicle.vehicleId], from: new Date(period.fromMs), to: new Date(period.toMs) },
        ctx.call,
        onProgress,
      );
      return {
        kind: "refills",
        report: refillsReport(
          events.flatMap((e) => e.events),
          reportVehicle(vehicle),
          period,
        ),
      };
    }
    case "temps": {
      const period = periodOf(p);
      const readings = await session.temperaturesAll(
        { vehicleIds: ids, from: new Date(period.fromMs), to: new Date(period.toMs) },
        ctx.call,
        onProgress,
      );
      return { kind: "temps", report: temperatureReport(readings, chosen.map(reportVehicle), period) };
    }
  }
}
