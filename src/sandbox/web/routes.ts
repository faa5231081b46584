/**
 * The sandbox page's HTTP side: the page and its assets, a JSON API that reads the fake
 * Slack's state, and actions that reach the bot only through SlackDriver — the signed HTTP
 * requests Slack itself sends. Served by the bot's own HTTP server beside /slack/events.
 *
 * Every API route needs the page's per-process token (see http.ts `refusal`).
 */

import { randomBytes } from "node:crypto";
import { vehicleExamples } from "../../commands/help.js";
import { messages } from "../../i18n/index.js";
import { isLanguage, type Language } from "../../i18n/language.js";
import type { TransportStatusId } from "../../platform/fleet/schemas.js";
import type { HttpRoute } from "../../platform/slack/app.js";
import {
  type Depot,
  destinationPoint,
  type RunningSimulator,
  type TransmissionCode,
  type VehicleControl,
  type VehicleControlView,
} from "../../simulator/index.js";
import { STATUS_NAMES, TRANSMISSION_CODES } from "../../simulator/transports.js";
import type { ElementInput, FakeSlack, SlackDriver } from "../fakeSlack/index.js";
import { dmIdFor } from "../fakeSlack/workspace.js";
import { loadSandboxAssets, type SandboxAssets } from "./assets.js";
import { ChangeFeed, versionFrame } from "./feed.js";
import {
  type Answer,
  guarded,
  hostRefusal,
  isObject,
  json,
  jsonPost,
  num,
  optional,
  query,
  send,
  str,
  strings,
} from "./http.js";
import { type FleetStatus, pageHtml } from "./page.js";
import { buildState, mimeTypeOf, SANDBOX_FILES_PATH } from "./state.js";

export interface SandboxDeps {
  fake: FakeSlack;
  /**
   * A driver pointed at the bot's /slack/events (or its Socket Mode connection); a function
   * when the bot's port is only known once it listens (the routes are mounted before).
   */
  driver: SlackDriver | (() => SlackDriver);
  /** The embedded fleet simulator: enables the Simulator panel. */
  simulator?: RunningSimulator;
  /** The bot's alert schedule: when the next check starts (absent: none scheduled) and how often. */
  alertSchedule?: () => { nextCheckAt?: number; everyMs: number };
  /**
   * Whether the bot has the demo account's vehicle list yet (absent: ready). Until it has, the page
   * says it is connecting to the fleet service, so a newcomer's first picker is not a surprise.
   */
  fleetStatus?: () => FleetStatus;
  /** The workspace user the page acts as. Default U0DISPATCH (the fake's first user). */
  userId?: string;
  /** The page's script and style sheet (default: read from assets/ now). */
  assets?: SandboxAssets;
}

/** The routes, plus `close()`: ends open event streams so the HTTP server can stop. */
export type SandboxRoutes = HttpRoute[] & { close(): void };

/** Transmission codes the Simulator panel may force (every code the service knows). */
const FORCEABLE = new Set<string>(TRANSMISSION_CODES);
const SLASH_COMMANDS = new Set(["/fleet", "/etransport"]);
const LONG_POLL_MS = 25_000;

/** What the Simulator panel lists about a transport. */
export interface SandboxTransport {
  codeUit: string;
  plate: string;
  status: string;
  /** The transmission status the simulator reports now. */
  transmission: string;
  /** The code forced from the panel, if any. */
  forced?: string;
  validityEnd: string;
  /** With `?lang=ro|en`: the status and the transmission as fleetbot's catalogue names them. */
  statusText?: string;
  transmissionText?: string;
}

