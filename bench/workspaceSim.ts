/**
 * The fleet service of the workspaces row (bench/workspaces.ts) in a process of its own, so that
 * what the bench process does meanwhile (the fake Slack of 200 teams, the drivers) does not slow
 * the service's answers down. `npm run sim` takes no list of users, hence this small entry.
 *
 * Reads {users: [{username, password}], minIntervalMs, proxies: ["A", "B"]} as JSON on stdin;
 * starts the simulator and one pass-through proxy per name in front of it (a bot's FLEET_API_URL),
 * and prints one JSON line {simUrl, proxies: {name: url}, plates: [...]}. Each proxy records every
 * request: its arrival, the moment its answer was handed back in full, the account (the bearer
 * token's `sub`, or the login form's user name), the status. GET /__bench/upstream?since=<ms> on
 * any proxy returns the records of all of them from `since` on. Stops on SIGTERM or stdin's end.
 */
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { startSimulator } from "../src/simulator/index.js";

/** One request a bot sent to the fleet service (epoch ms). */
export interface Upstream {
  /** The proxy it came through: the bot that sent it. */
  bot: string;
  at: number;
  /** The answer handed back to the bot in full; absent while in flight. */
  end?: number;
  path: string;
  /** The account: the bearer token's `sub`, or the login form's user name (lower case). */
  user?: string;
  status?: number;
}

export interface WorkspaceSimInput {
  users: { username: string; password: string }[];
  minIntervalMs: number;
  proxies: string[];
}

export interface WorkspaceSimReady {
  simUrl: string;
  proxies: Record<string, string>;
  plates: string[];
}

function bearerUser(header: string | undefined): string | undefined {
  if (!header?.startsWith("Bearer ")) return undefined;
  const claims = header.slice("Bearer ".length).split(".")[1];
  if (!claims) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(claims, "base64url").toString("utf8"));
    const sub = typeof parsed === "object" && parsed !== null ? Reflect.get(parsed, "sub") : undefined;
    return typeof sub === "string" ? sub.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/** The user name of a login form (url-encoded or multipart); never the password. */
function loginUser(body: Buffer): string | undefined {
  const text = body.toString("utf8");
  const multipart = /name="username"\r\n\r\n([^\r]*)\r\n/i.exec(text)?.[1];
  if (multipart !== undefined) return multipart.toLowerCase();
  for (const [name, value] of new URLSearchParams(text))
    if (name.toLowerCase() === "username") return value.toLowerCase();
  return undefined;
}

const HOP_HEADERS = new Set(["connection", "keep-alive", "proxy-connection", "upgrade", "host"]);

const chunks: Buffer[] = [];
const stdinEnded = new Promise<void>((resolve) => process.stdin.once("end", () => resolve()));
const firstLine = await new Promise<string>((resolve) => {
  process.stdin.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    const text = Buffer.concat(chunks).toString("utf8");
    if (text.includes("\n")) resolve(text.slice(0, text.indexOf("\n")));
  });
});
const input = JSON.parse(firstLine) as WorkspaceSimInput;
const sim = await startSimulator({
  port: 0,
  minIntervalMs: input.minIntervalMs,
  control: true,
  drift: false,
  users: input.users,
});
const target = new URL(sim.url);
const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
const log: Upstream[] = [];

function proxy(bot: string) {
  return createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (path === "/__bench/upstream") {
      const since = Number(new URL(req.url ?? "/", "http://x").searchParams.get("since") ?? 0);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(log.filter((u) => u.at >= since || u.end === undefined)));
      return;
    }
    const record: Upstream = { bot, at: Date.now(), path };
    const user = bearerUser(req.headers.authorization);
    if (user !== undefined) record.user = user;
    log.push(record);
    const body: Buffer[] = [];
    req.on("data", (chunk: Buffer) => body.push(chunk));
    req.on("end", () => {
      const bytes = Buffer.concat(body);
      if (record.user === undefined && path.toLowerCase().endsWith("/login")) {
        const named = loginUser(bytes);
        if (named !== undefined) record.user = named;
      }
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (value !== undefined && !HOP_HEADERS.has(name)) headers[name] = value;
      headers.host = target.host;
      headers["content-length"] = String(bytes.length);
      delete headers["transfer-encoding"];
      const upstream = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent },
        (answer) => {
          record.status = answer.statusCode;
          const back: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(answer.headers))
            if (value !== undefined && !HOP_HEADERS.has(name)) back[name] = value;
          res.writeHead(answer.statusCode ?? 502, back);
          answer.pipe(res);
        },
      );
      upstream.on("error", () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      upstream.end(bytes);
    });
    res.on("finish", () => {
      record.end = Date.now();
    });
  });
}

const servers = input.proxies.map((name) => ({ name, server: proxy(name) }));
const proxies: Record<string, string> = {};
for (const { name, server } of servers) {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxies[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const ready: WorkspaceSimReady = { simUrl: sim.url, proxies, plates: sim.vehicles.map((v) => v.plate) };
process.stdout.write(`${JSON.stringify(ready)}\n`);

let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  for (const { server } of servers) {
    server.closeAllConnections();
    server.close();
  }
  agent.destroy();
  await sim.close();
  process.exit(0);
};
process.once("SIGTERM", () => void shutdown());
void stdinEnded.then(shutdown);
