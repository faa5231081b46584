import { hostname } from "node:os";
import { pathToFileURL } from "node:url";
import type { Installation } from "@slack/oauth";
import { LogLevel, WebClient } from "@slack/web-api";
import type { Redis } from "ioredis";
import cron from "node-cron";
import { countingPublisher } from "./alerts/countingPublisher.js";
import { AlertPoller } from "./alerts/poller.js";
import { ALERT_CLIENT_OPTIONS, createAlertWebClient, SlackAlertPublisher } from "./alerts/slackPublisher.js";
import { AlertSubscriptions } from "./alerts/subscriptions.js";
import { cronTickMs, nextCronRunMs, sweepHealth } from "./alerts/sweepHealth.js";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { FleetClient, type FleetSession } from "./fleet/client.js";
import { isUpstreamTransportError } from "./fleet/errors.js";
import type { LearnedLimitsRepository } from "./fleet/limits.js";
import type { AcceptedPasswords } from "./fleet/passwords.js";
import type { Vehicle } from "./fleet/schemas.js";
import type { SharedTokens } from "./fleet/tokens.js";
import { createFleetGate, type FleetGateOptions } from "./gate/fleetGate.js";
import type { AccountGate } from "./gate/gate.js";
import type { Language } from "./i18n/language.js";
import { count } from "./i18n/plural.js";
import { resolveLanguage } from "./i18n/resolve.js";
import { createLogger, type Logger } from "./log.js";
import { FleetbotMetrics } from "./metrics.js";
import type { FakeSlack } from "./sandbox/fakeSlack/index.js";
import type { SandboxDeps } from "./sandbox/web/index.js";
import type { RunningSimulator, SimulatorOptions } from "./simulator/index.js";
import { type HttpRoute, type RunningSlackApp, startSlackApp } from "./slack/app.js";
import type { SlackContext } from "./slack/context.js";
import { TaskDelivery } from "./slack/delivery.js";
import { parsePeriodCore } from "./slack/grammar/period.js";
import { installOptions, type PublicSite, publicRoutes } from "./slack/installRoutes.js";
import { LinkAttempts } from "./slack/listeners/account.js";
import { isChannelMember } from "./slack/listeners/shared.js";
import { PendingAcks } from "./slack/pendingAcks.js";
import { People } from "./slack/people.js";
import { describeTask, type RenderContext, relatedTaskIds, renderTask } from "./slack/renderers.js";
import { installWelcomeMessage } from "./slack/views/installation.js";
import { AccountStore } from "./store/accountStore.js";
import { AlertStore } from "./store/alertStore.js";
import { AuditStore } from "./store/auditStore.js";
import { openDatabase, StoreError } from "./store/database.js";
import { StoreHealth } from "./store/health.js";
import { type InstallationRepository, SqliteInstallationStore } from "./store/installationStore.js";
import { LearnedLimitsStore } from "./store/learnedLimits.js";
import {
  type AccountRepository,
  type AlertRepository,
  type AuditRepository,
  promised,
  type SettingsRepository,
  type TaskRepository,
} from "./store/repositories.js";
import { StoreRetention } from "./store/retention.js";
import { SettingsStore } from "./store/settingsStore.js";
import { MemorySharedState, type SharedState } from "./store/sharedState.js";
import { TaskStore } from "./store/taskStore.js";
import { AccountUpkeep } from "./tasks/accountUpkeep.js";
import { CallDurations, TaskOverhead } from "./tasks/callDurations.js";
import { describeTaskError } from "./tasks/failures.js";
import { FleetAccounts } from "./tasks/fleetAccounts.js";
import { accountLinkHandler } from "./tasks/handlers/accountLink.js";
import { LINK_FAILURE_LIMITS, LinkFailures } from "./tasks/handlers/linkFailures.js";
import { transportActionHandler } from "./tasks/handlers/transportActions.js";
import {
  transportFindHandler,
  transportListHandler,
  transportRemoveHandler,
  transportSaveHandler,
} from "./tasks/handlers/transports.js";
import { rezonePeriod, settlingUserZone, type UserZoneDeps, withZone } from "./tasks/handlers/userZone.js";
import { vehicleReportHandler } from "./tasks/handlers/vehicleData.js";
import type { RedisTaskQueue } from "./tasks/redisTaskQueue.js";
import { TaskRunner } from "./tasks/runner.js";
import type { TaskRecord } from "./tasks/task.js";
import type { VehicleCache } from "./tasks/vehicleCache.js";
import {
  InstalledWorkspaces,
  LocalRenewalLock,
  type RenewalLock,
  SingleWorkspace,
  type Workspaces,
} from "./workspaces/registry.js";
import { type WorkspaceData, WorkspaceRemoval } from "./workspaces/removal.js";
import { type ClientKind, WorkspaceGoneError, type WorkspaceKey } from "./workspaces/workspace.js";

/**
 * The one place that wires fleetbot together. `startFleetbot` reads top to bottom: stores,
 * the fleet service (or the embedded simulator), the gate and the accounts behind it, the
 * task runner, Slack (delivery first, then the app), alerts, and the background work.
 */
export interface Fleetbot {
  config: Config;
  logger: Logger;
  fleetUrl: string;
  simulator?: RunningSimulator;
  /** The in-process fake Slack of the sandbox mode (no Slack configured). */
  fakeSlack?: FakeSlack;
  client: FleetClient;
  /** The fleet accounts acted as (sessions, vehicle lists; let go of when nobody links one). */
  accounts: FleetAccounts;
  /** Token renewal and list refresh ahead of time; `tick` runs one pass (tests, with upkeepEveryMs 0). */
  upkeep: Pick<AccountUpkeep, "tick">;
  runner: TaskRunner<FleetSession>;
  tasks: TaskRepository;
  vehicles: VehicleCache<Vehicle>;
  metrics: FleetbotMetrics;
  slack: RunningSlackApp;
  alerts: AlertPoller;
  delivery: TaskDelivery;
  /** Uninstalls and dead tokens (multi-workspace mode): `idle()` resolves when no removal is under way. */
  removal: Pick<WorkspaceRemoval, "idle">;
  url: string;
  close(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  /** Simulator settings for the embedded mode (tests scale time with them). */
  simulator?: Omit<SimulatorOptions, "port">;
  /** The account upkeep period (0: off). */
  upkeepEveryMs?: number;
  /** Least time between two progress updates of one message (tests shorten it). */
  progressEveryMs?: number;
  /** Start the ALERTS_CRON poller (default true; tests call `alerts.runOnce()` themselves). */
  alertPolling?: boolean;
  /** How the alert publisher waits out Slack's Retry-After (tests advance the fake Slack's clock). */
  alertSleep?: (ms: number) => Promise<void>;
}

export async function startFleetbot(config: Config, options: StartOptions = {}): Promise<Fleetbot> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const metrics = new FleetbotMetrics();
  const stores = config.redisUrl
    ? await openRedisStores(config, config.redisUrl, logger)
    : openSqliteStores(config, logger);
  const service = await startFleetService(config, options);
  const { callDurations, gate, client, fleet } = await fleetParts(config, {
    stores,
    service,
    metrics,
    logger,
  });
  const slackSide = await slackSettings(config);
  // Removal is wired once the runner and the people cache exist; a dead token found earlier waits for it.
  const removal = lateRemoval();
  const workspaces = slackWorkspaces(config, slackSide, stores, logger, removal);
  const { people, zones } = peopleParts(config, { stores, fleet, workspaces });
  // HTTP mode: tasks let the acks of the Slack requests being read go out first.
  const pendingAcks = new PendingAcks();
  const { runner, queue } = taskRunner(config, {
    stores,
    gate,
    client,
    fleet,
    zones,
    logger,
    callDurations,
    // A lookup goes first when a burst's tasks are let go together.
    beforeWork: (task) => pendingAcks.settled(task.priority === "interactive"),
  });
  const upkeep = accountUpkeep(gate, fleet, logger, options.upkeepEveryMs ?? 15_000);
  const delivery = taskDelivery(config, {
    stores,
    runner,
    workspaces,
    slackApiUrl: slackSide.apiUrl,
    options,
    logger,
  });