/** What every route handler works with. */
interface Sandbox {
  fake: FakeSlack;
  simulator: RunningSimulator | undefined;
  userId: string;
  driver(): SlackDriver;
  feed: ChangeFeed;
  /** Transmission codes forced from the Simulator panel, by UIT. */
  forced: Map<string, TransmissionCode>;
  /** Transports the panel moved to status Error (hidden by load-transports), with the status they had. */
  hidden: Map<string, number>;
  /**
   * The language the user last chose through the page (its switch or a typed language command),
   * once the bot took it: the page's own words follow it. Not the bot's record (the bot keeps
   * its own, which the sandbox never reads or writes): only what this page sent.
   */
  language: Language | undefined;
  /** Tows waiting for the bot to see the vehicle parked first (ended by `close()`). */
  pendingTows: Set<NodeJS.Timeout>;
  /** The bot's alert schedule, to time a tow after the check that saw the vehicle parked. */
  alertSchedule: SandboxDeps["alertSchedule"];
}

export function sandboxRoutes(deps: SandboxDeps): SandboxRoutes {
  const { fake } = deps;
  const assets = deps.assets ?? loadSandboxAssets();
  const token = randomBytes(24).toString("base64url");
  const sandbox: Sandbox = {
    fake,
    simulator: deps.simulator,
    userId: deps.userId ?? fake.options.users[0]?.id ?? "U0DISPATCH",
    driver: () => (typeof deps.driver === "function" ? deps.driver() : deps.driver),
    feed: new ChangeFeed(fake),
    forced: new Map(),
    hidden: new Map(),
    language: undefined,
    pendingTows: new Set(),
    alertSchedule: deps.alertSchedule,
  };
  const api = (route: HttpRoute) => guarded(token, route);
  const post = (path: string, run: (body: Record<string, unknown>) => Promise<Answer>) =>
    jsonPost(token, path, run);

  const routes: HttpRoute[] = [
    pageRoute(
      token,
      () => sandbox.language,
      () => deps.fleetStatus?.() ?? "ready",
    ),
    ...assetRoutes(assets),
    api(stateRoute(sandbox)),
    api(eventsRoute(sandbox.feed)),
    post("/sandbox/command", (body) => runCommand(sandbox, body)),
    post("/sandbox/action", (body) => runAction(sandbox, body)),
    post("/sandbox/submit", (body) => runSubmission(sandbox, body)),
    post("/sandbox/suggest", (body) => runSuggestion(sandbox, body)),
    post("/sandbox/close", (body) => runViewClosed(sandbox, body)),
    post("/sandbox/home", () => runHomeOpened(sandbox)),
    post("/sandbox/language", (body) => chooseLanguage(sandbox, body)),
    post("/sandbox/timezone", async (body) => setTimeZone(sandbox, body)),
    api(filesRoute(sandbox.fake)),
    api(transportsRoute(sandbox)),
    post("/sandbox/simulate", async (body) => simulate(sandbox, body)),
    api(vehiclesRoute(sandbox)),
    post("/sandbox/vehicle", async (body) => controlVehicle(sandbox, body)),
    api(alertScheduleRoute(deps.alertSchedule)),
    api(fleetStatusRoute(deps.fleetStatus)),
  ];
  const close = () => {
    sandbox.feed.close();
    for (const timer of sandbox.pendingTows) clearTimeout(timer);
    sandbox.pendingTows.clear();
  };
  return Object.assign(routes, { close });
}

// -------------------------------------------------------------------- page, assets, state

function pageRoute(
  token: string,
  language: () => Language | undefined,
  fleetStatus: () => FleetStatus,
): HttpRoute {
  return {
    path: "/",
    handler: (req, res) => {
      const reason = hostRefusal(req);
      if (reason) send(res, 403, "text/plain; charset=utf-8", reason);
      else send(res, 200, "text/html; charset=utf-8", pageHtml(token, language(), fleetStatus()));
    },
  };
}

function assetRoutes(assets: SandboxAssets): HttpRoute[] {
  return [
    {
      path: "/sandbox/app.js",
      handler: (_req, res) => send(res, 200, "text/javascript; charset=utf-8", assets.appJs),
    },
    {
      path: "/sandbox/app.css",
      handler: (_req, res) => send(res, 200, "text/css; charset=utf-8", assets.appCss),
    },
  ];
}

