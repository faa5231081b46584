/**
 * The load client of the ack rows, in its own process so its work does not share the event
 * loop with the fake Slack or the simulator. Reads {botUrl, signingSecret, forms[]} as JSON on
 * stdin, sends every form at once as a signed slash command (Slack's signature scheme, the
 * same code the SlackDriver signs with) and prints one JSON line: the ack time of each.
 *
 * The figure is meant to be the bot's, not the client's: every form is signed before the
 * clocks start, requests go out through node:http on a connection of their own (as Slack's
 * deliveries come), and a few requests to /healthz first load and compile the client's own
 * code path. Global fetch cost the client itself 60–180 ms per burst of 50 (its connection
 * pool and web streams), which the old figures included.
 */
import { request } from "node:http";
import { signedHeaders } from "../../src/sandbox/fakeSlack/signing.js";
import { readCpuMs } from "./procStat.js";

interface LoadInput {
  botUrl: string;
  signingSecret: string;
  forms: string[];
  /** Slack gives up after 3 s; the client waits longer so slow acks are still measured. */
  timeoutMs: number;
  /** The bot's process id: its CPU is read as the burst starts and as its last ack arrives. */
  botPid?: number;
  /**
   * When to send each form (epoch ms, one per form): spread over a window instead of all at once
   * (row 12 sends waves during an alert sweep). Absent: all at once, as soon as warmed up.
   */
  sendAtMs?: number[];
}

export interface LoadOutput {
  ackMs: number[];
  statuses: number[];
  failed: number;
  /** Why requests without an answer failed (error cause), with counts. */
  errors: Record<string, number>;
  /** The bot's CPU time from the first request sent to the last ack read (ms; botPid given). */
  botCpuMs?: number;
}

function readInput(text: string): LoadInput {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== "object" || parsed === null) throw new Error("load input: object expected");
  const field = (name: string): unknown => (name in parsed ? Reflect.get(parsed, name) : undefined);
  const botUrl = field("botUrl");
  const signingSecret = field("signingSecret");
  const forms = field("forms");
  const timeoutMs = field("timeoutMs");
  const botPid = field("botPid");
  const sendAtMs = field("sendAtMs");
  if (typeof botUrl !== "string" || typeof signingSecret !== "string" || typeof timeoutMs !== "number")
    throw new Error("load input: botUrl, signingSecret, timeoutMs expected");
  if (!Array.isArray(forms) || !forms.every((f): f is string => typeof f === "string"))
    throw new Error("load input: forms must be strings");
  if (botPid !== undefined && typeof botPid !== "number")
    throw new Error("load input: botPid must be a number");
  if (
    sendAtMs !== undefined &&
    (!Array.isArray(sendAtMs) ||
      sendAtMs.length !== forms.length ||
      !sendAtMs.every((t): t is number => typeof t === "number"))
  )
    throw new Error("load input: sendAtMs must be one number per form");
  return {
    botUrl,
    signingSecret,
    forms,
    timeoutMs,
    ...(botPid !== undefined ? { botPid } : {}),
    ...(sendAtMs !== undefined ? { sendAtMs } : {}),
  };
}

interface Prepared {
  form: string;
  headers: Record<string, string | number>;
}

function prepare(input: LoadInput, form: string): Prepared {
  return {
    form,
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "content-length": Buffer.byteLength(form),
      ...signedHeaders(input.signingSecret, Math.floor(Date.now() / 1000), form),
    },
  };
}

interface Sent {
  ms: number;
  status: number;
  error?: string;
}

/** One request on a connection of its own; resolves once the whole answer is read. */
function send(url: string, method: "GET" | "POST", prepared: Prepared | undefined, timeoutMs: number) {
  return new Promise<Sent>((resolve) => {
    const started = performance.now();
    const fail = (error: unknown) => {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      const why = cause instanceof Error ? `${cause.name}: ${cause.message}`.slice(0, 80) : String(cause);
      resolve({ ms: performance.now() - started, status: 0, error: why });
    };
    const req = request(
      url,
      { method, agent: false, headers: prepared?.headers, signal: AbortSignal.timeout(timeoutMs) },
      (res) => {
        res.on("data", () => {});
        res.on("end", () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }));
        res.on("error", fail);
      },
    );
    req.on("error", fail);
    req.end(prepared?.form);
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
const input = readInput(Buffer.concat(chunks).toString("utf8"));
const prepared = input.forms.map((form) => prepare(input, form));
// Warm-up of this process's own HTTP path, one after the other, none measured.
const health = new URL("/healthz", input.botUrl).href;
for (let i = 0; i < 20; i++) await send(health, "GET", undefined, input.timeoutMs);
const sendAt = input.sendAtMs;
if (sendAt) await sleep(Math.min(...sendAt) - Date.now());
const cpuBefore = input.botPid === undefined ? undefined : readCpuMs(input.botPid);
const results = await Promise.all(
  prepared.map(async (p, i) => {
    if (sendAt) await sleep(sendAt[i]! - Date.now());
    return send(input.botUrl, "POST", p, input.timeoutMs);
  }),
);
const cpuAfter = input.botPid === undefined ? undefined : readCpuMs(input.botPid);
const output: LoadOutput = {
  ackMs: results.map((r) => r.ms),
  statuses: results.map((r) => r.status),
  failed: results.filter((r) => r.status !== 200).length,
  errors: {},
  ...(cpuBefore !== undefined && cpuAfter !== undefined ? { botCpuMs: cpuAfter - cpuBefore } : {}),
};
for (const r of results) if (r.error) output.errors[r.error] = (output.errors[r.error] ?? 0) + 1;
process.stdout.write(`${JSON.stringify(output)}\n`);
