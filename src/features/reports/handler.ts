import type { FleetClient, FleetSession } from "../../platform/fleet/client.js";
import type { Vehicle } from "../../platform/fleet/schemas.js";
import type { TaskContext } from "../../platform/tasks/runner.js";
import type { VehicleCache } from "../../platform/vehicles/vehicleCache.js";
import { resolveVehicles } from "../../platform/vehicles/vehicleRefs.js";
import type { KindHandler } from "../taskKinds.js";
import {
  type AnyReportEntry,
  DEFAULT_MIN_MINUTES,
  plannedCalls,
  REPORT_CATALOGUE,
  type ReportRun,
  reportVehicle,
  resolvableVehicles,
  storedResolutionProblem,
  VEHICLE_REPORTS,
  type VehicleReportName,
  type VehicleReportResult,
} from "./catalogue.js";
import { type VehicleReportParams, vehicleReportParams } from "./kind.js";

export { reportVehicle, VEHICLE_REPORTS, type VehicleReportName, type VehicleReportResult };

export interface VehicleDataDeps {
  client: FleetClient;
  vehicles: VehicleCache<Vehicle>;
  /** FLEET_MIN_INTERVAL_MS: no fresher vehicle list can be had sooner. */
  intervalMs: number;
  now?: () => number;
}

/** The vehicles a report will cover, as an older list resolves its names (none when it cannot). */
function guessVehicleIds(
  report: AnyReportEntry,
  refs: VehicleReportParams["refs"],
  vehicles: readonly Vehicle[],
): number[] {
  if (report.vehicles === "filter") return vehicles.map((v) => v.vehicleId);
  const resolved = resolveVehicles(refs, resolvableVehicles(vehicles));
  return resolved.ok ? resolved.vehicles.map((v) => v.vehicle.vehicleId) : [];
}

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
    plan(p, account) {
      const { listCalls, reportCalls } = planOf(deps, now, p, account);
      return listCalls + reportCalls;
    },
    run: (ctx) => runReport(deps, now, ctx),
  };
}

type ReportContext = TaskContext<VehicleReportParams, FleetSession>;

/** A snapshot report wants positions no older than one interval; others take the cache's TTL. */
const maxListAge = (deps: VehicleDataDeps, report: AnyReportEntry) =>
  report.period === "none" ? deps.intervalMs : undefined;

/**
 * The calls a report will make, known before it runs: the vehicle list unless the cache has
 * one fresh enough, and the report's own calls for the vehicles the (possibly older) cached
 * list resolves the names to. The login is the caller's to add.
 */
function planOf(deps: VehicleDataDeps, now: () => number, p: VehicleReportParams, account: string) {
  const report: AnyReportEntry = REPORT_CATALOGUE[p.report];
  const maxAgeMs = maxListAge(deps, report);
  const cached = deps.vehicles.peek(account);
  const listIsFresh =
    cached !== undefined &&
    (maxAgeMs === undefined ? !deps.vehicles.isStale(account) : now() - cached.fetchedAt <= maxAgeMs);
  const guessedIds = cached ? guessVehicleIds(report, p.refs, cached.vehicles) : [];
  return {
    listCalls: listIsFresh ? 0 : 1,
    reportCalls: plannedCalls(deps.client, report, guessedIds, p.period),
  };
}

async function runReport(
  deps: VehicleDataDeps,
  now: () => number,
  ctx: ReportContext,
): Promise<VehicleReportResult> {
  const p = ctx.params;
  const report: AnyReportEntry = REPORT_CATALOGUE[p.report];
  const planned = planOf(deps, now, p, ctx.session.account);
  const estimatedOwn = planned.listCalls + planned.reportCalls;
  // No call at all (a `where` from a fresh list): no login either.
  const setup = estimatedOwn > 0 ? ctx.session.loginCalls() : 0;
  ctx.progress(0, setup + estimatedOwn);
  const listing = await listAndResolve(deps, now, ctx, report, { listed: planned.listCalls, setup });
  const { list, resolved, listed } = listing;
  if (!resolved.ok) {
    return {
      kind: "resolution",
      // Codes, not words: the Slack side writes them in the reader's language.
      problems: resolved.problems.map(storedResolutionProblem),
    };
  }
  const chosen = report.vehicles === "filter" ? list.vehicles : resolved.vehicles.map((v) => v.vehicle);
  if (report.vehicles === "one" && chosen.length === 0) {
    return { kind: "resolution", problems: [{ kind: "no-vehicle" }] };
  }
  const reportCalls = plannedCalls(
    deps.client,
    report,
    chosen.map((v) => v.vehicleId),
    p.period,
  );
  let setupCalls = listing.setup;
  if (listed === 0 && setupCalls === 0 && reportCalls > 0) setupCalls = ctx.session.loginCalls();
  const before = (listed > 0 ? setupCalls : 0) + listed;
  const total = setupCalls + listed + reportCalls;
  ctx.progress(before, Math.max(total, before));
  const run: ReportRun = {
    session: ctx.session,
    call: ctx.call,
    vehicles: chosen,
    period: p.period ? { ...p.period, timeZone: p.timeZone } : undefined,
    filter: p.filter,
    minMinutes: p.minMinutes ?? DEFAULT_MIN_MINUTES,
    nowMs: now(),
    // A refused call (learned limit) re-plans the rest: the total grows with it.
    onProgress: (done, calls) =>
      ctx.progress(setupCalls + listed + done, calls === undefined ? total : setupCalls + listed + calls),
  };
  return report.run(run);
}

/**
 * The account's vehicle list, fetched with this task's own session (another user's stored
 * password must not matter), and the report's vehicle references resolved against it; a name
 * it does not know fetches one fresh list first. `listed` and `setup` count the calls made.
 */
async function listAndResolve(
  deps: VehicleDataDeps,
  now: () => number,
  ctx: ReportContext,
  report: AnyReportEntry,
  calls: { listed: number; setup: number },
) {
  const p = ctx.params;
  let { listed, setup } = calls;
  let list = await deps.vehicles.get(ctx.session, ctx.call, maxListAge(deps, report));
  let resolved = resolveVehicles(p.refs, resolvableVehicles(list.vehicles));
  if (!resolved.ok && now() - list.fetchedAt > deps.intervalMs) {
    // A vehicle the list does not know may be new: one fresh list before saying so.
    if (listed === 0 && setup === 0) setup = ctx.session.loginCalls();
    list = await deps.vehicles.get(ctx.session, ctx.call, 0);
    listed += 1;
    resolved = resolveVehicles(p.refs, resolvableVehicles(list.vehicles));
  }
  return { list, resolved, listed, setup };
}