/** GET /sandbox/state[?since=N]: with `since` = the current version it long-polls. */
function stateRoute(sandbox: Sandbox): HttpRoute {
  const { fake, userId, feed, simulator } = sandbox;
  // The demo account's own vehicles, in every example the page shows (none made up).
  const examples = simulator
    ? vehicleExamples(
        simulator.vehicles.map((v) => ({ vehicleId: v.vehicleId, vehicleRegistrationNumber: v.plate })),
      )
    : undefined;
  return {
    path: "/sandbox/state",
    handler: async (req, res) => {
      const since = Number(query(req).get("since") ?? "0");
      if (since >= feed.version) {
        // Long poll: answer at the next change (or after LONG_POLL_MS with the same version).
        await feed.waitForChange(LONG_POLL_MS, req);
        if (res.destroyed) return;
      }
      json(res, 200, buildState(fake, userId, feed.version, examples, sandbox.language));
    },
  };
}

/** GET /sandbox/events: Server-Sent Events, `version` after every change of the fake Slack. */
function eventsRoute(feed: ChangeFeed): HttpRoute {
  return {
    path: "/sandbox/events",
    handler: (req, res) => {
      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        connection: "keep-alive",
      });
      res.write(`retry: 1000\n${versionFrame(feed.version)}`);
      const remove = feed.addStream(res);
      const ping = setInterval(() => res.write(": ping\n\n"), 20_000);
      ping.unref();
      req.once("close", () => {
        clearInterval(ping);
        remove();
      });
    },
  };
}

function filesRoute(fake: FakeSlack): HttpRoute {
  return {
    path: SANDBOX_FILES_PATH,
    handler: (req, res) => {
      const params = query(req);
      const id = params.get("id") ?? "";
      const file = fake.files.find((f) => f.id === id && f.completed);
      if (!file?.bytes) {
        json(res, 404, { ok: false, error: "file_not_found" });
        return;
      }
      const type = mimeTypeOf(file.name);
      const download = params.get("download") === "1" || !type.startsWith("image/");
      res.writeHead(200, {
        "content-type": type,
        "content-length": String(file.bytes.length),
        "content-disposition": `${download ? "attachment" : "inline"}; filename="${file.name.replace(/["\\\r\n]/g, "_")}"`,
        "cache-control": "no-store",
      });
      res.end(file.bytes);
    },
  };
}

// -------------------------------------------------------------------- what a Slack client sends

async function runCommand(sandbox: Sandbox, body: Record<string, unknown>): Promise<Answer> {
  const { driver, userId } = sandbox;
  const channel = str(body.channel);
  const raw = str(body.text)?.trim() ?? "";
  const match = /^(\/\S+)\s*([\s\S]*)$/.exec(raw);
  if (!channel || !match) return [400, { ok: false, error: "Type a command such as /fleet help." }];
  const [, command = "", text = ""] = match;
  if (!SLASH_COMMANDS.has(command)) {
    return [400, { ok: false, error: `${command} is not a valid command. Try /fleet or /etransport.` }];
  }
  const result = await driver().slashCommand({ command, text, userId, channelId: channel });
  const answer = outcome(result);
  // Typed rather than switched: the page's own words follow all the same.
  const chosen = command === "/fleet" ? LANGUAGE_COMMAND.exec(text.trim())?.[1]?.toLowerCase() : undefined;
  if (answer.ok && isLanguage(chosen)) remember(sandbox, chosen);
  return [200, answer];
}

/** `/fleet language ro`, `/fleet limba en`, `/fleet limbă ro`: the user's own language. */
const LANGUAGE_COMMAND = /^(?:language|limba|limbă)\s+(ro|en)$/iu;

/**
 * The page's language switch: the sandbox user types `/fleet language ro|en` (signed like any
 * command, in the conversation open on the page, else their DM with the bot), and the bot
 * stores it as it would anyone's; the bot's confirmation lands in that conversation.
 */
