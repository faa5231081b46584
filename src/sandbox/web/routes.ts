/**
 * The sandbox page's HTTP side: the page and its assets, a JSON API that reads the fake
 * Slack's state, and actions that reach the bot only through SlackDriver — the signed HTTP
 * requests Slack itself sends. Served by the bot's own HTTP server beside /slack/events.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RunningSimulator, TransmissionCode } from "../../simulator/index.js";
import { STATUS_NAMES, TRANSMISSION_CODES, transmissionAt } from "../../simulator/transports.js";
import type { HttpRoute } from "../../slack/app.js";
import type { ElementInput, FakeSlack, SlackDriver } from "../fakeSlack/index.js";
import type { ChangeEvent } from "../fakeSlack/types.js";
import { APP_CSS } from "./assets/appCss.js";
import { APP_JS } from "./assets/appJs.js";
import { pageHtml } from "./page.js";
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
  /** The workspace user the page acts as. Default U0DISPATCH (the fake's first user). */
  userId?: string;
}

/** The routes, plus `close()`: ends open event streams so the HTTP server can stop. */
export type SandboxRoutes = HttpRoute[] & { close(): void };

/** Transmission codes the Simulator panel may force (every code the service knows). */
const FORCEABLE = new Set<string>(TRANSMISSION_CODES);
const SLASH_COMMANDS = new Set(["/fleet", "/etransport"]);
const MAX_BODY = 1 << 20;
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
}