  const alerts = alertParts(config, {
    stores,
    fleet,
    metrics,
    workspaces,
    logger,
    ...(options.alertSleep ? { sleep: options.alertSleep } : {}),
  });
  // The sandbox: the demo account's vehicle list comes first (login, then company-vehicles).
  const firstList = slackSide.fake ? sandboxFirstList(fleet) : undefined;
  const { health, routes, sandbox } = await httpRoutes(config, {
    stores,
    metrics,
    alerts,
    service,
    slackSide,
    ...(firstList ? { firstList } : {}),
  });

  const slack = await startSlack(config, {
    ...{ stores, client, fleet, runner, delivery, alerts, people, workspaces, lateRemoval: removal, queue },
    ...{ slackSide, routes, pendingAcks, sandbox, health, logger },
  });

  const background = await startBackground(config, {
    stores,
    runner,
    queue,
    alerts,
    fleet,
    options,
    sandboxed: !!slackSide.fake,
    ...(firstList ? { firstList: firstList.start() } : {}),
    health,
    logger,
  });
  health.ready = true;

  return {
    config,
    logger,
    fleetUrl: service.url,
    simulator: service.simulator,
    fakeSlack: slackSide.fake,
    client,
    accounts: fleet,
    upkeep: upkeep.upkeep,
    runner,
    tasks: stores.tasks,
    vehicles: fleet.vehicles,
    metrics,
    slack,
    alerts: alerts.poller,
    delivery,
    removal,
    url: slack.url,
    close: () =>
      shutdown({
        health,
        upkeep,
        background,
        alerts,
        runner,
        delivery,
        sandbox,
        slack,
        queue,
        gate,
        slackSide,
        service,
        stores,
      }),
  };
}

/** Stops everything startFleetbot started, the work first and the stores last. */
async function shutdown(parts: {
  health: HealthState;
  upkeep: { stop(): void };
  background: { stop(): void };
  alerts: ReturnType<typeof alertParts>;
  runner: TaskRunner<FleetSession>;
  delivery: TaskDelivery;
  sandbox: { close(): void } | undefined;
  slack: RunningSlackApp;
  queue: { close(): Promise<void> } | undefined;
  gate: { close(): Promise<void> };
  slackSide: SlackSettings;
  service: { simulator?: RunningSimulator };
  stores: Stores;
}): Promise<void> {
  parts.health.ready = false;
  parts.upkeep.stop();
  parts.background.stop();
  await parts.alerts.poller.stop();
  await parts.runner.stop();
  parts.delivery.stop();
  // Open event streams of the sandbox page would keep the HTTP server from closing.
  parts.sandbox?.close();
  await parts.slack.stop();
  await parts.queue?.close();
  await parts.alerts.schedule?.close();
  await parts.gate.close();
  await parts.slackSide.fake?.close();
  await parts.service.simulator?.close();
  await parts.stores.close();
}

// ---------------------------------------------------------------------------------------------
// The pieces, in the order startFleetbot uses them.

/**
 * The Redis mode's modules, imported only when REDIS_URL is set: ioredis, BullMQ and the Redis
 * stores add about 25 MB of resident memory that the embedded mode has no use for.
 */
async function loadRedisModules() {
  const [health, repositories, sharedState, sharedTokens, taskQueue, schedule, gate, renewal, passwords] =
    await Promise.all([
      import("./store/redis/health.js"),
      import("./store/redis/index.js"),
      import("./store/redis/sharedState.js"),
      import("./store/redis/sharedTokens.js"),
      import("./tasks/redisTaskQueue.js"),
      import("./alerts/redisSchedule.js"),
      import("./gate/redisFleetGate.js"),
      import("./store/redis/renewalLock.js"),
      import("./store/redis/acceptedPasswords.js"),
    ]);
  const serverInfo = await import("./store/redis/serverInfo.js");
  return {
    openRedis: health.openRedis,
    connected: health.connected,
    RedisHealth: health.RedisHealth,
    createRedisRepositories: repositories.createRedisRepositories,
    RedisSharedState: sharedState.RedisSharedState,
    RedisSharedTokens: sharedTokens.RedisSharedTokens,
    RedisAcceptedPasswords: passwords.RedisAcceptedPasswords,
    RedisTaskQueue: taskQueue.RedisTaskQueue,
    RedisAlertSchedule: schedule.RedisAlertSchedule,
    createRedisFleetGate: gate.createRedisFleetGate,
    RedisRenewalLock: renewal.RedisRenewalLock,
    readRedisMemory: serverInfo.readRedisMemory,
    readRedisDurability: serverInfo.readRedisDurability,
  };
}

/** The Redis mode's connections and identity (absent in the SQLite mode). */
interface RedisParts {
  modules: Awaited<ReturnType<typeof loadRedisModules>>;
  /** Commands of the gate (its waits retry; the stores' fail at once). */
  gate: Redis;
  queue: Redis;
  worker: Redis;
  replicaId: string;
  /** The gate's turn lease and the jobs' lock scale with the account's slot. */
  leaseMs: number;
  lockMs: number;
  /** Settings of the server that lose data (appendonly no, an evicting policy), read at start. */
  unsafe: string[];
}

interface Stores {
  tasks: TaskRepository;
  accounts: AccountRepository;
  alerts: AlertRepository;
  /** The audit trail of transport changes (AUDIT_RETENTION_DAYS). */
  audit: AuditRepository;
  /** Each user's language and each installed workspace's default language. */
  settings: SettingsRepository;
  /** Slack installations (multi-workspace mode), tokens sealed with CREDENTIALS_KEY. */
  installations: InstallationRepository;
  /** One token renewal per workspace at a time (across replicas in Redis mode). */
  renewalLock: RenewalLock;
  /** Learned call limits of one fleet service, read once (the client plans with them). */
  learnedLimits(service: string): Promise<LearnedLimitsRepository>;
  health: Pick<StoreHealth, "failed" | "check" | "status" | "onRecovered"> & {
    readonly backend: "sqlite" | "redis";
  };
  retention: StoreRetention;
  redis?: RedisParts;
  /** Redis mode: request-guard memory and login attempts shared by the replicas (memory otherwise). */
  sharedState?: SharedState;
  /** Redis mode with CREDENTIALS_KEY: each fleet account's access token, shared by the replicas. */
  sharedTokens?: SharedTokens;
  /** Redis mode with CREDENTIALS_KEY: each account's accepted password (a change seen once cuts off everywhere). */
  acceptedPasswords?: AcceptedPasswords;
  close(): Promise<void>;
}