async function chooseLanguage(sandbox: Sandbox, body: Record<string, unknown>): Promise<Answer> {
  const language = str(body.language);
  if (!isLanguage(language)) return [400, { ok: false, error: "language must be en or ro" }];
  const channel = str(body.channel) ?? dmIdFor(sandbox.userId);
  const result = await sandbox.driver().slashCommand({
    command: "/fleet",
    text: `language ${language}`,
    userId: sandbox.userId,
    channelId: channel,
  });
  const answer = outcome(result);
  if (answer.ok) remember(sandbox, language);
  return [200, { ...answer, language: answer.ok ? language : (sandbox.language ?? null) }];
}

function remember(sandbox: Sandbox, language: Language): void {
  if (sandbox.language === language) return;
  sandbox.language = language;
  sandbox.feed.touch();
}

async function runAction({ driver, userId }: Sandbox, body: Record<string, unknown>): Promise<Answer> {
  const actionId = str(body.actionId);
  if (!actionId) return [400, { ok: false, error: "actionId is required" }];
  const result = await driver().blockAction({
    userId,
    actionId,
    ...optional("blockId", str(body.blockId)),
    ...optional("viewId", str(body.viewId)),
    ...optional("channelId", str(body.channel)),
    ...optional("messageTs", str(body.ts)),
    ...optional("value", input(body.value)),
    ...optional("selectedOption", str(body.selectedOption)),
    ...optional("selectedOptions", strings(body.selectedOptions)),
    ...optional("selectedDate", str(body.selectedDate)),
    ...optional("selectedTime", str(body.selectedTime)),
    ...optional("selectedDateTime", num(body.selectedDateTime)),
  });
  return [200, outcome(result)];
}

/** `values` = `{block_id: {action_id: value}}`; untouched inputs keep their initial values. */
async function runSubmission(
  { driver, userId, fake }: Sandbox,
  body: Record<string, unknown>,
): Promise<Answer> {
  const viewId = str(body.viewId);
  if (!viewId) return [400, { ok: false, error: "viewId is required" }];
  const values: Record<string, Record<string, ElementInput>> = {};
  if (isObject(body.values)) {
    for (const [blockId, actions] of Object.entries(body.values)) {
      if (!isObject(actions)) continue;
      for (const [actionId, value] of Object.entries(actions)) {
        values[blockId] = { ...values[blockId], [actionId]: input(value) };
      }
    }
  }
  const result = await driver().viewSubmission({ userId, viewId, values });
  return [200, { ...outcome(result), errors: fake.views.get(viewId)?.errors ?? {} }];
}

async function runSuggestion({ driver, userId }: Sandbox, body: Record<string, unknown>): Promise<Answer> {
  const actionId = str(body.actionId);
  if (!actionId) return [400, { ok: false, error: "actionId is required" }];
  const result = await driver().blockSuggestion({
    userId,
    actionId,
    value: str(body.value) ?? "",
    ...optional("blockId", str(body.blockId)),
    ...optional("viewId", str(body.viewId)),
    ...optional("channelId", str(body.channel)),
    ...optional("messageTs", str(body.ts)),
  });
  const answer = isObject(result.body) ? result.body : {};
  return [
    200,
    {
      ...outcome(result),
      options: Array.isArray(answer.options) ? answer.options : [],
      ...(Array.isArray(answer.option_groups) ? { option_groups: answer.option_groups } : {}),
    },
  ];
}

async function runViewClosed({ driver, userId }: Sandbox, body: Record<string, unknown>): Promise<Answer> {
  const viewId = str(body.viewId);
  if (!viewId) return [400, { ok: false, error: "viewId is required" }];
  const result = await driver().viewClosed({ userId, viewId });
  return [200, outcome(result)];
}

async function runHomeOpened({ driver, userId }: Sandbox): Promise<Answer> {
  const result = await driver().appHomeOpened({ userId, tab: "home" });
  return [200, outcome(result)];
}

