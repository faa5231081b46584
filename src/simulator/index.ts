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
import {
  type Fault,
  FleetService,
  type RecordedRequest,
  type SimStats,
  type TransportControl,
} from "./service.js";
import type { TransmissionView, TransportRecord } from "./transports.js";

export type { SimVehicle } from "./fleet.js";
export type {
  ResolvedOptions,
  SimUser,
  SimulatorOptions,
  UndocumentedLimits,
  VehicleDataLimits,
} from "./options.js";
export { DOCUMENTED_ONLY, STRICT_LIMITS } from "./options.js";
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

/** The programmatic twin of the /__control endpoints (always available in-process). */
export interface SimulatorControl {
  setTransport(codeUit: string, control: TransportControl): boolean;
  /**
   * Forces a vehicle's private mode (`isPrivate` in company-vehicles, stops, refuellings), whatever
   * the day; `undefined` goes back to the day plans. False for an unknown vehicle id.
   */
  setVehiclePrivate(vehicleId: number, isPrivate: boolean | undefined): boolean;
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

export interface RunningSimulator {
  /** e.g. "http://127.0.0.1:43123", no trailing slash. */
  url: string;
  port: number;
  options: ResolvedOptions;
  /** The synthetic fleet (plates, ids, which vehicle is a reefer or runs on LPG). */
  vehicles: readonly SimVehicle[];
  control: SimulatorControl;
  close(): Promise<void>;
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
    control: {
      setTransport: (codeUit, control) => service.controlTransport(codeUit, control),
      setVehiclePrivate: (vehicleId, isPrivate) => service.setVehiclePrivate(vehicleId, isPrivate),
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
