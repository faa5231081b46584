/**
 * The fleet service behind a pass-through proxy that can hold one endpoint's requests until the
 * test lets them go: a slow answer whose end the test decides, so "a report waits behind
 * another" is a state the test sets up, not a race it hopes to win.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

export interface HeldFleetService {
  /** The proxy's base URL, for FLEET_API_URL. */
  url: string;
  /** From now on, requests whose path ends with `/<endpoint>` wait (e.g. "temperatures"). */
  hold(endpoint: string): void;
  /** Requests waiting now. */
  waiting(): number;
  /** Sends every waiting request on, and holds nothing more. */
  release(): void;
  close(): Promise<void>;
}

/** Headers that describe one hop's connection, not the request. */
const HOP_HEADERS = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

export async function heldFleetService(target: string): Promise<HeldFleetService> {
  let held: string | undefined;
  const queue: (() => void)[] = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const send = () => void forward(target, req, Buffer.concat(chunks), res);
      const path = (req.url ?? "").split("?")[0]!.toLowerCase();
      if (held !== undefined && path.endsWith(`/${held}`)) queue.push(send);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the proxy has no TCP port");
  const { port } = address;

  return {
    url: `http://127.0.0.1:${port}`,
    hold(endpoint) {
      held = endpoint.toLowerCase();
    },
    waiting: () => queue.length,
    release() {
      held = undefined;
      for (const send of queue.splice(0)) send();
    },
    close() {
      queue.splice(0);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function forward(target: string, req: IncomingMessage, body: Buffer, res: ServerResponse) {
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
    res.writeHead(answer.status, out).end(bytes);
  } catch {
    if (!res.headersSent) res.writeHead(502).end();
    else res.destroy();
  }
}