/** The page's zone becomes the user's Slack zone, as Slack sets it from the device. */
function setTimeZone({ fake, userId }: Sandbox, body: Record<string, unknown>): Answer {
  const zone = str(body.timeZone);
  const user = fake.workspace.users.get(userId);
  if (!zone || !user || !validZone(zone)) return [400, { ok: false, error: "unknown time zone" }];
  user.tz = zone;
  return [200, { ok: true, timeZone: zone }];
}

// -------------------------------------------------------------------- the Simulator panel

/** `?lang=ro|en`: each transport's status and transmission also named as fleetbot's catalogue names them. */
function transportsRoute({ simulator, forced, hidden }: Sandbox): HttpRoute {
  return {
    path: "/sandbox/transports",
    handler: (req, res) => {
      const lang = query(req).get("lang");
      if (!simulator) json(res, 200, { ok: true, simulator: false, transports: [] });
      else
        json(res, 200, {
          ok: true,
          simulator: true,
          transports: listTransports(simulator, forced, hidden, isLanguage(lang) ? lang : undefined),
        });
    },
  };
}

/**
 * Forces a transport's transmission status (`transmissionStatusCode`), or releases it ("clear");
 * or (`status`) moves it to Error, as the platform does with a rejected transport, so that
 * load-transports stops listing it ("error"), and back to the status it had ("restore").
 */
function simulate({ simulator, forced, hidden }: Sandbox, body: Record<string, unknown>): Answer {
  if (!simulator) return [404, { ok: false, error: "no simulator: fleetbot runs on a real fleet service" }];
  const codeUit = str(body.codeUit);
  const code = str(body.transmissionStatusCode);
  const status = str(body.status);
  if (!codeUit) return [400, { ok: false, error: "codeUit is required" }];
  // The list it answers with, named in the page's language (as GET /sandbox/transports?lang=).
  const lang = isLanguage(body.lang) ? body.lang : undefined;
  let found: boolean;
  if (status !== undefined) {
    const t = simulator.control.transports().find((x) => x.codeUit === codeUit);
    if (!t) return [404, { ok: false, error: `no transport ${codeUit}` }];
    if (status === "error") {
      if (t.statusId !== ERROR_STATUS) hidden.set(codeUit, t.statusId);
      simulator.control.setTransport(codeUit, { statusId: ERROR_STATUS });
    } else if (status === "restore") {
      // Only what the panel hid: any other transport keeps the status the service gave it.
      const before = hidden.get(codeUit);
      if (before === undefined) return [409, { ok: false, error: `${codeUit} was not moved to Error here` }];
      simulator.control.setTransport(codeUit, { statusId: before });
      hidden.delete(codeUit);
    } else {
      return [400, { ok: false, error: "status must be error or restore" }];
    }
    return [200, { ok: true, transports: listTransports(simulator, forced, hidden, lang) }];
  }
  if (code === "clear") {
    found = simulator.control.setTransport(codeUit, { clear: true });
    forced.delete(codeUit);
  } else if (code && isForceable(code)) {
    found = simulator.control.setTransport(codeUit, { transmissionStatusCode: code });
    if (found) forced.set(codeUit, code);
  } else {
    return [400, { ok: false, error: `transmissionStatusCode must be one of ${[...FORCEABLE].join(", ")}` }];
  }
  if (!found) return [404, { ok: false, error: `no transport ${codeUit}` }];
  return [200, { ok: true, transports: listTransports(simulator, forced, hidden, lang) }];
}

/** Whether the bot holds the demo account's vehicle list yet: the page polls it until it does. */
function fleetStatusRoute(status: SandboxDeps["fleetStatus"]): HttpRoute {
  return {
    path: "/sandbox/fleet-status",
    handler: (_req, res) => {
      json(res, 200, { ok: true, status: status?.() ?? "ready" });
    },
  };
}