/** Key prefix of everything fleetbot keeps in Redis. */
const REDIS_PREFIX = "fleetbot:";

/** One line for the operator when linked accounts cannot be opened with this key. */
async function warnUnreadable(config: Config, accounts: AccountRepository, logger: Logger): Promise<void> {
  const unreadable = await accounts.unreadable();
  if (unreadable.length === 0) return;
  // Each affected user is told to link again when they next ask.
  logger.warn(
    { accounts: unreadable.length },
    `${count("en", unreadable.length, { one: "linked account", other: "linked accounts" })} cannot be decrypted with this CREDENTIALS_KEY` +
      (config.credentialsKeyThrowaway
        ? " (the sandbox makes a new throw-away key at each start)"
        : config.credentialsKey
          ? " (the key was changed)"
          : " (CREDENTIALS_KEY is not set)") +
      "; those users are asked to link again with /fleet login",
  );
}

function retentionOf(
  config: Config,
  stores: { tasks: TaskRepository; alerts: AlertRepository; audit: AuditRepository },
  logger: Logger,
) {
  return new StoreRetention({
    stores,
    taskRetentionDays: config.taskRetentionDays,
    auditRetentionDays: config.auditRetentionDays,
    logger: logger.child({ module: "retention" }),
  });
}

/** The embedded store (SQLite in DATA_DIR), its health and retention; a changed key is told once. */
function openSqliteStores(config: Config, logger: Logger): Stores {
  const db = openDatabase(config.dataDir);
  const tasks = promised(new TaskStore(db));
  const accounts = promised(new AccountStore(db, config.credentialsKey));
  const alerts = promised(new AlertStore(db));
  const audit = promised(new AuditStore(db));
  const settings = promised(new SettingsStore(db));
  warnUnreadable(config, accounts, logger).catch((error: unknown) =>
    logger.warn({ err: error }, "linked accounts could not be checked against CREDENTIALS_KEY"),
  );
  const limits = new LearnedLimitsStore(db);
  return {
    tasks,
    accounts,
    alerts,
    audit,
    settings,
    installations: new SqliteInstallationStore(db, config.credentialsKey),
    renewalLock: new LocalRenewalLock(),
    learnedLimits: async () => limits,
    health: new StoreHealth(db),
    retention: retentionOf(config, { tasks, alerts, audit }, logger),
    close: async () => {
      db.close();
    },
  };
}

/**
 * The scale-out mode (REDIS_URL): every piece of shared state in Redis, SQLite not opened.
 * A replica that cannot reach Redis at start stops with one line; later losses are reported
 * by /healthz and told to users, and it recovers by itself.
 */
async function openRedisStores(config: Config, url: string, logger: Logger): Promise<Stores> {
  const modules = await loadRedisModules();
  const {
    openRedis,
    connected,
    RedisHealth,
    RedisSharedState,
    RedisSharedTokens,
    RedisAcceptedPasswords,
    createRedisRepositories,
  } = modules;
  const store = openRedis(url, "store");
  try {
    await connected(store);
  } catch (error) {
    store.disconnect();
    throw new StoreError(`REDIS_URL: ${error instanceof Error ? error.message : String(error)}`);
  }
  const redis: RedisParts = {
    modules,
    gate: openRedis(url, "gate"),
    queue: openRedis(url, "queue"),
    worker: openRedis(url, "worker"),
    replicaId: `${hostname()}-${process.pid}`,
    leaseMs: Math.min(30_000, Math.max(1_000, config.fleet.minIntervalMs)),
    lockMs: Math.min(30_000, Math.max(2_000, 4 * config.fleet.minIntervalMs)),
    unsafe: (await modules.readRedisDurability(store)).unsafe,
  };
  for (const warning of redis.unsafe) logger.warn({ redis: "config" }, `Redis is not durable: ${warning}`);
  const repositories = createRedisRepositories(store, { prefix: REDIS_PREFIX, key: config.credentialsKey });
  await warnUnreadable(config, repositories.accounts, logger);
  const { tasks, accounts, alerts, audit, settings, limits, installations } = repositories;
  return {
    tasks,
    accounts,
    alerts,
    audit,
    settings,
    installations,
    renewalLock: new modules.RedisRenewalLock(store, { prefix: REDIS_PREFIX }),
    learnedLimits: async (service) => {
      // Read once at start; a lesson is written through for every replica's next start.
      const known = await limits.load(service).catch(() => ({}));
      return {
        load: () => known,
        save: (svc, endpoint, limit) => {
          limits.save(svc, endpoint, limit).catch((error: unknown) => {
            logger.warn({ err: error }, "a learned call limit could not be stored in Redis");
          });
        },
      };
    },
    health: new RedisHealth(store),
    // On the fail-fast connection: the guard, login attempts and response_url counts never wait for a lost Redis.
    sharedState: new RedisSharedState(store, { prefix: REDIS_PREFIX }),
    // Sealed with CREDENTIALS_KEY like the passwords; without a key each replica keeps its own.
    ...(config.credentialsKey
      ? {
          sharedTokens: new RedisSharedTokens(store, config.credentialsKey, { prefix: REDIS_PREFIX }),
          acceptedPasswords: new RedisAcceptedPasswords(store, config.credentialsKey, {
            prefix: REDIS_PREFIX,
          }),
        }
      : {}),
    retention: retentionOf(config, { tasks, alerts, audit }, logger),
    redis,
    async close() {
      for (const connection of [redis.gate, redis.queue, redis.worker, store])
        await connection.quit().catch(() => connection.disconnect());
    },
  };
}

/** FLEET_API_URL, or the embedded simulator when none is set. */
async function startFleetService(
  config: Config,
  options: StartOptions,
): Promise<{ url: string; simulator?: RunningSimulator }> {
  if (config.fleet.apiUrl) return { url: config.fleet.apiUrl };
  // Imported only when used: a bot on a real fleet service does not carry the simulator.
  const { startSimulator } = await import("./simulator/index.js");
  const simulator = await startSimulator({
    minIntervalMs: config.fleet.minIntervalMs,
    control: true,
    // The sandbox starts calm, so that a break forced from its panel is the alert that stands out.
    ...(config.slack.mode === "sandbox" ? { demoProblems: false } : {}),
    ...options.simulator,
    port: 0,
  });
  return { url: simulator.url, simulator };
}

