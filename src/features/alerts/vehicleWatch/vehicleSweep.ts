import type { VehiclesPeriodParams } from "../../../platform/fleet/client.js";
import type { SensorReadings, Vehicle } from "../../../platform/fleet/schemas.js";
import { TRANSPORT_STATUS } from "../../../platform/fleet/schemas.js";
import type { CallContext } from "../../../platform/fleet/seam.js";
import type { IncidentChange, IncidentRecord } from "../../../platform/store/contract/incidentRecords.js";
import type { AlertRepository, AlertSubscription, Zone } from "../../../platform/store/contract/index.js";
import type { TransportView } from "../../../platform/store/contract/transportView.js";
import { normalisePlate } from "../../../platform/vehicles/vehicleRefs.js";
import type { WorkspaceKey } from "../../../platform/workspaces/workspace.js";
import { confirmAfterMs } from "../incidents.js";
import { evaluateVehicles } from "./evaluate.js";
import { readingOf, type TemperaturePoint, temperaturePointsOf, type VehicleReading } from "./readings.js";
import { accountWatches } from "./watches.js";
import { readWatchState, type WatchState, writeWatchState } from "./watchState.js";

/**
 * One account's vehicle watch in a sweep (the side effects around evaluate.ts): at most one
 * company-vehicles call (through the vehicle cache, which it refreshes for `where` and the
 * pickers) and, only when a Temperature watch exists, one temperatures call for the time since the
 * last sweep, both at alert priority; then the changes stored and the memory kept for the next
 * sweep. A call that fails changes nothing: no incident opens or resolves on what was not read.
 */
export interface VehicleWatchPorts<S> {
  /** The zones of these workspaces (Zone watches). */
  zonesOf(workspaces: readonly WorkspaceKey[]): Promise<Map<WorkspaceKey, Zone[]>>;
  /** company-vehicles with the source's credentials, fresh, through the vehicle cache. */
  vehicles(source: S, ctx: CallContext): Promise<Vehicle[]>;
  /** temperatures with the source's credentials (one call). */
  temperatures(source: S, params: VehiclesPeriodParams, ctx: CallContext): Promise<SensorReadings>;
  /**
   * How many vehicles one temperatures call may name for this period, as the client's limits know
   * them now (documented or learned from a refusal); undefined: no limit known.
   */
  temperaturesCapacity(params: VehiclesPeriodParams): number | undefined;
  /** COMPANY_TIMEZONE (`hours=`). */
  timeZone: string;
}

/** Temperatures are asked again from a little before the last sweep's end: readings arrive late. */
const TEMPERATURE_OVERLAP_MS = 10 * 60_000;
/** The first sweep (or one after a long pause) reads at most this far back. */
const TEMPERATURE_LOOKBACK_MS = 6 * 3600_000;

/** The transports In Progress, findable by vehicle (its vehicleUId or plate). */
function transportsInProgress(transports: readonly TransportView[]) {
  const byVehicle = new Map<string, TransportView>();
  for (const t of transports) {
    if (t.statusId !== TRANSPORT_STATUS.inProgress) continue;
    if (t.carrierUId) byVehicle.set(`id:${t.carrierUId.toLowerCase()}`, t);
    if (t.carrierCode) byVehicle.set(`plate:${normalisePlate(t.carrierCode)}`, t);
  }
  return (r: VehicleReading) => {
    const t =
      (r.vehicleUId ? byVehicle.get(`id:${r.vehicleUId.toLowerCase()}`) : undefined) ??
      (r.plate ? byVehicle.get(`plate:${normalisePlate(r.plate)}`) : undefined);
    return t ? { codeUit: t.codeUit, statusId: t.statusId, uId: t.uId } : undefined;
  };
}

/**
 * Which vehicles the sweep's one temperatures call names (pure): all of them when one call may;
 * otherwise the vehicles known to have sensors first, and the rest of the room probes the others
 * in turn from `probeCursor`, so a fleet larger than the service's limit is covered over a few
 * sweeps and its reefers then watched at every one (more reefers than room: they take turns).
 */
export function temperatureVehicles(
  ids: readonly number[],
  state: Pick<WatchState, "sensorVehicles" | "probeCursor">,
  capacity: number | undefined,
): { vehicleIds: number[]; probeCursor?: number } {
  const all = [...new Set(ids)].sort((a, b) => a - b);
  if (capacity === undefined || capacity >= all.length) return { vehicleIds: all };
  const present = new Set(all);
  const known = (state.sensorVehicles ?? []).filter((id) => present.has(id));
  const cursor = state.probeCursor ?? 0;
  const rotate = (list: readonly number[], from: number) =>
    list.length === 0 ? [] : [...list.slice(from % list.length), ...list.slice(0, from % list.length)];
  if (known.length >= capacity) {
    return {
      vehicleIds: rotate(known, cursor).slice(0, capacity),
      probeCursor: (cursor + capacity) % known.length,
    };
  }
  const knownSet = new Set(known);
  const others = all.filter((id) => !knownSet.has(id));
  const room = capacity - known.length;
  const probed = rotate(others, cursor).slice(0, room);
  return {
    vehicleIds: [...known, ...probed],
    probeCursor: others.length === 0 ? 0 : (cursor + probed.length) % others.length,
  };
}