/**
 * When the bot checks alerts next, for the panel's "next alert check in 23 s": `now` is the
 * server's clock, so the page counts down without trusting its own.
 */
function alertScheduleRoute(schedule: SandboxDeps["alertSchedule"]): HttpRoute {
  return {
    path: "/sandbox/alert-schedule",
    handler: (_req, res) => {
      const known = schedule?.();
      json(res, 200, {
        ok: true,
        now: Date.now(),
        nextCheckAt: known?.nextCheckAt ?? null,
        everyMs: known?.everyMs ?? null,
      });
    },
  };
}

/** The status the panel sets: Error (hidden by load-transports). */
const ERROR_STATUS = 5;

function isForceable(code: string): code is TransmissionCode {
  return FORCEABLE.has(code);
}

function listTransports(
  simulator: RunningSimulator,
  forced: Map<string, TransmissionCode>,
  hidden: Map<string, number> = new Map(),
  language?: Language,
): SandboxTransport[] {
  const names = language ? messages(language).etransport : undefined;
  const { control, vehicles } = simulator;
  const now = control.now();
  const plates = new Map(vehicles.map((v) => [v.vehicleUId, v.plate]));
  const order: Record<number, number> = { 2: 0, 6: 1, 1: 2, 5: 3 };
  return (
    control
      .transports()
      // Error ones only when the panel moved them there (so they can be restored).
      .filter(
        (t) =>
          order[t.statusId] !== undefined &&
          t.validityEndDate > now &&
          (t.statusId !== ERROR_STATUS || hidden.has(t.codeUit)),
      )
      .sort(
        (a, b) => (order[a.statusId] ?? 9) - (order[b.statusId] ?? 9) || a.codeUit.localeCompare(b.codeUit),
      )
      .slice(0, 40)
      .map((t) => {
        const code = forced.get(t.codeUit);
        // The service's own view (trips, borders, quiet start), unless the panel forced a code.
        const transmission = code ?? control.transmission(t.codeUit)?.code ?? "Active";
        return {
          codeUit: t.codeUit,
          plate: plates.get(t.vehicleUId) ?? t.carrierCode,
          status: STATUS_NAMES[t.statusId] ?? String(t.statusId),
          transmission,
          ...(code ? { forced: code } : {}),
          validityEnd: new Date(t.validityEndDate).toISOString(),
          ...(names
            ? {
                statusText: names.transportStatus(t.statusId as TransportStatusId),
                transmissionText: names.transmissionStatus(transmission),
              }
            : {}),
        };
      })
  );
}

// -------------------------------------------------------------------- the Simulator panel: vehicles

/**
 * The sandbox's demo zone: a circle around the București depot, where the day plans park the
 * București vehicles at night. The panel's "Drive into" / "Drive out of" buttons place a vehicle
 * at its centre / 3 km away (well outside the radius).
 */
export const DEMO_ZONE = { name: "Depou București", radiusMeters: 500 } as const;
const LEAVE_ZONE_KM = 3;
/** How much the "Warm reefer" button raises a reefer above its set point, °C. */
const WARM_REEFER_BY_C = 12;
const DEMO_SPEED_KMH = 120;
const DEMO_TOW_METERS = 2000;
/** A parked-first tow gives up if no alert check reads the vehicles within this long. */
const TOW_WAIT_MS = 5 * 60_000;
const TOW_POLL_MS = 500;

/** What the panel's vehicle buttons send (`POST /sandbox/vehicle {vehicleId, action}`). */
export const VEHICLE_ACTIONS = [
  "cutPower",
  "restorePower",
  "enterZone",
  "leaveZone",
  "idle",
  "speed",
  "silent",
  "tow",
  "warmReefer",
  "normal",
] as const;
export type VehicleAction = (typeof VEHICLE_ACTIONS)[number];