function taskRunner(
  config: Config,
  parts: {
    stores: Stores;
    gate: AccountGate;
    client: FleetClient;
    fleet: FleetAccounts;
    zones: UserZoneDeps;
    logger: Logger;
    callDurations: CallDurations;
    beforeWork: (task: TaskRecord) => Promise<void>;
  },
): { runner: TaskRunner<FleetSession>; queue?: RedisTaskQueue } {
  const { stores, gate, client, fleet, zones, logger, callDurations, beforeWork } = parts;
  // Redis mode: tasks are BullMQ jobs any replica may run (the queue calls back into this runner).
  const queue = stores.redis
    ? new stores.redis.modules.RedisTaskQueue({
        connection: stores.redis.queue,
        workerConnection: stores.redis.worker,
        prefix: `${REDIS_PREFIX}bull`,
        run: (taskId) => runner.runJob(taskId),
        abortLocal: (taskId) => runner.abortLocal(taskId),
        yieldLocal: (taskId) => runner.yieldLocal(taskId),
        // Another replica removed a workspace: what this one keeps of accounts nobody links goes too.
        workspaceRemoved: () => fleet.releaseUnused(),
        lockMs: stores.redis.lockMs,
        retryDelayMs: Math.max(1_000, config.fleet.minIntervalMs),
        logger: logger.child({ module: "queue" }),
      })
    : undefined;
  const runner: TaskRunner<FleetSession> = new TaskRunner<FleetSession>({
    store: stores.tasks,
    audit: stores.audit,
    gate,
    beforeWork,
    ...(queue ? { dispatch: queue } : {}),
    handlers: [
      settlingUserZone(
        vehicleReportHandler({ client, vehicles: fleet.vehicles, intervalMs: config.fleet.minIntervalMs }),
        zones,
        rezonePeriod(readTypedPeriod),
      ),
      settlingUserZone(transportActionHandler, zones, withZone),
      settlingUserZone(transportListHandler, zones, withZone),
      settlingUserZone(transportFindHandler, zones, withZone),
      settlingUserZone(transportSaveHandler, zones, withZone),
      transportRemoveHandler,
      accountLinkHandler({
        client,
        accounts: stores.accounts,
        key: config.credentialsKey,
        // Failed link attempts per fleet user name: one count for every workspace (and replica).
        failures: new LinkFailures(stores.sharedState ?? new MemorySharedState(), {
          ...LINK_FAILURE_LIMITS,
          perAccount: config.fleet.linkFailures,
        }),
      }),
    ],
    sessionFor: async (task) => fleet.sessionFor(task),
    loginCalls: (account) => client.loginCalls(account),
    typicalCallMs: (account) => callDurations.typicalMs(account),
    overhead: new TaskOverhead(),
    onStoreFailure: (error) => stores.health.failed(error),
    describeError: describeTaskError,
    isRetryable: (error) => isUpstreamTransportError(error),
    logger: logger.child({ module: "tasks" }),
  });
  return queue ? { runner, queue } : { runner };
}

/** Tokens renewed and vehicle lists refreshed ahead of time, while the gate is idle. */
function accountUpkeep(gate: AccountGate, fleet: FleetAccounts, logger: Logger, everyMs: number) {
  const upkeep = new AccountUpkeep({
    gate,
    vehicles: fleet.vehicles,
    sessions: () => fleet.sessions(),
    onLoginRejected: (account) => {
      logger.warn(
        { account },
        "the fleet service refused this account's login; it is no longer kept logged in",
      );
      fleet.forget(account);
    },
    tokenLeadMs: 5 * 60_000,
    logger: logger.child({ module: "upkeep" }),
  });
  const timer =
    everyMs > 0
      ? setInterval(() => {
          // An account nobody links any more is let go of first: a replica that missed an
          // uninstall's announcement (Redis pub/sub is at most once) stops its calls within a tick.
          fleet
            .releaseUnused()
            .then(() => upkeep.tick())
            .catch((error: unknown) => logger.warn({ err: error }, "account upkeep failed"));
        }, everyMs)
      : undefined;
  timer?.unref();
  return { upkeep, stop: () => timer && clearInterval(timer) };
}

interface SlackSettings {
  mode: "http" | "socket" | "multi";
  botToken: string;
  signingSecret?: string;
  appToken?: string;
  apiUrl: string;
  /** The in-process fake Slack of the sandbox mode. */
  fake?: FakeSlack;
}

/** The configured workspace, or (sandbox mode) a fake Slack in this process. */
async function slackSettings(config: Config): Promise<SlackSettings> {
  if (config.slack.mode === "sandbox") {
    // Imported only in the sandbox mode, like the simulator.
    const { startFakeSlack } = await import("./sandbox/fakeSlack/index.js");
    const fake = await startFakeSlack({ port: 0 });
    return {
      mode: "http",
      botToken: fake.options.botToken,
      signingSecret: fake.options.signingSecret,
      apiUrl: fake.apiUrl,
      fake,
    };
  }
  return {
    mode: config.slack.mode,
    // Multi-workspace mode has no token of its own: each installation brings one.
    botToken: config.slack.botToken ?? "",
    signingSecret: config.slack.signingSecret,
    appToken: config.slack.appToken,
    apiUrl: config.slack.apiUrl,
  };
}

/** The renderers are pure: the stored tasks a task's answer may show (the list an action was clicked in) are read first. */
async function renderContext(
  config: Config,
  tasks: TaskRepository,
  task: TaskRecord,
): Promise<RenderContext> {
  const related = new Map<string, TaskRecord>();
  for (const id of relatedTaskIds(task)) {
    const record = await tasks.get(id);
    if (record) related.set(id, record);
  }
  return {
    now: () => Date.now(),
    companyTimeZone: config.companyTimeZone,
    defaultLanguage: config.defaultLanguage,
    task: (id: string) => related.get(id),
  };
}

