import type { VehiclesPeriodParams } from "../../../platform/fleet/client.js";
import type { SensorReadings, Vehicle } from "../../../platform/fleet/schemas.js";
import { TRANSPORT_STATUS } from "../../../platform/fleet/schemas.js";
import type { CallContext } from "../../../platform/fleet/seam.js";
import type { IncidentChange, IncidentRecord } from "../../../platform/store/contract/incidentRecords.js";
import type { AlertRepository, AlertSubscription, Zone } from "../../../platform/store/contract/index.js";
import type { TransportView } from "../../../platform/store/contract/transportView.js";
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
  /** COMPANY_TIMEZONE (`hours=`). */
  timeZone: string;
}

/** Temperatures are asked again from a little before the last sweep's end: readings arrive late. */
const TEMPERATURE_OVERLAP_MS = 10 * 60_000;
/** The first sweep (or one after a long pause) reads at most this far back. */
const TEMPERATURE_LOOKBACK_MS = 6 * 3600_000;

const normPlate = (s: string) => s.replace(/[\s-]/g, "").toUpperCase();

/** The transports In Progress, findable by vehicle (its vehicleUId or plate). */
function transportsInProgress(transports: readonly TransportView[]) {
  const byVehicle = new Map<string, TransportView>();
  for (const t of transports) {
    if (t.statusId !== TRANSPORT_STATUS.inProgress) continue;
    if (t.carrierUId) byVehicle.set(`id:${t.carrierUId.toLowerCase()}`, t);
    if (t.carrierCode) byVehicle.set(`plate:${normPlate(t.carrierCode)}`, t);
  }
  return (r: VehicleReading) => {
    const t =
      (r.vehicleUId ? byVehicle.get(`id:${r.vehicleUId.toLowerCase()}`) : undefined) ??
      (r.plate ? byVehicle.get(`plate:${normPlate(r.plate)}`) : undefined);
    return t ? { codeUit: t.codeUit, statusId: t.statusId, uId: t.uId } : undefined;
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
    if (wantsTemperature && readings.length > 0 && !run.signal.aborted) {
      const from = Math.max(
        (state.temperaturesUntilMs ?? 0) - TEMPERATURE_OVERLAP_MS,
        run.nowMs - TEMPERATURE_LOOKBACK_MS,
      );
      try {
        calls.temperatures++;
        const answer = await this.ports.temperatures(
          run.source,
          { vehicleIds: readings.map((r) => r.vehicleId), from: new Date(from), to: new Date(run.nowMs) },
          { priority: "alert", signal: run.signal },
        );
        temperatures = temperaturePointsOf(answer.temperature);
        temperaturesUntilMs = run.nowMs;
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
      };
      await this.store.replaceWatchState(run.account, writeWatchState(kept));
    }
    return { touched, calls };
  }
}
