import { pathToFileURL } from "node:url";
import type { WebClient } from "@slack/web-api";
import cron from "node-cron";
import { AlertPoller } from "./alerts/poller.js";
import type { AlertPublisher } from "./alerts/publisher.js";
import { createAlertWebClient, SlackAlertPublisher } from "./alerts/slackPublisher.js";
import { AlertSubscriptions } from "./alerts/subscriptions.js";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { describeTransportFailure } from "./etransport/failures.js";
import { FleetClient, type FleetSession } from "./fleet/client.js";
import { isApplicationFailureError, isFleetError, isUpstreamTransportError } from "./fleet/errors.js";
import type { Vehicle } from "./fleet/schemas.js";
import { createFleetGate } from "./gate/fleetGate.js";
import { createLogger, type Logger } from "./log.js";
import { FleetbotMetrics } from "./metrics.js";
import { type FakeSlack, SlackDriver, startFakeSlack } from "./sandbox/fakeSlack/index.js";
import { sandboxRoutes } from "./sandbox/web/index.js";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "./simulator/index.js";
import { type HttpRoute, type RunningSlackApp, startSlackApp } from "./slack/app.js";
import { TaskDelivery } from "./slack/delivery.js";
import { People } from "./slack/people.js";
import { describeTask, renderTask } from "./slack/renderers.js";
import { AccountStore, LinkedAccountUnreadableError } from "./store/accountStore.js";
import { AlertStore } from "./store/alertStore.js";
import { openDatabase, StoreError } from "./store/database.js";
import { StoreHealth } from "./store/health.js";
import { StoreRetention } from "./store/retention.js";
import { TaskStore } from "./store/taskStore.js";
import { AccountUpkeep } from "./tasks/accountUpkeep.js";
import { accountLinkHandler } from "./tasks/handlers/accountLink.js";
import { transportActionHandler } from "./tasks/handlers/transportActions.js";
import {
  transportFindHandler,
  transportListHandler,
  transportRemoveHandler,
  transportSaveHandler,
} from "./tasks/handlers/transports.js";
import { rezonePeriod, settlingUserZone, type UserZoneDeps, withZone } from "./tasks/handlers/userZone.js";
import { vehicleReportHandler } from "./tasks/handlers/vehicleData.js";
import { TaskRunner } from "./tasks/runner.js";
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
  /** The in-process fake Slack of the sandbox mode (no Slack configured). */
  fakeSlack?: FakeSlack;
  client: FleetClient;
  runner: TaskRunner<FleetSession>;
  tasks: TaskStore;
  vehicles: VehicleCache<Vehicle>;
  metrics: FleetbotMetrics;
  slack: RunningSlackApp;
  alerts: AlertPoller;
  delivery: TaskDelivery;
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
}