/** Subscriptions, the Slack publisher (counted for /metrics) and the ALERTS_CRON poller. */
function alertParts(
  config: Config,
  parts: {
    stores: Stores;
    fleet: FleetAccounts;
    metrics: FleetbotMetrics;
    workspaces: Workspaces;
    logger: Logger;
    sleep?: (ms: number) => Promise<void>;
  },
) {
  const { stores, fleet, metrics, logger } = parts;
  // node-cron's own messages (an overlapping tick skipped…) go to the one log stream, at debug:
  // the poller already logs the skip in its own words.
  const cronLog = logger.child({ module: "node-cron" });
  cron.setLogger({
    info: (message) => cronLog.debug(message),
    warn: (message) => cronLog.debug(message),
    error: (message, err) => cronLog.error({ err: err ?? message }, String(message)),
    debug: (message) => cronLog.debug(String(message)),
  });
  const subscriptions = new AlertSubscriptions(stores.alerts);
  const publisher = new SlackAlertPublisher({
    clientFor: (key) => workspaceClient(parts.workspaces, key, "alerts"),
    timeZone: config.companyTimeZone,
    // An alert's language: its subscription's lang=, else the workspace's default, else DEFAULT_LANGUAGE.
    languageFor: async ({ workspace, channel, account }) =>
      (account === undefined ? undefined : await stores.alerts.subscription(channel, account, workspace))
        ?.language ??
      (await stores.settings.workspaceLanguage(workspace)) ??
      config.defaultLanguage,
    // A direct message (alerts paused): the one resolution order (i18n/resolve.ts), without the
    // Slack locale, which a sweep does not ask Slack for.
    userLanguage: async (workspace, userId) =>
      resolveLanguage({
        user: await stores.settings.userLanguage(workspace, userId),
        workspace: await stores.settings.workspaceLanguage(workspace),
        configured: config.defaultLanguage,
      }),
    ...(parts.sleep ? { sleep: parts.sleep } : {}),
  });
  const poller = new AlertPoller({
    store: stores.alerts,
    publisher: countingPublisher(publisher, metrics.alertPosts),
    sessionFor: (who) => fleet.sessionFor(who),
    // A paused channel is told once, on any replica (memory of this process without Redis).
    ...(stores.sharedState ? { notices: stores.sharedState } : {}),
    timeZone: config.companyTimeZone,
    logger: logger.child({ module: "alerts" }),
    groupOver: config.alerts.groupOver,
    // A transport fleetbot removed itself is gone, not hidden in Error (the audit trail knows).
    removedByFleetbot: async (account, codeUit) =>
      (await stores.audit.history(account, codeUit, 50)).entries.some(
        // Only a remove the service confirmed: after a timeout the transport may still be there
        // (maybe in Error), and a false red alert costs less than a false all-clear.
        (e) => e.action === "remove" && e.outcome === "success",
      ),
  });
  // Redis mode: one sweep per ALERTS_CRON tick over all replicas (a BullMQ job scheduler), not one per replica.
  const schedule = stores.redis
    ? new stores.redis.modules.RedisAlertSchedule({
        connection: stores.redis.queue,
        workerConnection: stores.redis.worker,
        prefix: `${REDIS_PREFIX}bull`,
        cron: config.alerts.cron,
        ...(config.alerts.digestCron ? { digestCron: config.alerts.digestCron } : {}),
        timeZone: config.companyTimeZone,
        // Aborted when this replica loses the sweep lock: nothing more is posted by it.
        sweep: (signal) => poller.runOnce({ signal }),
        digest: () => poller.runDigest(),
        lockMs: stores.redis.lockMs,
        logger: logger.child({ module: "alerts" }),
      })
    : undefined;
  return { subscriptions, publisher, poller, schedule };
}

interface HealthState {
  ready: boolean;
  slack: string;
  /** When the alert schedule started (undefined: not started, e.g. tests that sweep by hand). */
  alertsSince?: number;
}

/**
 * /healthz (503 until ready, or while Slack or the store is not) and /metrics. Late alert sweeps
 * (none completed within three ALERTS_CRON ticks) are reported in `alerts` and `degraded`, not
 * by a 503: every replica would fail at once and be taken out of service for an alerts-only fault.
 */
/** The HTTP routes beside Slack's: health and metrics, and the sandbox page when it runs. */
async function httpRoutes(
  config: Config,
  parts: {
    stores: Stores;
    metrics: FleetbotMetrics;
    alerts: ReturnType<typeof alertParts>;
    service: { simulator?: RunningSimulator };
    slackSide: SlackSettings;
    firstList?: SandboxFirstList;
  },
) {
  const { stores, metrics, alerts, service, slackSide } = parts;
  const health: HealthState = { ready: false, slack: "starting" };
  const routes = healthRoutes(config, {
    health,
    stores,
    metrics,
    alerts,
    simulated: service.simulator !== undefined,
  });
  const sandbox = slackSide.fake
    ? await sandboxPage(slackSide.fake, service.simulator, {
        alertSchedule: alertSchedule(config, alerts, health),
        fleetStatus: () => parts.firstList?.status() ?? "ready",
      })
    : undefined;
  if (sandbox) routes.push(...sandbox.routes);
  return { health, routes, sandbox };
}

/** The fleet side: the account gate (memory or Redis), the client behind it, and the accounts it acts as. */
async function fleetParts(
  config: Config,
  parts: {
    stores: Stores;
    service: { url: string; simulator?: RunningSimulator };
    metrics: FleetbotMetrics;
    logger: Logger;
  },
) {
  const { stores, service, metrics, logger } = parts;
  const callDurations = new CallDurations();
  const gateOptions: FleetGateOptions = {
    minIntervalMs: config.fleet.minIntervalMs,
    safetyMarginMs: config.fleet.safetyMarginMs,
    observer: callDurations.observer(metrics.gateObserver()),
    logger: logger.child({ module: "gate" }),
  };
  const gate: AccountGate = stores.redis
    ? stores.redis.modules.createRedisFleetGate({
        ...gateOptions,
        redis: stores.redis.gate,
        replicaId: stores.redis.replicaId,
        keyPrefix: `${REDIS_PREFIX}gate`,
        leaseMs: stores.redis.leaseMs,
      })
    : createFleetGate(gateOptions);
  const client = new FleetClient({
    baseUrl: service.url,
    apiVersion: config.fleet.apiVersion,
    timeZone: config.companyTimeZone,
    gate,
    timeoutMs: config.fleet.timeoutMs,
    learnedLimits: await stores.learnedLimits(service.url),
    ...(stores.sharedTokens ? { sharedTokens: stores.sharedTokens } : {}),
    ...(stores.acceptedPasswords ? { acceptedPasswords: stores.acceptedPasswords } : {}),
  });
  const fleet = new FleetAccounts({
    client,
    linked: stores.accounts,
    // On the simulator with no workspace account configured, everyone uses its demo login.
    workspaceAccount:
      config.fleet.workspaceAccount ??
      (service.simulator ? { username: "demo", password: "demo" } : undefined),
    vehicleCacheTtlMs: config.fleet.vehicleCacheTtlMs,
    logger,
    gate,
  });
  return { callDurations, gate, client, fleet };
}

/** Progress and answers of tasks, to Slack (attached to the runner's events). */
function taskDelivery(
  config: Config,
  parts: {
    stores: Stores;
    runner: TaskRunner<FleetSession>;
    workspaces: Workspaces;
    slackApiUrl: string;
    options: StartOptions;
    logger: Logger;
  },
): TaskDelivery {
  const { stores, runner, logger } = parts;
  const delivery = new TaskDelivery({
    clientFor: (key) => workspaceClient(parts.workspaces, key),
    store: stores.tasks,
    runner,
    render: async (task) => renderTask(task, await renderContext(config, stores.tasks, task)),
    describe: describeTask,
    defaultLanguage: config.defaultLanguage,
    logger: logger.child({ module: "delivery" }),
    progressEveryMs: parts.options.progressEveryMs,
    // Redis mode: each use of a response_url is also counted across the replicas.
    ...(stores.sharedState ? { responseUrlUses: stores.sharedState, ackMarks: stores.sharedState } : {}),
    slackApiUrl: parts.slackApiUrl,
  });
  delivery.attach();
  return delivery;
}

/**
 * The workspaces fleetbot serves: the configured one with its bot token (and the sandbox's), or
 * in multi-workspace mode every installation, each with its own token (renewed under a lock).
 */
