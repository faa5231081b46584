import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  App,
  type Logger as BoltLogger,
  type CustomRoute,
  HTTPReceiver,
  LogLevel,
  SocketModeReceiver,
} from "@slack/bolt";
import type { CallbackOptions, InstallationStore, StateStore } from "@slack/oauth";
import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { SharedState } from "../store/sharedState.js";
import type { PendingAcks } from "./pendingAcks.js";
import { guardSlackRequests, MAX_BODY_BYTES } from "./requestGuard.js";
import { responseUrlAllowed, responseUrlsOf } from "./responseUrlPolicy.js";

export interface HttpRoute {
  path: string;
  /** Default GET. */
  method?: "GET" | "POST";
  handler(req: IncomingMessage, res: ServerResponse): void | Promise<void>;
}

/** Multi-workspace mode: Bolt's own installer (@slack/oauth's InstallProvider) serves the install. */
export interface SlackInstallOptions {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
  scopes: readonly string[];
  /** Bolt's view of the installations (tokens fresh, rotation handled by fleetbot: registry.ts). */
  installationStore: InstallationStore;
  /** Verifies `state` (signed, unexpired, used once). */
  stateStore: StateStore;
  /** Slack's authorize page (a fake Slack's in tests and the sandbox). */
  authorizationUrl: string;
  callbackOptions: CallbackOptions;
}

export interface SlackAppOptions {
  mode: "http" | "socket" | "multi";
  /** Single-workspace modes; empty in multi-workspace mode. */
  botToken: string;
  signingSecret?: string;
  appToken?: string;
  apiUrl: string;
  port: number;
  /** The interface to listen on (default: all; the sandbox passes 127.0.0.1). */
  host?: string;
  /** GET routes served beside /slack/events (health, metrics, sandbox). */
  routes: HttpRoute[];
  logger: Logger;
  /** Shared with the other replicas (Redis mode): the request guard's record of resends. */
  sharedState?: SharedState;
  /** Registers the listeners (the features', src/features/listeners.ts); manifest.yml declares the same. */
  register(app: App): { forgetWorkspace(key: string): void };
  /** HTTP mode: counts Slack requests until their ack is sent (tasks wait for them). */
  pendingAcks?: PendingAcks;
  /** Multi-workspace mode only. */
  install?: SlackInstallOptions;
}

export interface RunningSlackApp {
  app: App;
  client: WebClient;
  /** Base URL of the HTTP server (Slack requests in HTTP mode; health and metrics always). */
  url: string;
  /** Resolves when no listener is running (their work after the ack included). */
  idle(): Promise<void>;
  /** Drops the listeners' state of an uninstalled workspace. */
  forgetWorkspace(key: string): void;
  stop(): Promise<void>;
}

/** The host alone, for a log line (the rest of a response_url is a capability). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "(unreadable)";
  }
}

/**
 * Runs one of fleetbot's own HTTP routes: a handler that throws answers 500 and is logged, not
 * left as an unhandled rejection (which would end the process).
 */
export function serveRoute(
  route: HttpRoute,
  req: IncomingMessage,
  res: ServerResponse,
  logger: Logger,
): void {
  Promise.resolve()
    .then(() => route.handler(req, res))
    .catch((error: unknown) => {
      logger.error({ err: error, path: route.path }, "HTTP route failed");
      if (res.writableEnded) return;
      // Begun already: the answer is cut where it was; else a plain 500.
      if (res.headersSent) res.end();
      else res.writeHead(500, { "content-type": "text/plain" }).end("internal error");
    });
}

/** Bolt's logger interface on top of pino, so one log stream (and its redaction) serves both. */
function boltLogger(logger: Logger): BoltLogger {
  const child = logger.child({ module: "bolt" });
  return {
    // Bolt's debug lines can carry raw request bodies (a login modal's password among them):
    // they are dropped, never logged, whatever LOG_LEVEL says.
    debug: () => {},
    info: (...msg) => child.info(msg.map(String).join(" ")),
    warn: (...msg) => child.warn(msg.map(String).join(" ")),
    error: (...msg) => child.error(msg.map(String).join(" ")),
    setLevel: () => {},
    getLevel: () => LogLevel.INFO,
    setName: () => {},
  };
}

