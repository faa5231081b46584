/** The sandbox API's HTTP plumbing: the request guard, JSON bodies and answers. */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpRoute } from "../../platform/slack/app.js";

/** The header that carries the page's per-process token on every API call. */
export const SANDBOX_TOKEN_HEADER = "x-sandbox-token";
const MAX_BODY = 1 << 20;

export type Answer = [number, Record<string, unknown>];

/**
 * Why a request to the sandbox API is refused, or undefined when it may proceed.
 *
 * The API drives a fleet account, so it answers only the page it served: the token is in that
 * page's HTML, which another origin cannot read. A cross-origin form or `text/plain` fetch has no
 * way to set the header; the Host check stops a rebound DNS name from reading the page itself.
 * `<img>` and EventSource cannot send headers, so GET routes also take `?token=`.
 */
export function refusal(req: IncomingMessage, token: string): string | undefined {
  const host = req.headers.host ?? "";
  const hostProblem = hostRefusal(req);
  if (hostProblem) return hostProblem;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) return "cross-origin requests are refused";
  const header = req.headers[SANDBOX_TOKEN_HEADER];
  const given =
    typeof header === "string" ? header : req.method === "GET" ? query(req).get("token") : undefined;
  if (!given || !sameSecret(given, token)) return "missing or wrong sandbox token: reload the page";
  return undefined;
}

/** The page itself (which holds the token) is served only under a loopback name. */
export function hostRefusal(req: IncomingMessage): string | undefined {
  return isLoopbackHost(req.headers.host ?? "")
    ? undefined
    : "the sandbox answers only on localhost or 127.0.0.1";
}

function isLoopbackHost(host: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A route that answers only requests carrying the token (see `refusal`). */
export function guarded(token: string, route: HttpRoute): HttpRoute {
  return {
    ...route,
    handler: (req, res) => {
      const reason = refusal(req, token);
      if (reason) {
        json(res, 403, { ok: false, error: reason });
        return;
      }
      return route.handler(req, res);
    },
  };
}

/** A guarded POST route taking a JSON object; driver errors (a view already closed, …) answer 409. */
export function jsonPost(
  token: string,
  path: string,
  run: (body: Record<string, unknown>) => Promise<Answer>,
): HttpRoute {
  return guarded(token, {
    path,
    method: "POST",
    handler: async (req, res) => {
      if (!/^application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? "")) {
        json(res, 415, { ok: false, error: "expected Content-Type: application/json" });
        return;
      }
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
  });
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

export function query(req: IncomingMessage): URLSearchParams {
  return new URL(req.url ?? "/", "http://sandbox").searchParams;
}

export function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { "content-type": type, "cache-control": "no-store" }).end(body);
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(body));
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
}

export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