function slackWorkspaces(
  config: Config,
  slackSide: SlackSettings,
  stores: Stores,
  logger: Logger,
  removal: ReturnType<typeof lateRemoval>,
): Workspaces {
  const oauth = config.slack.oauth;
  if (slackSide.mode !== "multi" || !oauth)
    // fleetbot's own Web API client (answers, files, zones, membership checks); Bolt keeps one for its listeners.
    return new SingleWorkspace({
      default: new WebClient(slackSide.botToken, { slackApiUrl: slackSide.apiUrl }),
      alerts: createAlertWebClient(slackSide.botToken, { slackApiUrl: slackSide.apiUrl }),
    });
  const registry: InstalledWorkspaces = new InstalledWorkspaces({
    installations: stores.installations,
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    slackApiUrl: slackSide.apiUrl,
    lock: stores.renewalLock,
    clientOptions: { alerts: { ...ALERT_CLIENT_OPTIONS, logLevel: LogLevel.ERROR } },
    logger: logger.child({ module: "workspaces" }),
    onTokenDead: (key) => removal.tokenDead(key),
    onInstalled: async (installation, key, fresh) => {
      // A workspace that installs anew starts clean, even when its uninstall event was lost.
      if (fresh) await removal.purge(key);
      // Just installed: nobody there has chosen a language, nor the workspace a default.
      await welcomeInstaller(
        registry,
        installation,
        key,
        config.slack.supportUrl,
        config.defaultLanguage,
      ).catch((error: unknown) =>
        logger.warn({ err: error, workspace: key }, "could not send the installer the first steps"),
      );
    },
  });
  return registry;
}

/** The installer's direct message: the workspace account first (`/fleet login workspace`), then `/fleet help`. */
async function welcomeInstaller(
  workspaces: Workspaces,
  installation: Installation,
  key: WorkspaceKey,
  supportUrl: string | undefined,
  language: Language,
): Promise<void> {
  const installer = installation.user?.id;
  if (!installer) return;
  const client = await workspaceClient(workspaces, key);
  const opened = await client.conversations.open({ users: installer });
  if (!opened.channel?.id) return;
  const teamName = installation.team?.name ?? installation.enterprise?.name;
  const message = installWelcomeMessage({
    ...(teamName ? { teamName } : {}),
    ...(supportUrl ? { supportUrl } : {}),
    language,
  });
  await client.chat.postMessage({ channel: opened.channel.id, text: message.text, blocks: message.blocks });
}

/** Who Slack users are (zones, the account they act as), and how a task settles its user's zone. */
function peopleParts(
  config: Config,
  parts: { stores: Stores; fleet: FleetAccounts; workspaces: Workspaces },
) {
  const { stores, fleet, workspaces } = parts;
  const people = new People({
    accounts: stores.accounts,
    workspaceAccount: fleet.workspaceAccount,
    companyTimeZone: config.companyTimeZone,
  });
  // The user's zone is settled in each task, after the ack (users.info never delays an ack).
  const zones: UserZoneDeps = {
    settle: async (slackUser, workspace) => {
      const client = await workspaceClient(workspaces, workspace).catch(() => undefined);
      // An uninstalled workspace's task ends unanswered anyway; its times need no zone from Slack.
      return client ? people.settleZone(client, slackUser, workspace) : { zone: config.companyTimeZone };
    },
    saveParams: (taskId, params) => stores.tasks.updateParams(taskId, params),
  };
  return { people, zones };
}

/** Every kind of a workspace's data, in the order an uninstall deletes it (workspaces/removal.ts). */
function workspaceData(parts: {
  stores: Stores;
  runner: TaskRunner<FleetSession>;
  people: People;
  workspaces: Workspaces;
  fleet: FleetAccounts;
  /** Redis mode: tells every replica to let go of the accounts nobody links any more. */
  queue: RedisTaskQueue | undefined;
  /** The Slack app, once started (its listeners keep per-workspace deps). */
  slack(): RunningSlackApp | undefined;
}): WorkspaceData[] {
  return [
    // Queued and running tasks first (nothing more is answered), then what they would have read.
    { name: "tasks", deleteWorkspace: (key) => parts.runner.forgetWorkspace(key) },
    { name: "linked accounts", deleteWorkspace: (key) => parts.stores.accounts.deleteWorkspace(key) },
    { name: "alerts", deleteWorkspace: (key) => parts.stores.alerts.deleteWorkspace(key) },
    {
      // Once its links are gone: the fleet accounts nobody links any more make no call again (their
      // sessions, tokens, lists, upkeep, waiting calls), on this replica and, announced, on every other.
      name: "fleet accounts",
      deleteWorkspace: async (key) => {
        const released = await parts.fleet.releaseUnused();
        await parts.queue?.announceRemoval(key);
        return released.length;
      },
    },
    { name: "settings", deleteWorkspace: (key) => parts.stores.settings.deleteWorkspace(key) },
    { name: "cached users", deleteWorkspace: (key) => parts.people.forgetWorkspace(key) },
    {
      // In Redis; in one process they live in the workspace's listener deps, dropped below.
      name: "link attempts",
      deleteWorkspace: (key) => {
        const shared = parts.stores.sharedState;
        return shared ? new LinkAttempts(shared).forgetWorkspace(key) : 0;
      },
    },
    {
      name: "clients",
      deleteWorkspace: (key) => {
        parts.workspaces.forget(key);
        parts.slack()?.forgetWorkspace(key);
      },
    },
  ];
}

/** The workspace removal, known once its parts exist; until then a dead token is remembered and handled then. */
function lateRemoval() {
  let removal: WorkspaceRemoval | undefined;
  const early: WorkspaceKey[] = [];
  return {
    tokenDead(key: WorkspaceKey): void {
      if (removal) void removal.tokenDead(key);
      else early.push(key);
    },
    /** A fresh install's leftovers (installs are served only once the removal is wired). */
    async purge(key: WorkspaceKey): Promise<void> {
      await removal?.purge(key, "installed anew");
    },
    idle: (): Promise<void> => removal?.idle() ?? Promise.resolve(),
    set(value: WorkspaceRemoval): WorkspaceRemoval {
      removal = value;
      for (const key of early.splice(0)) void value.tokenDead(key);
      return value;
    },
  };
}

/** A workspace's Web API client; WorkspaceGoneError when it is not (or no longer) installed. */
async function workspaceClient(
  workspaces: Workspaces,
  key: WorkspaceKey,
  kind?: ClientKind,
): Promise<WebClient> {
  const workspace = await workspaces.get(key);
  if (!workspace) throw new WorkspaceGoneError(key);
  return workspace.client(kind);
}

/** The command grammar's period reader, for tasks that read a typed period again in the user's settled zone. */
function readTypedPeriod(text: string, timeZone: string, now: Date) {
  const parsed = parsePeriodCore(text, { timeZone, now });
  return parsed.ok
    ? { fromMs: parsed.period.from.getTime(), toMs: parsed.period.to.getTime(), label: parsed.period.label }
    : undefined;
}