export async function startFleetbot(config: Config, options: StartOptions = {}): Promise<Fleetbot> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const metrics = new FleetbotMetrics();
  const db = openDatabase(config.dataDir);
  const tasks = new TaskStore(db);
  const accounts = new AccountStore(db, config.credentialsKey);
  const storeHealth = new StoreHealth(db);
  const unreadable = accounts.unreadable();
  if (unreadable.length > 0) {
    // One line for the operator; each affected user is told to link again when they next ask.
    logger.warn(
      { accounts: unreadable.length },
      `${unreadable.length} linked account${unreadable.length === 1 ? "" : "s"} cannot be decrypted with this CREDENTIALS_KEY` +
        (config.credentialsKey ? " (the key was changed)" : " (CREDENTIALS_KEY is not set)") +
        "; those users are asked to link again with /fleet login",
    );
  }

  let simulator: RunningSimulator | undefined;
  let fleetUrl = config.fleet.apiUrl;
  if (!fleetUrl) {
    simulator = await startSimulator({
      minIntervalMs: config.fleet.minIntervalMs,
      control: true,
      ...options.simulator,
      port: 0,
    });
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

  // The user's zone is settled in each task (issue 11 point 7): Slack's client exists once the app runs.
  const people = new People({ accounts, workspaceAccount, companyTimeZone: config.companyTimeZone });
  let slackClient: WebClient | undefined;
  const zones: UserZoneDeps = {
    settle: async (slackUser) =>
      slackClient ? people.settleZone(slackClient, slackUser) : { zone: config.companyTimeZone },
    saveParams: (taskId, params) => tasks.updateParams(taskId, params),
  };
  const runner = new TaskRunner<FleetSession>({
    store: tasks,
    gate,
    handlers: [
      settlingUserZone(
        vehicleReportHandler({ client, vehicles, intervalMs: config.fleet.minIntervalMs }),
        zones,
        rezonePeriod,
      ),
      settlingUserZone(transportActionHandler, zones, withZone),
      settlingUserZone(transportListHandler, zones, withZone),
      settlingUserZone(transportFindHandler, zones, withZone),
      settlingUserZone(transportSaveHandler, zones, withZone),
      transportRemoveHandler,
      accountLinkHandler({ client, accounts, key: config.credentialsKey }),
    ],
    sessionFor: async (task) => sessionFor(task),
    describeError,
    isRetryable: (error) => isUpstreamTransportError(error),
    logger: logger.child({ module: "tasks" }),
  });

  /** Stops keeping an account's session and token (refused login, last link removed). */
  const releaseAccount = (username: string) => {
    if (workspaceAccount?.username === username || accounts.isLinked(username)) return;
    sessions.delete(username);
    client.forget(username);
  };

  const upkeep = new AccountUpkeep({
    gate,
    vehicles,
    sessions: () => sessions.values(),
    onLoginRejected: (account) => {
      logger.warn(
        { account },
        "the fleet service refused this account's login; it is no longer kept logged in",
      );
      sessions.delete(account);
      client.forget(account);
    },
    tokenLeadMs: 5 * 60_000,
    logger: logger.child({ module: "upkeep" }),
  });
  const upkeepEveryMs = options.upkeepEveryMs ?? 15_000;
  const upkeepTimer = upkeepEveryMs > 0 ? setInterval(() => void upkeep.tick(), upkeepEveryMs) : undefined;
  upkeepTimer?.unref();

  let fakeSlack: FakeSlack | undefined;
  let slackSettings: {
    mode: "http" | "socket";
    botToken: string;
    signingSecret?: string;
    appToken?: string;
    apiUrl: string;
  };
  if (config.slack.mode === "sandbox") {
    fakeSlack = await startFakeSlack({ port: 0 });
    slackSettings = {
      mode: "http",
      botToken: fakeSlack.options.botToken,
      signingSecret: fakeSlack.options.signingSecret,
      apiUrl: fakeSlack.apiUrl,
    };
  } else {
    slackSettings = {
      mode: config.slack.mode,
      botToken: config.slack.botToken ?? "",
      signingSecret: config.slack.signingSecret,
      appToken: config.slack.appToken,
      apiUrl: config.slack.apiUrl,
    };
  }

  let ready = false;
  let slackState = "starting";
  let delivery: TaskDelivery | undefined;
  const routes: HttpRoute[] = [
    {
      path: "/healthz",
      handler: (_req, res) => {
        const store = storeHealth.check();
        const ok = ready && slackState === "ok" && store.ok;
        const body = {
          ok,
          slack: slackState,
          store: store.ok ? "ok" : store.reason,
          fleet: simulator ? "simulator" : "configured",
          queue: { unfinished: tasks.unfinished().length },
        };
        res.writeHead(ok ? 200 : 503, { "content-type": "application/json" }).end(JSON.stringify(body));
      },
    },
    {
      path: "/metrics",
      handler: async (_req, res) => {
        metrics.queueDepth.set({ state: "unfinished" }, tasks.unfinished().length);
        res.writeHead(200, { "content-type": metrics.contentType }).end(await metrics.text());
      },
    },
  ];

  // The sandbox page (no Slack configured): served beside /slack/events, it reaches the bot
  // through a driver that signs requests exactly as Slack does.
  let sandboxDriver: SlackDriver | undefined;
  const sandbox = fakeSlack
    ? sandboxRoutes({
        fake: fakeSlack,
        simulator,
        driver: () => {
          if (!sandboxDriver) throw new Error("The bot is not listening yet");
          return sandboxDriver;
        },
      })
    : undefined;
  if (sandbox) routes.push(...sandbox);

  const now = () => Date.now();
  const renderContext = {
    now,
    companyTimeZone: config.companyTimeZone,
    task: (id: string) => tasks.get(id),
  };
  // node-cron's own messages (an overlapping tick skipped…) go to the one log stream, at debug:
  // the poller already logs the skip in its own words.
  const cronLog = logger.child({ module: "node-cron" });
  cron.setLogger({
    info: (message) => cronLog.debug(message),
    warn: (message) => cronLog.debug(message),
    error: (message, err) => cronLog.error({ err: err ?? message }, String(message)),
    debug: (message) => cronLog.debug(String(message)),
  });

  const alertStore = new AlertStore(db);
  const retention = new StoreRetention({
    stores: { tasks, alerts: alertStore },
    taskRetentionDays: config.taskRetentionDays,
    logger: logger.child({ module: "retention" }),
  });
  const subscriptions = new AlertSubscriptions(alertStore);
  const alertPublisher = new SlackAlertPublisher({
    client: createAlertWebClient(slackSettings.botToken, { slackApiUrl: slackSettings.apiUrl }),
    timeZone: config.companyTimeZone,
  });
  const poller = new AlertPoller({
    store: alertStore,
    publisher: countingPublisher(alertPublisher, metrics),
    sessionFor: (who) => sessionFor(who),
    timeZone: config.companyTimeZone,
    logger: logger.child({ module: "alerts" }),
  });

  const slack = await startSlackApp({
    ...slackSettings,
    port: config.port,
    // The sandbox page drives a fleet account with no sign-in: reachable from this machine only.
    ...(fakeSlack ? { host: "127.0.0.1" } : {}),
    routes,
    logger,
    context: (webClient) => {
      slackClient = webClient;
      delivery = new TaskDelivery({
        client: webClient,
        store: tasks,
        runner,
        render: (task) => renderTask(task, renderContext),
        describe: describeTask,
        logger: logger.child({ module: "delivery" }),
        progressEveryMs: options.progressEveryMs,
      });
      delivery.attach();
      return {
        runner,
        tasks,
        accounts,
        client,
        vehicles,
        people,
        delivery,
        credentialsKey: config.credentialsKey,
        companyTimeZone: config.companyTimeZone,
        alerts: {
          subscriptions,
          store: alertStore,
          checkChannel: (channel) => alertPublisher.checkChannel(channel),
        },
        releaseAccount,
        warmVehicles: (account, slackUser) => {
          if (vehicles.peek(account)) return;
          try {
            sessionFor({ account, slackUser });
            vehicles.get(account, { priority: "interactive" }).catch(() => undefined);
          } catch (error) {
            logger.warn({ err: error, account }, "could not load the vehicle list");
          }
        },
        logger: logger.child({ module: "slack" }),
        now,
      };
    },
  });
  if (fakeSlack) sandboxDriver = new SlackDriver({ botUrl: `${slack.url}/slack/events`, fake: fakeSlack });
  try {
    await slack.client.auth.test();
    slackState = "ok";
  } catch (error) {
    slackState = "auth.test failed";
    logger.error({ err: error }, "Slack rejected the bot token (auth.test)");
  }

  runner.resume();
  retention.start();
  // ALERTS_CHANNEL: alerts of the workspace account without anyone typing a command; in the
  // sandbox the fake #alerts channel gets the demo account's.
  const alertsChannel = config.alerts.channel ?? (fakeSlack ? "C0ALERTS" : undefined);
  if (alertsChannel && workspaceAccount)
    subscriptions.ensureWorkspaceSubscription(alertsChannel, workspaceAccount.username);
  if (options.alertPolling !== false) {
    poller.start(config.alerts.cron);
    if (config.alerts.digestCron) poller.startDigest(config.alerts.digestCron);
  }
  ready = true;

  return {
    config,
    logger,
    fleetUrl,
    simulator,
    fakeSlack,
    client,
    runner,
    tasks,
    vehicles,
    metrics,
    slack,
    alerts: poller,
    delivery: delivery!,
    url: slack.url,
    async close() {
      ready = false;
      if (upkeepTimer) clearInterval(upkeepTimer);
      retention.stop();
      await poller.stop();
      await runner.stop();
      delivery?.stop();
      // Open event streams of the sandbox page would keep the HTTP server from closing.
      sandbox?.close();
      await slack.stop();
      await gate.close();
      await fakeSlack?.close();
      await simulator?.close();
      db.close();
    },
  };
}