/** What the Simulator panel shows of a vehicle. */
export interface SandboxVehicle {
  vehicleId: number;
  plate: string;
  name: string;
  reefer: boolean;
  speed: number;
  engineOn: boolean;
  voltage: number;
  /** The last GPS report as company-vehicles writes it (company local time). */
  gpsDate: string;
  address: string;
  /** The overrides in force (empty: the day plans). */
  controls: VehicleControlView;
}

function isVehicleAction(value: unknown): value is VehicleAction {
  return typeof value === "string" && (VEHICLE_ACTIONS as readonly string[]).includes(value);
}

/** The depot the demo zone is drawn around (București: the depots' first). */
function zoneDepot(simulator: RunningSimulator): Depot {
  return simulator.depots.find((d) => d.town === "București") ?? simulator.depots[0]!;
}

function demoZone(simulator: RunningSimulator) {
  const depot = zoneDepot(simulator);
  return { ...DEMO_ZONE, latitude: depot.latitude, longitude: depot.longitude };
}

/** GET /sandbox/vehicles: the fleet as the simulator reports it now, with the demo zone. */
function vehiclesRoute({ simulator }: Sandbox): HttpRoute {
  return {
    path: "/sandbox/vehicles",
    handler: (_req, res) => {
      if (!simulator) json(res, 200, { ok: true, simulator: false, vehicles: [] });
      else
        json(res, 200, {
          ok: true,
          simulator: true,
          zone: demoZone(simulator),
          vehicles: simulator.vehicles.flatMap((v) => {
            const shown = sandboxVehicle(simulator, v.vehicleId);
            return shown ? [shown] : [];
          }),
        });
    },
  };
}

function sandboxVehicle(simulator: RunningSimulator, vehicleId: number): SandboxVehicle | undefined {
  const v = simulator.vehicles.find((x) => x.vehicleId === vehicleId);
  const record = simulator.control.vehicle(vehicleId);
  if (!v || !record) return undefined;
  return {
    vehicleId,
    plate: v.plate,
    name: v.name,
    reefer: v.reefer !== undefined,
    speed: record.speed,
    engineOn: record.engineEvent === 1,
    voltage: record.externalPowerVoltage,
    gpsDate: record.gpsDate,
    address: record.address,
    controls: simulator.control.vehicleControls(vehicleId) ?? {},
  };
}