function healthRoutes(
  config: Config,
  parts: {
    health: HealthState;
    stores: Stores;
    metrics: FleetbotMetrics;
    alerts: ReturnType<typeof alertParts>;
    simulated: boolean;
  },
): HttpRoute[] {
  const { health, stores, metrics, alerts } = parts;
  const tickMs = cronTickMs(config.alerts.cron, config.companyTimeZone);
  const redisMemory = stores.redis?.modules.readRedisMemory;
  const redisConnection = stores.redis?.queue;
  // Read on each scrape: a full Redis with noeviction refuses every write.
  if (redisMemory && redisConnection) metrics.observeRedisMemory(() => redisMemory(redisConnection));
  const alertsHealth = async () => {
    if (health.alertsSince === undefined) return undefined;
    const lastSweepAt = alerts.schedule ? await alerts.schedule.lastSweepAt() : alerts.poller.lastRunAt;
    return sweepHealth({ lastSweepAt, startedAt: health.alertsSince, tickMs, now: Date.now() });
  };
  return [
    {
      path: "/healthz",
      handler: async (_req, res) => {
        const store = stores.health.check();
        const unfinished = await stores.tasks.countUnfinished().catch(() => undefined);
        // Multi-workspace mode depends on no one workspace's token: nothing to be refused.
        const ok = health.ready && (health.slack === "ok" || health.slack === "multi-workspace") && store.ok;
        const sweeps = await alertsHealth();
        const degraded = [
          ...(sweeps?.state === "late" ? ["alerts"] : []),
          ...(stores.redis && stores.redis.unsafe.length > 0 ? ["redis-config"] : []),
        ];
        const body = {
          ok,
          slack: health.slack,
          store: store.ok ? "ok" : store.reason,
          // Redis mode: whether this replica reaches Redis (its tasks, gate and queue live there).
          ...(stores.redis ? { redis: store.ok ? "ok" : store.reason } : {}),
          fleet: parts.simulated ? "simulator" : "configured",
          queue: { unfinished },
          ...(sweeps ? { alerts: sweeps } : {}),
          ...(stores.redis && stores.redis.unsafe.length > 0 ? { redisConfig: stores.redis.unsafe } : {}),
          ...(degraded.length > 0 ? { degraded } : {}),
        };
        res.writeHead(ok ? 200 : 503, { "content-type": "application/json" }).end(JSON.stringify(body));
      },
    },
    {
      path: "/metrics",
      handler: async (_req, res) => {
        const unfinished = await stores.tasks.countUnfinished().catch(() => undefined);
        if (unfinished !== undefined) metrics.queueDepth.set({ state: "unfinished" }, unfinished);
        res.writeHead(200, { "content-type": metrics.contentType }).end(await metrics.text());
      },
    },
  ];
}

/**
 * The Slack side, started: in multi-workspace mode the workspace removal (it needs the runner
 * and the people cache), the listeners' context, the Bolt app with its routes, and Slack's
 * health for /healthz.
 */
async function startSlack(
  config: Config,
  parts: Omit<Parameters<typeof slackContext>[1], "removal"> &
    Omit<Parameters<typeof startSlackSide>[1], "context" | "usedStates"> & {
      lateRemoval: ReturnType<typeof lateRemoval>;
      health: HealthState;
      queue: RedisTaskQueue | undefined;
    },
): Promise<RunningSlackApp> {
  const { stores, runner, people, workspaces, logger } = parts;
  const { fleet, queue } = parts;
  let slack: RunningSlackApp | undefined;
  const removal = workspaces.multi
    ? parts.lateRemoval.set(
        new WorkspaceRemoval({
          installations: stores.installations,
          data: workspaceData({ stores, runner, people, workspaces, fleet, queue, slack: () => slack }),
          logger: logger.child({ module: "workspaces" }),
        }),
      )
    : undefined;
  const context = slackContext(config, { ...parts, ...(removal ? { removal } : {}) });
  slack = await startSlackSide(config, {
    ...parts,
    context,
    usedStates: stores.sharedState ?? new MemorySharedState(),
  });
  parts.health.slack = await checkSlackToken(slack, workspaces, logger);
  return slack;
}

/** What the listeners are built from (listeners/index.ts narrows it per command family). */
/** The Slack app (HTTP or Socket Mode) with its routes; the sandbox page learns its address. */
async function startSlackSide(
  config: Config,
  parts: {
    slackSide: SlackSettings;
    routes: HttpRoute[];
    pendingAcks: PendingAcks;
    context: SlackContext;
    sandbox: { listening(url: string): void } | undefined;
    fleet: FleetAccounts;
    workspaces: Workspaces;
    usedStates: SharedState;
    logger: Logger;
  },
): Promise<RunningSlackApp> {
  const { slackSide, sandbox, workspaces } = parts;
  const oauth = config.slack.oauth;
  const site: PublicSite = {
    supportUrl: config.slack.supportUrl ?? "/privacy",
    taskRetentionDays: config.taskRetentionDays,
    auditRetentionDays: config.auditRetentionDays,
  };
  // Multi-workspace mode: Bolt's installer serves /slack/install and /slack/oauth_redirect.
  const install =
    oauth && workspaces instanceof InstalledWorkspaces
      ? installOptions({
          ...oauth,
          slackApiUrl: slackSide.apiUrl,
          installationStore: workspaces.boltInstallationStore(),
          usedStates: parts.usedStates,
          site,
        })
      : undefined;
  const slack = await startSlackApp({
    ...slackSide,
    port: config.port,
    // The sandbox page drives a fleet account with no sign-in: reachable from this machine only.
    ...(slackSide.fake ? { host: "127.0.0.1" } : {}),
    ...(install ? { install } : {}),
    routes: install ? [...parts.routes, ...publicRoutes(site)] : parts.routes,
    logger: parts.logger,
    pendingAcks: parts.pendingAcks,
    context: parts.context,
  });
  sandbox?.listening(slack.url);
  return slack;
}

function slackContext(
  config: Config,
  parts: {
    stores: Stores;
    client: FleetClient;
    fleet: FleetAccounts;
    runner: TaskRunner<FleetSession>;
    delivery: TaskDelivery;
    alerts: ReturnType<typeof alertParts>;
    people: People;
    workspaces: Workspaces;
    removal?: WorkspaceRemoval;
    logger: Logger;
  },
): SlackContext {
  const { stores, client, fleet, runner, delivery, alerts, people, workspaces, removal, logger } = parts;
  return {
    runner,
    tasks: stores.tasks,
    accounts: stores.accounts,
    auditHistory: (account, uit, limit) => stores.audit.history(account, uit, limit),
    fleetAccess: (account, slackUser, workspace) => fleet.accessOf({ account, slackUser, workspace }),
    client,
    vehicles: fleet.vehicles,
    people,
    delivery,
    credentialsKey: config.credentialsKey,
    companyTimeZone: config.companyTimeZone,
    defaultLanguage: config.defaultLanguage,
    settings: stores.settings,
    alerts: {
      subscriptions: alerts.subscriptions,
      store: stores.alerts,
      checkChannel: (channel, workspace) => alerts.publisher.checkChannel(channel, workspace),
      isMember: async (channel, userId, workspace) =>
        isChannelMember(await workspaceClient(workspaces, workspace), channel, userId),
    },
    workspaces,
    ...(config.slack.supportUrl ? { supportUrl: config.slack.supportUrl } : {}),
    ...(removal
      ? { installation: { uninstalled: (ids, eventTimeMs) => removal.uninstalled(ids, eventTimeMs) } }
      : {}),
    releaseAccount: (username) => fleet.release(username),
    warmVehicles: (account, slackUser, workspace) => fleet.warmVehicles({ account, slackUser, workspace }),
    cachedVehicles: async (account, slackUser, workspace) =>
      (await fleet.cachedListOf({ account, slackUser, workspace }))?.vehicles,
    storeHealth: stores.health,
    ...(stores.sharedState ? { sharedState: stores.sharedState } : {}),
    logger: logger.child({ module: "slack" }),
    now: () => Date.now(),
  };
}