const TRANSPORT_ENDPOINTS = new Set([
  "add-transport",
  "update-transport",
  "remove-transports",
  "start-transports",
  "pause-transports",
  "end-transports",
]);

/** Counts alert posts and their failures for /metrics, around any publisher. */
function countingPublisher(inner: AlertPublisher, metrics: FleetbotMetrics): AlertPublisher {
  const counted =
    <A extends unknown[], R>(outcome: string, fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        const result = await fn(...args);
        metrics.alertPosts.inc({ outcome });
        return result;
      } catch (error) {
        metrics.alertPosts.inc({ outcome: "failed" });
        throw error;
      }
    };
  return {
    ...inner,
    post: counted("posted", inner.post.bind(inner)),
    markResolved: counted("resolved", inner.markResolved.bind(inner)),
    replyResolved: counted("thread_reply", inner.replyResolved.bind(inner)),
    // A class's methods are not own properties: `...inner` alone would drop the digest.
    ...(inner.postDigest ? { postDigest: inner.postDigest.bind(inner) } : {}),
  };
}

/** What a user and support see of a failed task; fleet errors carry both already. */
export function describeError(error: unknown): TaskError {
  if (isApplicationFailureError(error) && error.errorCode && TRANSPORT_ENDPOINTS.has(error.endpoint)) {
    // e-Transport failures in a dispatcher's words, with what to do (codes as the service sent them).
    const described = describeTransportFailure(error.errorCode, error.errorParameters, error.correlationId);
    return {
      kind: error.kind,
      message: `${described.summary} ${described.advice}`.trim(),
      correlationId: error.correlationId,
    };
  }
  if (isFleetError(error)) {
    return { kind: error.kind, message: error.userMessage, correlationId: error.correlationId };
  }
  if (error instanceof LinkedAccountUnreadableError) return { kind: "credentials", message: error.message };
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
  const local = bot.url.replace("127.0.0.1", "localhost");
  logger.info(
    { url: bot.url, mode: config.slack.mode },
    `fleetbot listening on ${bot.url} (Slack requests: ${bot.url}/slack/events, health: ${bot.url}/healthz, metrics: ${bot.url}/metrics)`,
  );
  if (bot.fakeSlack) {
    logger.info(
      { sandbox: `${local}/` },
      `SANDBOX: no Slack workspace is configured, so fleetbot runs against a local fake Slack. Open ${local}/ to use it in your browser. ` +
        "To connect a real workspace instead, set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (HTTP mode) or SLACK_BOT_TOKEN and SLACK_APP_TOKEN (Socket Mode): see README.",
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