/** HTTP (single workspace) or multi-workspace mode: Bolt behind the request guard. */
function httpApp(options: SlackAppOptions, logger: BoltLogger, clientOptions: { slackApiUrl: string }): App {
  const install = options.mode === "multi" ? options.install : undefined;
  if (options.mode === "multi" && !install) throw new Error("multi-workspace mode needs the install options");
  const customRoutes: CustomRoute[] = options.routes.map((route) => ({
    path: route.path,
    method: [route.method ?? "GET"],
    handler: (req, res) => serveRoute(route, req, res, options.logger),
  }));
  const receiver = new HTTPReceiver({
    signingSecret: options.signingSecret ?? "",
    endpoints: "/slack/events",
    customRoutes,
    logger,
    // The guard below verifies every request before Bolt sees it and answers ssl_check itself.
    // Bolt checks again (about 0.1 ms an ack): with its check off, Bolt routed a payload
    // smuggled beside an ssl_check, so a gap in the guard must not be the only lock.
    signatureVerification: true,
    // The guard caps bodies at 1 MB before Bolt buffers anything; this is the same cap.
    bodyLimit: MAX_BODY_BYTES,
    ...(install ? installerOptions(install, clientOptions) : {}),
  });
  // Timestamps both ways, signature, content type and resends are settled before Bolt runs anything.
  receiver.requestListener = guardSlackRequests(receiver.requestListener, {
    signingSecret: options.signingSecret ?? "",
    path: "/slack/events",
    ...(options.sharedState ? { sharedState: options.sharedState } : {}),
    ...(options.pendingAcks ? { pendingAcks: options.pendingAcks } : {}),
    logger: options.logger.child({ module: "requests" }),
  });
  return install
    ? // No token: Bolt authorizes each request with its workspace's installation.
      new App({ receiver, clientOptions, logger, convoStore: false })
    : new App({ token: options.botToken, receiver, clientOptions, logger, convoStore: false });
}

/** Multi-workspace mode: the HTTP receiver's options of Bolt's own installer. */
function installerOptions(install: SlackInstallOptions, clientOptions: { slackApiUrl: string }) {
  return {
    clientId: install.clientId,
    clientSecret: install.clientSecret,
    stateSecret: install.stateSecret,
    scopes: [...install.scopes],
    installationStore: install.installationStore,
    installerOptions: {
      // /slack/install redirects to Slack at once (no interstitial page to click through).
      directInstall: true,
      stateStore: install.stateStore,
      // Bolt hands the installer these, not the App's clientOptions: oauth.v2.access at SLACK_API_URL.
      clientOptions,
      authorizationUrl: install.authorizationUrl,
      callbackOptions: install.callbackOptions,
    },
  };
}

/** Socket Mode: Bolt over Slack's WebSocket, no inbound HTTP. */
function socketApp(
  options: SlackAppOptions,
  logger: BoltLogger,
  clientOptions: { slackApiUrl: string },
): App {
  const receiver = new SocketModeReceiver({
    appToken: options.appToken ?? "",
    logger,
    installerOptions: { clientOptions },
  });
  return new App({
    token: options.botToken,
    receiver,
    socketMode: true,
    clientOptions,
    logger,
    convoStore: false,
  });
}

/** Counts the listeners still running after their ack (tests wait for them; shutdown could too). */
function trackRunning(app: App): () => Promise<void> {
  let running = 0;
  const idleWaiters: (() => void)[] = [];
  app.use(async ({ next }) => {
    running++;
    try {
      await next();
    } finally {
      running--;
      if (running === 0) for (const resolve of idleWaiters.splice(0)) resolve();
    }
  });
  return () =>
    running === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve));
}

/** Before any listener: a response_url on a host that is not Slack's is never answered to. */
function refuseForeignResponseUrls(app: App, options: SlackAppOptions): void {
  app.use(async (args) => {
    const foreign = responseUrlsOf(args.body).filter((url) => !responseUrlAllowed(url, options.apiUrl));
    if (foreign.length === 0) {
      await args.next();
      return;
    }
    options.logger.warn(
      { hosts: foreign.map(hostOf) },
      "Slack request refused: its response_url is not on Slack's hosts",
    );
    if ("ack" in args && typeof args.ack === "function") await args.ack();
  });
}

/** Starts the app; its HTTP server (Bolt's, or in Socket Mode a small one for health and metrics). */
async function listen(app: App, options: SlackAppOptions): Promise<Server> {
  if (options.mode !== "socket") {
    return (await app.start(
      options.host ? { port: options.port, host: options.host } : options.port,
    )) as Server;
  }
  await app.start();
  // Socket Mode has no inbound HTTP: health and metrics get a small server of their own.
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const route = options.routes.find((r) => r.path === path && req.method === (r.method ?? "GET"));
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    serveRoute(route, req, res, options.logger);
  });
  await new Promise<void>((resolve) =>
    server.listen({ port: options.port, ...(options.host ? { host: options.host } : {}) }, resolve),
  );
  return server;
}

/*
 * `convoStore: false` in both modes: no listener reads `context.conversation`, and Bolt's default
 * in-memory store answered every request by building and throwing a "Conversation not found"
 * error (a stack trace per ack) for nothing.
 */
export async function startSlackApp(options: SlackAppOptions): Promise<RunningSlackApp> {
  const logger = boltLogger(options.logger);
  const clientOptions = { slackApiUrl: options.apiUrl };
  const app =
    options.mode === "http" || options.mode === "multi"
      ? httpApp(options, logger, clientOptions)
      : socketApp(options, logger, clientOptions);
  const idle = trackRunning(app);
  refuseForeignResponseUrls(app, options);
  const listeners = options.register(app);
  app.error(async (error) => {
    options.logger.error({ err: error }, "Slack listener failed");
  });
  const server = await listen(app, options);
  const port = (server.address() as AddressInfo).port;
  return {
    app,
    client: app.client,
    url: `http://127.0.0.1:${port}`,
    forgetWorkspace: (key) => listeners.forgetWorkspace(key),
    idle,
    async stop() {
      await app.stop();
      if (options.mode === "socket") await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
