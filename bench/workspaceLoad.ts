/**
 * The load client of the workspaces row (bench/workspaces.ts), in its own process like
 * bench/realtime/loadClient.ts, but each form goes to a URL of its own (one bot, or the replica a
 * load balancer would pick). Reads {requests: [{url, form}], signingSecret, timeoutMs} as JSON on
 * stdin, signs every form before the clocks start, warms its own HTTP path with a few /healthz
 * requests to each bot, sends every form at once (each on a connection of its own, through
 * node:http) and prints one JSON line: the ack time and status of each.
 */
import { request } from "node:http";
import { signedHeaders } from "../src/sandbox/fakeSlack/signing.js";

export interface WorkspaceLoadInput {
  requests: { url: string; form: string }[];
  signingSecret: string;
  /** Slack gives up after 3 s; the client waits longer so slow acks are still measured. */
  timeoutMs: number;
}

export interface WorkspaceLoadOutput {
  ackMs: number[];
  statuses: number[];
  failed: number;
  /** Why requests without an answer failed (error cause), with counts. */
  errors: Record<string, number>;
}

function readInput(text: string): WorkspaceLoadInput {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== "object" || parsed === null) throw new Error("load input: object expected");
  const requests: unknown = Reflect.get(parsed, "requests");
  const signingSecret: unknown = Reflect.get(parsed, "signingSecret");
  const timeoutMs: unknown = Reflect.get(parsed, "timeoutMs");
  if (typeof signingSecret !== "string" || typeof timeoutMs !== "number")
    throw new Error("load input: signingSecret and timeoutMs expected");
  if (
    !Array.isArray(requests) ||
    !requests.every(
      (r): r is { url: string; form: string } =>
        typeof r === "object" && r !== null && typeof r.url === "string" && typeof r.form === "string",
    )
  )
    throw new Error("load input: requests must be {url, form} objects");
  return { requests, signingSecret, timeoutMs };
}

interface Sent {
  ms: number;
  status: number;
  error?: string;
}

/** One request on a connection of its own; resolves once the whole answer is read. */
function send(
  url: string,
  method: "GET" | "POST",
  form: string | undefined,
  headers: Record<string, string | number> | undefined,
  timeoutMs: number,
): Promise<Sent> {
  return new Promise<Sent>((resolve) => {
    const started = performance.now();
    const fail = (error: unknown) => {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      const why = cause instanceof Error ? `${cause.name}: ${cause.message}`.slice(0, 80) : String(cause);
      resolve({ ms: performance.now() - started, status: 0, error: why });
    };
    const req = request(
      url,
      { method, agent: false, headers, signal: AbortSignal.timeout(timeoutMs) },
      (res) => {
        res.on("data", () => {});
        res.on("end", () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }));
        res.on("error", fail);
      },
    );
    req.on("error", fail);
    req.end(form);
  });
}

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
const input = readInput(Buffer.concat(chunks).toString("utf8"));
const prepared = input.requests.map((r) => ({
  url: r.url,
  form: r.form,
  headers: {
    "content-type": "application/x-www-form-urlencoded",
    "content-length": Buffer.byteLength(r.form),
    ...signedHeaders(input.signingSecret, Math.floor(Date.now() / 1000), r.form),
  },
}));
// Warm-up of this process's own HTTP path, one after the other, none measured.
for (const base of new Set(input.requests.map((r) => new URL("/healthz", r.url).href)))
  for (let i = 0; i < 10; i++) await send(base, "GET", undefined, undefined, input.timeoutMs);
const results = await Promise.all(
  prepared.map((p) => send(p.url, "POST", p.form, p.headers, input.timeoutMs)),
);
const output: WorkspaceLoadOutput = {
  ackMs: results.map((r) => r.ms),
  statuses: results.map((r) => r.status),
  failed: results.filter((r) => r.status !== 200).length,
  errors: {},
};
for (const r of results) if (r.error) output.errors[r.error] = (output.errors[r.error] ?? 0) + 1;
process.stdout.write(`${JSON.stringify(output)}\n`);