export function sandboxRoutes(deps: SandboxDeps): SandboxRoutes {
  const { fake, simulator } = deps;
  const driverOf = (): SlackDriver => (typeof deps.driver === "function" ? deps.driver() : deps.driver);
  const userId = deps.userId ?? fake.options.users[0]?.id ?? "U0DISPATCH";
  let version = 1;
  const streams = new Set<ServerResponse>();
  const waiters = new Set<() => void>();
  const forced = new Map<string, TransmissionCode>();
  let pending: NodeJS.Timeout | undefined;

  const notify = () => {
    pending = undefined;
    version += 1;
    const frame = `event: version\ndata: ${JSON.stringify({ version })}\n\n`;
    for (const res of streams) res.write(frame);
    for (const wake of [...waiters]) wake();
  };
  const unsubscribe = fake.onChange((event: ChangeEvent) => {
    if (event.kind === "call" || event.kind === "response" || event.kind === "socket") return;
    // Changes come in bursts (a post, then its file); one notification per burst.
    pending ??= setTimeout(notify, 15);
  });

  const state = () => buildState(fake, userId, version);

  const routes: HttpRoute[] = [
    {
      path: "/",
      handler: (_req, res) => send(res, 200, "text/html; charset=utf-8", pageHtml()),
    },
    {
      path: "/sandbox/app.js",
      handler: (_req, res) => send(res, 200, "text/javascript; charset=utf-8", APP_JS),
    },
    {
      path: "/sandbox/app.css",
      handler: (_req, res) => send(res, 200, "text/css; charset=utf-8", APP_CSS),
    },
    {
      path: "/sandbox/state",
      handler: async (req, res) => {
        const since = Number(query(req).get("since") ?? "0");
        if (since >= version) {
          // Long poll: answer at the next change (or after LONG_POLL_MS with the same version).
          await new Promise<void>((resolve) => {
            const done = () => {
              clearTimeout(timer);
              waiters.delete(done);
              resolve();
            };
            const timer = setTimeout(done, LONG_POLL_MS);
            waiters.add(done);
            req.once("close", done);
          });
          if (res.destroyed) return;
        }
        json(res, 200, state());
      },
    },
    {
      path: "/sandbox/events",
      handler: (req, res) => {
        res.writeHead(200, {
          "content-type": "text/event-stream; charset=utf-8",
          "cache-control": "no-store",
          connection: "keep-alive",
        });
        res.write(`retry: 1000\nevent: version\ndata: ${JSON.stringify({ version })}\n\n`);
        streams.add(res);
        const ping = setInterval(() => res.write(": ping\n\n"), 20_000);
        ping.unref();
        req.once("close", () => {
          clearInterval(ping);
          streams.delete(res);
        });
      },
    },
    post("/sandbox/command", async (body) => {
      const channel = str(body.channel);
      const raw = str(body.text)?.trim() ?? "";
      const match = /^(\/\S+)\s*([\s\S]*)$/.exec(raw);
      if (!channel || !match) return [400, { ok: false, error: "Type a command such as /fleet help." }];
      const [, command = "", text = ""] = match;
      if (!SLASH_COMMANDS.has(command)) {
        return [400, { ok: false, error: `${command} is not a valid command. Try /fleet or /etransport.` }];
      }
      const result = await driverOf().slashCommand({ command, text, userId, channelId: channel });
      return [200, outcome(result)];
    }),
    post("/sandbox/action", async (body) => {
      const actionId = str(body.actionId);
      if (!actionId) return [400, { ok: false, error: "actionId is required" }];
      const result = await driverOf().blockAction({
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
    }),
    post("/sandbox/submit", async (body) => {
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
      const result = await driverOf().viewSubmission({ userId, viewId, values });
      return [200, { ...outcome(result), errors: fake.views.get(viewId)?.errors ?? {} }];
    }),
    post("/sandbox/suggest", async (body) => {
      const actionId = str(body.actionId);
      if (!actionId) return [400, { ok: false, error: "actionId is required" }];
      const result = await driverOf().blockSuggestion({
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
    }),
    post("/sandbox/close", async (body) => {
      const viewId = str(body.viewId);
      if (!viewId) return [400, { ok: false, error: "viewId is required" }];
      const result = await driverOf().viewClosed({ userId, viewId });
      return [200, outcome(result)];
    }),
    post("/sandbox/home", async () => {
      const result = await driverOf().appHomeOpened({ userId, tab: "home" });
      return [200, outcome(result)];
    }),
    post("/sandbox/timezone", async (body) => {
      // The page's zone becomes the user's Slack zone, as Slack sets it from the device.
      const zone = str(body.timeZone);
      const user = fake.workspace.users.get(userId);
      if (!zone || !user || !validZone(zone)) return [400, { ok: false, error: "unknown time zone" }];
      user.tz = zone;
      return [200, { ok: true, timeZone: zone }];
    }),
    {
      path: SANDBOX_FILES_PATH,
      handler: (req, res) => {
        const id = query(req).get("id") ?? "";
        const file = fake.files.find((f) => f.id === id && f.completed);
        if (!file?.bytes) {
          json(res, 404, { ok: false, error: "file_not_found" });
          return;
        }
        const type = mimeTypeOf(file.name);
        const download = query(req).get("download") === "1" || !type.startsWith("image/");
        res.writeHead(200, {
          "content-type": type,
          "content-length": String(file.bytes.length),
          "content-disposition": `${download ? "attachment" : "inline"}; filename="${file.name.replace(/["\\\r\n]/g, "_")}"`,
          "cache-control": "no-store",
        });
        res.end(file.bytes);
      },
    },
    {
      path: "/sandbox/transports",
      handler: (_req, res) => {
        if (!simulator) {
          json(res, 200, { ok: true, simulator: false, transports: [] });
          return;
        }
        json(res, 200, { ok: true, simulator: true, transports: listTransports(simulator, forced) });
      },
    },
    post("/sandbox/simulate", async (body) => {
      if (!simulator)
        return [404, { ok: false, error: "no simulator: fleetbot runs on a real fleet service" }];
      const codeUit = str(body.codeUit);
      const code = str(body.transmissionStatusCode);
      if (!codeUit) return [400, { ok: false, error: "codeUit is required" }];
      let found: boolean;
      if (code === "clear") {
        found = simulator.control.setTransport(codeUit, { clear: true });
        forced.delete(codeUit);
      } else if (code && FORCEABLE.has(code)) {
        found = simulator.control.setTransport(codeUit, {
          transmissionStatusCode: code as TransmissionCode,
        });
        if (found) forced.set(codeUit, code as TransmissionCode);
      } else {
        return [
          400,
          { ok: false, error: `transmissionStatusCode must be one of ${[...FORCEABLE].join(", ")}` },
        ];
      }
      if (!found) return [404, { ok: false, error: `no transport ${codeUit}` }];
      return [200, { ok: true, transports: listTransports(simulator, forced) }];
    }),
  ];

  return Object.assign(routes, {
    close() {
      unsubscribe();
      if (pending) clearTimeout(pending);
      for (const res of streams) res.end();
      streams.clear();
      for (const wake of [...waiters]) wake();
    },
  });
}

function listTransports(
  simulator: RunningSimulator,
  forced: Map<string, TransmissionCode>,
): SandboxTransport[] {
  const { control, options, vehicles } = simulator;
  const now = control.now();
  const plates = new Map(vehicles.map((v) => [v.vehicleUId, v.plate]));
  const order: Record<number, number> = { 2: 0, 6: 1, 1: 2 };
  return control
    .transports()
    .filter((t) => order[t.statusId] !== undefined && t.validityEndDate > now)
    .sort((a, b) => (order[a.statusId] ?? 9) - (order[b.statusId] ?? 9) || a.codeUit.localeCompare(b.codeUit))
    .slice(0, 40)
    .map((t) => {
      const code = forced.get(t.codeUit);
      const view = transmissionAt(
        t,
        now,
        options.seed,
        options.drift,
        code ? { transmissionStatusCode: code } : undefined,
      );
      return {
        codeUit: t.codeUit,
        plate: plates.get(t.vehicleUId) ?? t.carrierCode,
        status: STATUS_NAMES[t.statusId] ?? String(t.statusId),
        transmission: view.code,
        ...(code ? { forced: code } : {}),
        validityEnd: new Date(t.validityEndDate).toISOString(),
      };
    });
}

// -------------------------------------------------------------------- HTTP helpers

type Answer = [number, Record<string, unknown>];

/** A POST route taking a JSON object; driver errors (a view already closed, …) answer 409. */
function post(path: string, run: (body: Record<string, unknown>) => Promise<Answer>): HttpRoute {
  return {
    path,
    method: "POST",
    handler: async (req, res) => {
      let body: unknown;
      try {
        const raw = await readBody(req);
        body = raw.length === 0 ? {} : (JSON.parse(raw.toString("utf8")) as unknown);
      } catch (error) {
        json(res, 400, { ok: false, error: error instanceof Error ? error.message : "invalid body" });
        return;
      }
      if (!isObject(body)) {
        json(res, 400, { ok: false, error: "expected a JSON object" });
        return;
      }
      try {
        const [status, answer] = await run(body);
        json(res, status, answer);
      } catch (error) {
        json(res, 409, { ok: false, error: error instanceof Error ? error.message : String(error) });
      }
    },
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error("body too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function query(req: IncomingMessage): URLSearchParams {
  return new URL(req.url ?? "/", "http://sandbox").searchParams;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { "content-type": type, "cache-control": "no-store" }).end(body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(body));
}

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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
}

function input(value: unknown): ElementInput {
  if (typeof value === "string" || typeof value === "number") return value;
  if (value === null) return null;
  return strings(value);
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