export interface VehicleWatchRun<S> {
  account: string;
  source: S;
  /** Every subscription of the account (watches are evaluated for all; posts go where the poller says). */
  subs: readonly AlertSubscription[];
  /** The transports this sweep listed (a vehicle with one In Progress is watched for Stalled, not Offline). */
  transports: readonly TransportView[];
  active: readonly IncidentRecord[];
  nowMs: number;
  signal: AbortSignal;
  /** Stores the changes (before anything is posted) and answers the incidents touched. */
  record(changes: readonly IncidentChange[]): Promise<IncidentRecord[]>;
}

export interface VehicleWatchOutcome {
  /** Incidents opened, confirmed or resolved. */
  touched: IncidentRecord[];
  /** company-vehicles and temperatures calls made. */
  calls: { vehicles: number; temperatures: number };
  /** Why nothing was evaluated, when so. */
  skipped?: "no-watch" | "vehicles-failed";
}

export class VehicleWatch<S> {
  constructor(
    private readonly store: Pick<AlertRepository, "watchState" | "replaceWatchState">,
    private readonly ports: VehicleWatchPorts<S>,
    private readonly log: { warn(obj: object, msg?: string): void },
  ) {}

  async run(run: VehicleWatchRun<S>): Promise<VehicleWatchOutcome> {
    const calls = { vehicles: 0, temperatures: 0 };
    const workspaces = [...new Set(run.subs.map((s) => s.workspace))];
    const zonesOf = await this.ports.zonesOf(workspaces);
    const watches = accountWatches(run.subs, zonesOf);
    const hasActive = run.active.some((i) => i.state !== "resolved" && i.facts.vehicle !== undefined);
    if (watches.length === 0 && !hasActive) return { touched: [], calls, skipped: "no-watch" };
    const state = readWatchState(await this.store.watchState(run.account));
    let readings: VehicleReading[] = [];
    if (watches.length > 0) {
      const ctx: CallContext = { priority: "alert", signal: run.signal };
      try {
        calls.vehicles++;
        readings = (await this.ports.vehicles(run.source, ctx)).map(readingOf);
      } catch (error) {
        this.log.warn(
          { account: run.account, err: String(error) },
          "vehicle watch: company-vehicles not read",
        );
        return { touched: [], calls, skipped: "vehicles-failed" };
      }
    }
    const wantsTemperature = watches.some((w) => w.kind === "temperature");
    let temperatures: TemperaturePoint[] | undefined;
    let temperaturesUntilMs = state.temperaturesUntilMs;
    let sensors = state.sensorVehicles;
    let probeCursor = state.probeCursor;
    if (wantsTemperature && readings.length > 0 && !run.signal.aborted) {
      const from = Math.max(
        (state.temperaturesUntilMs ?? 0) - TEMPERATURE_OVERLAP_MS,
        run.nowMs - TEMPERATURE_LOOKBACK_MS,
      );
      const period = { from: new Date(from), to: new Date(run.nowMs) };
      const ids = readings.map((r) => r.vehicleId);
      const capacity = this.ports.temperaturesCapacity({ vehicleIds: ids, ...period });
      const asked = temperatureVehicles(ids, state, capacity);
      try {
        calls.temperatures++;
        const answer = await this.ports.temperatures(
          run.source,
          { vehicleIds: asked.vehicleIds, ...period },
          { priority: "alert", signal: run.signal },
        );
        temperatures = temperaturePointsOf(answer.temperature);
        temperaturesUntilMs = run.nowMs;
        sensors = [
          ...new Set([...(state.sensorVehicles ?? []), ...temperatures.map((p) => p.vehicleId)]),
        ].sort((a, b) => a - b);
        probeCursor = asked.probeCursor;
      } catch (error) {
        // Temperature changes nothing this sweep; the other kinds go on.
        this.log.warn({ account: run.account, err: String(error) }, "vehicle watch: temperatures not read");
      }
    }
    const subsOf = run.subs;
    const { changes, state: next } = evaluateVehicles({
      account: run.account,
      nowMs: run.nowMs,
      timeZone: this.ports.timeZone,
      readings,
      ...(temperatures === undefined ? {} : { temperatures }),
      watches,
      active: run.active,
      transportOn: transportsInProgress(run.transports),
      state,
      confirmAfterMs: (candidate) => confirmAfterMs(subsOf, candidate),
    });
    const touched = await run.record(changes);
    if (!run.signal.aborted && readings.length > 0) {
      const kept: WatchState = {
        ...next,
        ...(temperaturesUntilMs === undefined ? {} : { temperaturesUntilMs }),
        ...(sensors === undefined ? {} : { sensorVehicles: sensors }),
        ...(probeCursor === undefined ? {} : { probeCursor }),
      };
      await this.store.replaceWatchState(run.account, writeWatchState(kept));
    }
    return { touched, calls };
  }
}
