import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { FleetClient, type FleetSession } from "./fleet/client.js";
import { isFleetError, isUpstreamTransportError } from "./fleet/errors.js";
import type { Vehicle } from "./fleet/schemas.js";
import { createFleetGate } from "./gate/fleetGate.js";
import { createLogger, type Logger } from "./log.js";
import { FleetbotMetrics } from "./metrics.js";
import { type RunningSimulator, startSimulator } from "./simulator/index.js";
import { AccountStore } from "./store/accountStore.js";
import { openDatabase, StoreError } from "./store/database.js";
import { TaskStore } from "./store/taskStore.js";
import { AccountUpkeep } from "./tasks/accountUpkeep.js";
import { type AnyTaskHandler, TaskRunner } from "./tasks/runner.js";
import type { TaskError, TaskRecord } from "./tasks/task.js";
import { VehicleCache } from "./tasks/vehicleCache.js";

/**
 * The one place that wires fleetbot together: configuration, store, fleet client behind
 * the gate, task runner, background upkeep and the HTTP endpoints.
 */
export interface Fleetbot {
  config: Config;
  logger: Logger;
  fleetUrl: string;
  simulator?: RunningSimulator;
  client: FleetClient;
  runner: TaskRunner<FleetSession>;
  vehicles: VehicleCache<Vehicle>;
  metrics: FleetbotMetrics;
  http: Server;
  url: string;
  close(): Promise<void>;
}

export interface StartOptions {
  handlers?: AnyTaskHandler<FleetSession>[];
  logger?: Logger;
}

export async function startFleetbot(config: Config, options: StartOptions = {}): Promise<Fleetbot> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const metrics = new FleetbotMetrics();
  const db = openDatabase(config.dataDir);
  const tasks = new TaskStore(db);
  const accounts = new AccountStore(db, config.credentialsKey);

  let simulator: RunningSimulator | undefined;
  let fleetUrl = config.fleet.apiUrl;
  if (!fleetUrl) {
    simulator = await startSimulator({ port: 0, minIntervalMs: config.fleet.minIntervalMs, control: true });
    fleetUrl = simulator.url;
  }

  const gate = createFleetGate({
    minIntervalMs: config.fleet.minIntervalMs,
    safetyMarginMs: config.fleet.safetyMarginMs,
    observer: metrics.gateObserver(),
    logger: logger.child({ module: "gate" }),
  });
  const client = new FleetClient({
    baseUrl: fleetUrl,
    apiVersion: config.fleet.apiVersion,
    timeZone: config.companyTimeZone,
    gate,
    timeoutMs: config.fleet.timeoutMs,
  });

  // On the simulator with no workspace account configured, everyone uses its demo login.
  const workspaceAccount =
    config.fleet.workspaceAccount ?? (simulator ? { username: "demo", password: "demo" } : undefined);
  const sessions = new Map<string, FleetSession>();
  const sessionFor = (task: Pick<TaskRecord, "account" | "slackUser">): FleetSession => {
    const linked = task.slackUser ? accounts.get(task.slackUser) : undefined;
    const credentials =
      linked && linked.username === task.account
        ? { username: linked.username, password: linked.password }
        : workspaceAccount?.username === task.account
          ? workspaceAccount
          : undefined;
    if (!credentials) throw new Error(`No credentials for fleet account ${task.account}`);
    const session = client.session(credentials);
    sessions.set(session.account, session);
    return session;
  };

  const vehicles = new VehicleCache<Vehicle>({
    ttlMs: config.fleet.vehicleCacheTtlMs,
    fetch: (account, ctx) => {
      const session = sessions.get(account);
      if (!session) throw new Error(`No session for fleet account ${account}`);
      return session.vehicles(ctx);
    },
  });

  const runner = new TaskRunner<FleetSession>({
    store: tasks,
    gate,
    handlers: options.handlers ?? [],
    sessionFor: async (task) => sessionFor(task),
    describeError,
    isRetryable: (error) => isUpstreamTransportError(error),
    logger: logger.child({ module: "tasks" }),
  });

  const upkeep = new AccountUpkeep({
    gate,
    vehicles,
    sessions: () => sessions.values(),
    tokenLeadMs: 5 * 60_000,
    logger: logger.child({ module: "upkeep" }),
  });
  const upkeepTimer = setInterval(() => void upkeep.tick(), 15_000);
  upkeepTimer.unref();

  let ready = false;
  const http = createServer((req, res) => {
    void route(req, res).catch((error: unknown) => {
      logger.error({ err: error, url: req.url }, "HTTP handler failed");
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/healthz") {
      const body = {
        ok: ready,
        slack: "not configured",
        fleet: simulator ? "simulator" : "configured",
        queue: "ok",
      };
      res.writeHead(ready ? 200 : 503, { "content-type": "application/json" }).end(JSON.stringify(body));
      return;
    }
    if (req.method === "GET" && path === "/metrics") {
      metrics.queueDepth.set({ state: "unfinished" }, tasks.unfinished().length);
      res.writeHead(200, { "content-type": metrics.contentType }).end(await metrics.text());
      return;
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("Not found\n");
  }
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(config.port, () => resolve());
  });
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : config.port;

  runner.resume();
  ready = true;

  return {
    config,
    logger,
    fleetUrl,
    simulator,
    client,
    runner,
    vehicles,
    metrics,
    http,
    url: `http://127.0.0.1:${port}`,
    async close() {
      ready = false;
      clearInterval(upkeepTimer);
      await runner.stop();
      await gate.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await simulator?.close();
      db.close();
    },
  };
}

/** What a user and support see of a failed task; fleet errors carry both already. */
export function describeError(error: unknown): TaskError {
  if (isFleetError(error)) {
    return { kind: error.kind, message: error.userMessage, correlationId: error.correlationId };
  }
  return { kind: "internal", message: "Something went wrong inside fleetbot; the details are in its log." };
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  let bot: Fleetbot;
  try {
    bot = await startFleetbot(config);
  } catch (error) {
    if (error instanceof StoreError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const { logger } = bot;
  if (bot.simulator) {
    logger.info(
      { fleet: bot.fleetUrl },
      `No FLEET_API_URL: running on the built-in fleet simulator at ${bot.fleetUrl} (logins demo/demo, viewer/viewer).`,
    );
  }
  logger.info(
    { url: bot.url },
    `fleetbot listening on ${bot.url} (health: ${bot.url}/healthz, metrics: ${bot.url}/metrics)`,
  );
  const shutdown = (signal: string) => {
    logger.info({ signal }, "stopping; unfinished tasks resume at the next start");
    void bot.close().then(() => process.exit(0));
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  void main();
}
