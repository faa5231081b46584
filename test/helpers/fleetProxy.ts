import { createServer, type IncomingMessage } from "node:http";

/**
 * A pass-through proxy in front of the fleet service (the simulator) for tests and benchmarks:
 * it records every request it forwards, and it can hold one endpoint's traffic until the test
 * lets it go, so "a report waits behind another" is a state the test sets up, not a race.
 *
 * - hold(endpoint, "request"): the request does not reach the service until release (nothing
 *   happens there yet: a call still waiting);
 * - hold(endpoint, "answer"): the request reaches the service at once, its answer waits (the
 *   change is made; the caller has not heard back: a call in flight).
 */
export interface UpstreamRequest {
  /** Arrival at the proxy (epoch ms, this process's clock). */
  at: number;
  method: string;
  /** The path without the query, e.g. /api/carriers/consumption. */
  path: string;
}

export interface FleetProxy {
  /** The proxy's base URL, for FLEET_API_URL. */
  url: string;
  /** Every request that reached the proxy, in arrival order. */
  readonly log: readonly UpstreamRequest[];
  /** From now on, requests (or answers) of paths ending with `/<endpoint>` wait for `release`. */
  hold(endpoint: string, what: "request" | "answer"): void;
  /** Requests or answers waiting now. */
  held(): number;
  /** Sends everything waiting on, and holds nothing more. */
  release(): void;
  close(): Promise<void>;
}

/** Headers that describe one hop's connection, not the request. */
const HOP_HEADERS = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

export async function startFleetProxy(target: string): Promise<FleetProxy> {
  const log: UpstreamRequest[] = [];
  let holding: { endpoint: string; what: "request" | "answer" } | undefined;
  const waiting: (() => void)[] = [];

  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    log.push({ at: Date.now(), method: req.method ?? "GET", path });
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    // Read whole before forwarding: a caller killed once its request is out does not stop it here.
    req.on("end", () => {
      const hold =
        holding !== undefined && path.toLowerCase().endsWith(`/${holding.endpoint}`)
          ? holding.what
          : undefined;
      const answerBack = () =>
        void forward(target, req, Buffer.concat(chunks)).then((answer) => {
          const send = () => {
            if (answer) res.writeHead(answer.status, answer.headers).end(answer.body);
            else if (!res.headersSent) res.writeHead(502).end();
          };
          if (hold === "answer") waiting.push(send);
          else send();
        });
      if (hold === "request") waiting.push(answerBack);
      else answerBack();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the proxy has no TCP port");

  return {
    url: `http://127.0.0.1:${address.port}`,
    log,
    hold(endpoint, what) {
      holding = { endpoint: endpoint.toLowerCase(), what };
    },
    held: () => waiting.length,
    release() {
      holding = undefined;
      for (const send of waiting.splice(0)) send();
    },
    close() {
      waiting.splice(0);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function forward(
  target: string,
  req: IncomingMessage,
  body: Buffer,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer } | undefined> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string" && !HOP_HEADERS.has(name)) headers.set(name, value);
  }
  try {
    const answer = await fetch(`${target}${req.url ?? "/"}`, {
      method: req.method,
      headers,
      ...(req.method === "GET" || req.method === "HEAD" ? {} : { body }),
    });
    const bytes = Buffer.from(await answer.arrayBuffer());
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      // fetch has already decoded the body: its length and encoding are the proxy's to set.
      if (!HOP_HEADERS.has(name) && name !== "content-encoding") out[name] = value;
    });
    return { status: answer.status, headers: out, body: bytes };
  } catch {
    return undefined;
  }
}
