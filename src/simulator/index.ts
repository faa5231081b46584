/**
 * The embedded fleet service: a faithful stand-in for the upstream tracking service
 * (fleet-api.md) for the demo mode and tests. It is an independent oracle: it shares no
 * code or schema with src/platform/fleet/.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { SimVehicle } from "./fleet.js";
import {
  type ResolvedOptions,
  resolveOptions,
  type SimUser,
  type SimulatorOptions,
  type UndocumentedLimits,
} from "./options.js";
import type { companyVehicle } from "./reports.js";
import { DEPOTS, type Depot } from "./roads.js";
import {
  type Fault,
  FleetService,
  type RecordedRequest,
  type SimStats,
  type TransportControl,
} from "./service.js";
import type { TransmissionView, TransportRecord } from "./transports.js";
import { readVehicleControl, type VehicleControl, type VehicleControlView } from "./vehicleControl.js";

export type { SimVehicle } from "./fleet.js";
export type {
  ResolvedOptions,
  SimUser,
  SimulatorOptions,
  UndocumentedLimits,
  VehicleDataLimits,
} from "./options.js";
export { DOCUMENTED_ONLY, STRICT_LIMITS } from "./options.js";
export type { Depot } from "./roads.js";
export { DEPOTS, destinationPoint } from "./roads.js";
export type {
  EndpointName,
  Fault,
  FaultKind,
  RecordedRequest,
  SimStats,
  TransportControl,
} from "./service.js";
export type { ChangeRequestCode, TransmissionCode, TransmissionView, TransportRecord } from "./transports.js";
export { STATUS } from "./transports.js";
export type { VehicleControl, VehicleControlView } from "./vehicleControl.js";

/** The programmatic twin of the /__control endpoints (always available in-process). */
export interface SimulatorControl {
  setTransport(codeUit: string, control: TransportControl): boolean;
  /**
   * Forces a vehicle's private mode (`isPrivate` in company-vehicles, stops, refuellings), whatever
   * the day; `undefined` goes back to the day plans. False for an unknown vehicle id.
   */
  setVehiclePrivate(vehicleId: number, isPrivate: boolean | undefined): boolean;
  /**
   * The twin of `POST /__control/vehicles/:vehicleId`: forces power, place, idle, speed, silence,
   * a tow, a reefer temperature or private mode (each until `clear`) at the current sim time.
   * False for an unknown vehicle id; throws a RangeError for a control the endpoint answers 400 to
   * (a value out of range, a temperature for a vehicle without sensors).
   */
  setVehicle(vehicleId: number, control: VehicleControl): boolean;
  /** The overrides in force for a vehicle (empty object: none); undefined for an unknown vehicle id. */
  vehicleControls(vehicleId: number): VehicleControlView | undefined;
  /** The vehicle as company-vehicles shows it now (overrides applied); undefined for an unknown id. */
  vehicle(vehicleId: number): CompanyVehicle | undefined;
  expireTokens(username?: string): number;
  addFault(fault: Fault): void;
  /** Shifts the sim clock forward; returns the new sim time (epoch ms). */
  advanceClock(ms: number): number;
  upsertUser(user: SimUser): void;
  reset(): void;
  stats(): SimStats;
  requests(limit?: number): RecordedRequest[];
  /** Current sim time (epoch ms). */
  now(): number;
  /** All stored transports, Error ones included. */
  transports(): TransportRecord[];
  /** The transmission of a transport as load-transports shows it now; undefined for an unknown UIT. */
  transmission(codeUit: string): TransmissionView | undefined;
  /** Undocumented limits in force (null: no limit). */
  limits(): UndocumentedLimits;
  /** Changes them while running; `strict` true/false first switches the strict-limits preset on/off. */
  setLimits(change: Partial<UndocumentedLimits>, strict?: boolean): UndocumentedLimits;
}

/** One element of company-vehicles' payload, as the simulator answers it. */
export type CompanyVehicle = ReturnType<typeof companyVehicle>;

export interface RunningSimulator {
  /** e.g. "http://127.0.0.1:43123", no trailing slash. */
  url: string;
  port: number;
  options: ResolvedOptions;
  /** The synthetic fleet (plates, ids, which vehicle is a reefer or runs on LPG). */
  vehicles: readonly SimVehicle[];
  /** The depots with their coordinates (where the day plans park; `DEPOTS[0]` is București). */
  depots: readonly Depot[];
  control: SimulatorControl;
  close(): Promise<void>;
}

/** The in-process vehicle control: the same checks as the endpoint, a 400 thrown as a RangeError. */
function setVehicle(service: FleetService, vehicleId: number, control: VehicleControl): boolean {
  const checked = readVehicleControl({ ...control });
  if (typeof checked === "string") throw new RangeError(checked);
  const result = service.controlVehicle(vehicleId, checked);
  if (result.status === 400) throw new RangeError(result.error);
  return result.status === 200;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const resolved = resolveOptions(options);
  const service = new FleetService(resolved);

  const onRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const url = new URL(req.url ?? "/", "http://simulator");
      const headers: Record<string, string | undefined> = {};
      for (const [key, value] of Object.entries(req.headers)) {
        headers[key] = Array.isArray(value) ? value.join(", ") : value;
      }
      const answer = await service.handle({
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers,
        body: await readBody(req),
      });
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    } catch (error) {
      resolved.logger?.info({ err: String(error) }, "fleet simulator internal error");
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end("Internal Server Error");
    }
  };

  const server = createServer((req, res) => {
    void onRequest(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(resolved.port, resolved.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = resolved.host.includes(":") ? `[${resolved.host}]` : resolved.host;

  return {
    url: `http://${host}:${port}`,
    port,
    options: { ...resolved, port },
    vehicles: service.fleet,
    depots: DEPOTS,
    control: {
      setTransport: (codeUit, control) => service.controlTransport(codeUit, control),
      setVehiclePrivate: (vehicleId, isPrivate) => service.setVehiclePrivate(vehicleId, isPrivate),
      setVehicle: (vehicleId, control) => setVehicle(service, vehicleId, control),
      vehicleControls: (vehicleId) => service.vehicleControls(vehicleId),
      vehicle: (vehicleId) => service.companyVehicleNow(vehicleId),
      expireTokens: (username) => service.expireTokens(username),
      addFault: (fault) => service.addFault(fault),
      advanceClock: (ms) => service.advanceClock(ms),
      upsertUser: (user) => service.upsertUser(user),
      reset: () => service.reset(),
      stats: () => service.getStats(),
      requests: (limit) => service.recentRequests(limit),
      now: () => service.now(),
      transports: () => service.listAllTransports(),
      transmission: (codeUit) => service.transmissionOf(codeUit),
      limits: () => service.currentLimits(),
      setLimits: (change, strict) => service.setLimits(change, strict),
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