/** The simulator control a button sends (the tow is handled apart: it may park first). */
function controlFor(
  action: Exclude<VehicleAction, "tow" | "warmReefer">,
  simulator: RunningSimulator,
): VehicleControl {
  const zone = demoZone(simulator);
  switch (action) {
    case "cutPower":
      return { power: "cut" };
    case "restorePower":
      return { power: "restored" };
    case "enterZone":
      return { place: { latitude: zone.latitude, longitude: zone.longitude } };
    case "leaveZone": {
      // North-east of the depot, off the roads the day plans drive out on.
      const out = destinationPoint({ lat: zone.latitude, lon: zone.longitude }, 45, LEAVE_ZONE_KM);
      return { place: { latitude: round6(out.lat), longitude: round6(out.lon) } };
    }
    case "idle":
      return { idle: true };
    case "speed":
      return { speedKmh: DEMO_SPEED_KMH };
    case "silent":
      // Silent for two hours already: the Offline alert (offline= 60 min by default) shows at the next check.
      return { silent: { minutesAgo: 120 } };
    default:
      return { clear: true };
  }
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * POST /sandbox/vehicle {vehicleId, action}: one of the panel's vehicle buttons, as a simulator
 * control (`sim.control.setVehicle`). Answers the vehicle as the simulator reports it afterwards,
 * and `step: "parked"` when a tow has to wait (see `tow`).
 */
function controlVehicle(sandbox: Sandbox, body: Record<string, unknown>): Answer {
  const { simulator } = sandbox;
  if (!simulator) return [404, { ok: false, error: "no simulator: fleetbot runs on a real fleet service" }];
  const vehicleId = num(body.vehicleId);
  const action = body.action;
  if (vehicleId === undefined) return [400, { ok: false, error: "vehicleId (a number) is required" }];
  if (!isVehicleAction(action))
    return [400, { ok: false, error: `action must be one of ${VEHICLE_ACTIONS.join(", ")}` }];
  const v = simulator.vehicles.find((x) => x.vehicleId === vehicleId);
  if (!v) return [404, { ok: false, error: `no vehicle ${vehicleId}` }];
  let step: "done" | "parked" = "done";
  if (action === "tow") step = tow(sandbox, simulator, vehicleId);
  else if (action === "warmReefer") {
    if (!v.reefer)
      return [400, { ok: false, error: `${v.plate} is not a reefer: it has no temperature sensors` }];
    simulator.control.setVehicle(vehicleId, { reeferTemperature: v.reefer.setPointC + WARM_REEFER_BY_C });
  } else simulator.control.setVehicle(vehicleId, controlFor(action, simulator));
  return [200, { ok: true, action, step, vehicle: sandboxVehicle(simulator, vehicleId) }];
}

/**
 * A tow is seen only between two alert checks that both find the engine off. A vehicle with its
 * engine running is first parked where it is (engine off); the tow follows once an alert check
 * has read company-vehicles after that ("parked"). A parked one is towed at once ("done").
 */
function tow(sandbox: Sandbox, simulator: RunningSimulator, vehicleId: number): "done" | "parked" {
  const shown = simulator.control.vehicle(vehicleId);
  if (shown && shown.engineEvent !== 1) {
    simulator.control.setVehicle(vehicleId, { tow: { meters: DEMO_TOW_METERS } });
    return "done";
  }
  if (shown)
    simulator.control.setVehicle(vehicleId, {
      place: { latitude: shown.latitude, longitude: shown.longitude },
    });
  const parkedAt = simulator.control.now();
  // The check after the park: the next scheduled one (on the sim clock), else any read after now.
  const nextCheck = sandbox.alertSchedule?.().nextCheckAt;
  const seenAfter =
    nextCheck === undefined ? parkedAt : Math.max(parkedAt, nextCheck + (parkedAt - Date.now()));
  const giveUpAt = Date.now() + TOW_WAIT_MS;
  const poll = () => {
    const timer = setTimeout(() => {
      sandbox.pendingTows.delete(timer);
      if (vehiclesReadSince(simulator, seenAfter))
        simulator.control.setVehicle(vehicleId, { tow: { meters: DEMO_TOW_METERS } });
      else if (Date.now() < giveUpAt) poll();
    }, TOW_POLL_MS);
    timer.unref();
    sandbox.pendingTows.add(timer);
  };
  poll();
  return "parked";
}

/** Whether company-vehicles was answered for a request that arrived at or after `since` (sim time). */
function vehiclesReadSince(simulator: RunningSimulator, since: number): boolean {
  return simulator.control
    .requests(500)
    .some((r) => r.endpoint === "company-vehicles" && r.status === 200 && Date.parse(r.at) >= since);
}

// -------------------------------------------------------------------- helpers

/** What the page needs of a DriverResult: did the bot answer in time, and did Slack accept it. */
function outcome(result: { status: number; timedOut: boolean; rejected?: string }): Record<string, unknown> {
  const ok = !result.timedOut && (result.status === 200 || result.status === 0) && !result.rejected;
  return {
    ok,
    status: result.status,
    ...(result.timedOut ? { error: "The app did not respond in time (operation_timeout)." } : {}),
    ...(result.rejected ? { error: `Slack refused the app's answer: ${result.rejected}` } : {}),
    ...(!result.timedOut && result.status !== 200 && result.status !== 0
      ? { error: `The app answered HTTP ${result.status} (dispatch_failed).` }
      : {}),
  };
}

function input(value: unknown): ElementInput {
  if (typeof value === "string" || typeof value === "number") return value;
  if (value === null) return null;
  return strings(value);
}

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