/**
 * The sandbox page (no Slack configured): served beside /slack/events, it reaches the bot through
 * a driver that signs requests exactly as Slack does, which needs the bot's URL once it listens.
 */
async function sandboxPage(
  fake: FakeSlack,
  simulator: RunningSimulator | undefined,
  bot: Pick<SandboxDeps, "alertSchedule" | "fleetStatus">,
) {
  const [{ SlackDriver }, { sandboxRoutes }] = await Promise.all([
    import("./sandbox/fakeSlack/index.js"),
    import("./sandbox/web/index.js"),
  ]);
  let driver: InstanceType<typeof SlackDriver> | undefined;
  const page = sandboxRoutes({
    fake,
    simulator,
    ...bot,
    driver: () => {
      if (!driver) throw new Error("The bot is not listening yet");
      return driver;
    },
  });
  return {
    routes: page,
    listening(url: string) {
      driver = new SlackDriver({ botUrl: `${url}/slack/events`, fake });
    },
    close: () => page.close(),
  };
}

type SandboxFirstList = { status(): "connecting" | "ready" | "failed"; start(): Promise<void> };

/**
 * A newcomer opens the report form first thing: the sandbox fetches the demo account's vehicle list
 * before anything else (its login, then company-vehicles; the alert checks start after), and the page
 * says "connecting to the fleet service…" until the list is there.
 */
function sandboxFirstList(fleet: FleetAccounts): SandboxFirstList {
  const account = fleet.workspaceAccount?.username;
  let settled = account === undefined;
  let ready = account === undefined;
  let started: Promise<void> | undefined;
  return {
    // Once there, the list stays ready for the page, even when the cache lets it go later.
    status: () => {
      ready ||= account !== undefined && fleet.vehicles.peek(account) !== undefined;
      return ready ? "ready" : settled ? "failed" : "connecting";
    },
    start() {
      started ??=
        account === undefined
          ? Promise.resolve()
          : fleet.warmVehicles({ account }).finally(() => {
              settled = true;
            });
      return started;
    },
  };
}

/**
 * The alert schedule as the sandbox page tells it ("next alert check in 23 s"): node-cron's own
 * next run, or in Redis mode the expression's next tick; none while no schedule runs.
 */
function alertSchedule(config: Config, alerts: ReturnType<typeof alertParts>, health: HealthState) {
  const zone = config.companyTimeZone;
  const everyMs = cronTickMs(config.alerts.cron, zone);
  return () => {
    const running = health.alertsSince !== undefined;
    const nextCheckAt =
      alerts.poller.nextRunAt() ??
      (running && alerts.schedule ? nextCronRunMs(config.alerts.cron, zone) : undefined);
    return nextCheckAt === undefined ? { everyMs } : { nextCheckAt, everyMs };
  };
}

/** What runs on its own once the bot listens: resumed tasks, retention, the store probe, alerts. */
async function startBackground(
  config: Config,
  parts: {
    stores: Stores;
    runner: TaskRunner<FleetSession>;
    queue?: RedisTaskQueue;
    alerts: ReturnType<typeof alertParts>;
    fleet: FleetAccounts;
    options: StartOptions;
    sandboxed: boolean;
    /** The sandbox's first vehicle list: the alert checks wait for it (settles either way). */
    firstList?: Promise<void>;
    health: HealthState;
    logger: Logger;
  },
): Promise<{ stop(): void }> {
  const { stores, runner, alerts, fleet, options } = parts;
  await runner.resume();
  stores.retention.start();
  // A full or read-only disk is probed every 10 s until it takes writes; then interrupted tasks resume.
  stores.health.onRecovered(() => {
    runner.resume().catch((error: unknown) => parts.logger.error({ err: error }, "resuming tasks failed"));
  });
  const storeProbe = setInterval(() => stores.health.check(), 10_000);
  storeProbe.unref();
  // ALERTS_CHANNEL: alerts of the workspace account without anyone typing a command. In the
  // sandbox (no ALERTS_CHANNEL) the fake #alerts gets the demo account's through an ordinary
  // subscription: nobody set anything, so nothing in chat may be refused in a setting's name.
  const workspace = fleet.workspaceAccount?.username;
  if (config.alerts.channel && workspace)
    await alerts.subscriptions.ensureWorkspaceSubscription(config.alerts.channel, workspace);
  else if (parts.sandboxed && workspace) await alerts.subscriptions.seedSubscription("C0ALERTS", workspace);
  // Redis mode: this replica's workers take task jobs from now on (resumed ones included).
  await parts.queue?.start();
  let stopped = false;
  const startAlerts = async () => {
    if (stopped) return;
    parts.health.alertsSince = Date.now();
    if (alerts.schedule) {
      await alerts.schedule.start();
    } else {
      alerts.poller.start(config.alerts.cron);
      if (config.alerts.digestCron) alerts.poller.startDigest(config.alerts.digestCron);
    }
  };
  if (options.alertPolling !== false) {
    if (parts.firstList)
      void parts.firstList.then(startAlerts).catch((error: unknown) => {
        parts.logger.error({ err: error }, "starting the alert checks failed");
      });
    else await startAlerts();
  }
  return {
    stop() {
      stopped = true;
      clearInterval(storeProbe);
      stores.retention.stop();
    },
  };
}

async function checkSlackToken(
  slack: RunningSlackApp,
  workspaces: Workspaces,
  logger: Logger,
): Promise<string> {
  // Multi-workspace mode: /healthz depends on no one workspace's token.
  if (workspaces.multi) return "multi-workspace";
  try {
    await slack.client.auth.test();
    return "ok";
  } catch (error) {
    logger.error({ err: error }, "Slack rejected the bot token (auth.test)");
    return "auth.test failed";
  }
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
  const local = bot.url.replace("127.0.0.1", "localhost");
  logger.info(
    { url: bot.url, mode: config.slack.mode },
    `fleetbot listening on ${bot.url} (Slack requests: ${bot.url}/slack/events, health: ${bot.url}/healthz, metrics: ${bot.url}/metrics)`,
  );
  if (bot.fakeSlack) {
    logger.info(
      { sandbox: `${local}/` },
      `SANDBOX: no Slack workspace is configured, so fleetbot runs against a local fake Slack. Open ${local}/ to use it in your browser. ` +
        "To connect a real workspace instead, set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (HTTP mode) or SLACK_BOT_TOKEN and SLACK_APP_TOKEN (Socket Mode): see README." +
        (config.credentialsKeyThrowaway
          ? " CREDENTIALS_KEY is not set: the sandbox made a throw-away key for this run so that linking an account can be tried; links made with it are lost at the next start."
          : ""),
    );
  }
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
