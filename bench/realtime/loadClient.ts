/**
 * The load client of the ack rows, in its own process so its work does not share the event
 * loop with the fake Slack or the simulator. Reads {botUrl, signingSecret, forms[]} as JSON on
 * stdin, sends every form at once as a signed slash command (Slack's signature scheme, the
 * same code the SlackDriver signs with) and prints one JSON line: the ack time of each.
 */
import { signedHeaders } from "../../src/sandbox/fakeSlack/signing.js";

interface LoadInput {
  botUrl: string;
  signingSecret: string;
  forms: string[];
  /** Slack gives up after 3 s; the client waits longer so slow acks are still measured. */
  timeoutMs: number;
}

export interface LoadOutput {
  ackMs: number[];
  statuses: number[];
  failed: number;
  /** Why requests without an answer failed (error cause), with counts. */
  errors: Record<string, number>;
}

function readInput(text: string): LoadInput {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== "object" || parsed === null) throw new Error("load input: object expected");
  const field = (name: string): unknown => (name in parsed ? Reflect.get(parsed, name) : undefined);
  const botUrl = field("botUrl");
  const signingSecret = field("signingSecret");
  const forms = field("forms");
  const timeoutMs = field("timeoutMs");
  if (typeof botUrl !== "string" || typeof signingSecret !== "string" || typeof timeoutMs !== "number")
    throw new Error("load input: botUrl, signingSecret, timeoutMs expected");
  if (!Array.isArray(forms) || !forms.every((f): f is string => typeof f === "string"))
    throw new Error("load input: forms must be strings");
  return { botUrl, signingSecret, forms, timeoutMs };
}

async function send(input: LoadInput, form: string): Promise<{ ms: number; status: number; error?: string }> {
  const headers = {
    "content-type": "application/x-www-form-urlencoded",
    ...signedHeaders(input.signingSecret, Math.floor(Date.now() / 1000), form),
  };
  const started = performance.now();
  try {
    const res = await fetch(input.botUrl, {
      method: "POST",
      headers,
      body: form,
      signal: AbortSignal.timeout(input.timeoutMs),
    });
    await res.arrayBuffer();
    return { ms: performance.now() - started, status: res.status };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const why = cause instanceof Error ? `${cause.name}: ${cause.message}`.slice(0, 80) : String(cause);
    return { ms: performance.now() - started, status: 0, error: why };
  }
}

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
const input = readInput(Buffer.concat(chunks).toString("utf8"));
const results = await Promise.all(input.forms.map((form) => send(input, form)));
const output: LoadOutput = {
  ackMs: results.map((r) => r.ms),
  statuses: results.map((r) => r.status),
  failed: results.filter((r) => r.status !== 200).length,
  errors: {},
};
for (const r of results) if (r.error) output.errors[r.error] = (output.errors[r.error] ?? 0) + 1;
process.stdout.write(`${JSON.stringify(output)}\n`);
