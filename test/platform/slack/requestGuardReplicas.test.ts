/**
 * The request guard's resend memory across replicas: two guards ("replicas" behind one balancer),
 * each with its own Redis connection, in front of a listener that records what reaches it. A
 * signed request, or Slack's retry of it, reaching both replicas runs once; without the shared
 * memory (the default, one process) each replica would run it.
 */
import { createHmac } from "node:crypto";
import { createServer, type RequestListener, type Server } from "node:http";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { guardSlackRequests } from "../../../src/platform/slack/requestGuard.js";
import { RedisSharedState } from "../../../src/platform/store/redis/sharedState.js";
import type { SharedState } from "../../../src/platform/store/sharedState.js";
import { redisForTests, redisSkipReason, startRedisServer } from "../../helpers/redisServer.js";

const SECRET = "replica-test-signing-secret";
const PATH = "/slack/events";
const FORM = "application/x-www-form-urlencoded";

/** What got past a guard: one entry per request the inner listener ran. */
interface Replica {
  url: string;
  ran: string[];
  close(): Promise<void>;
}

const servers: Replica[] = [];

async function startReplica(name: string, sharedState: SharedState | undefined): Promise<Replica> {
  const ran: string[] = [];
  const inner: RequestListener = (req, res) => {
    // The guard hands Bolt the buffered body this way.
    const body = "rawBody" in req ? req.rawBody : undefined;
    ran.push(Buffer.isBuffer(body) ? body.toString("utf8") : "");
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ranOn: name }));
  };
  const server: Server = createServer(
    guardSlackRequests(inner, { signingSecret: SECRET, path: PATH, sharedState }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("the replica is not listening");
  const { port } = address;
  const replica = {
    url: `http://127.0.0.1:${port}${PATH}`,
    ran,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  servers.push(replica);
  return replica;
}

/** Slack's v0 signature of a body at a timestamp (seconds). */
function signed(body: string, timestampSec = Math.floor(Date.now() / 1000)): Record<string, string> {
  const signature = createHmac("sha256", SECRET).update(`v0:${timestampSec}:${body}`).digest("hex");
  return {
    "content-type": FORM,
    "x-slack-request-timestamp": String(timestampSec),
    "x-slack-signature": `v0=${signature}`,
  };
}

async function post(replica: Replica, body: string, headers: Record<string, string>) {
  const response = await fetch(replica.url, { method: "POST", body, headers });
  return { status: response.status, text: await response.text() };
}

let serial = 0;
/** A slash command body, unique per call (as Slack's own are: a fresh trigger each time). */
function commandBody(text: string): string {
  serial++;
  return new URLSearchParams({
    command: "/fleet",
    text,
    user_id: "U0DISPATCH",
    channel_id: "C0GENERAL",
    trigger_id: `trigger-${serial}-${Date.now()}`,
    response_url: `https://hooks.example/${serial}`,
  }).toString();
}

afterEach(async () => {
  for (const replica of servers.splice(0)) await replica.close();
});

describe.skipIf(redisSkipReason !== undefined)("request guard on two replicas sharing Redis", () => {
  const redis = redisForTests({ maxRetriesPerRequest: 1 });
  /** One replica's memory: its own connection to the shared Redis. */
  const sharedState = (prefix: string) => new RedisSharedState(redis.connect(), { prefix });
  const twoReplicas = async (prefix: string) => [
    await startReplica("A", sharedState(prefix)),
    await startReplica("B", sharedState(prefix)),
  ];

  it("the same signed command sent to A, then to B, runs once (on A)", async () => {
    const [a, b] = await twoReplicas("same:");
    const body = commandBody("stops B-100-XYZ yesterday");
    const headers = signed(body);
    const first = await post(a!, body, headers);
    const resent = await post(b!, body, headers);
    expect(first).toEqual({ status: 200, text: JSON.stringify({ ranOn: "A" }) });
    // The resend is answered empty: the first answer stays what the user sees.
    expect(resent).toEqual({ status: 200, text: "" });
    expect(a!.ran).toEqual([body]);
    expect(b!.ran).toEqual([]);
  });

  it("Slack's retry (new timestamp, X-Slack-Retry-Num) reaching the other replica does not run again", async () => {
    const [a, b] = await twoReplicas("retry:");
    const body = commandBody("where B-100-XYZ");
    const now = Math.floor(Date.now() / 1000);
    expect((await post(a!, body, signed(body, now - 3))).status).toBe(200);
    const retry = await post(b!, body, {
      ...signed(body, now),
      "x-slack-retry-num": "1",
      "x-slack-retry-reason": "http_timeout",
    });
    expect(retry).toEqual({ status: 200, text: "" });
    expect(a!.ran.length + b!.ran.length).toBe(1);
  });

  it("sent to both at the same moment, it runs on exactly one", async () => {
    const [a, b] = await twoReplicas("race:");
    const bodies = Array.from({ length: 10 }, (_, i) => commandBody(`where car-${i}`));
    const answers = await Promise.all(
      bodies.flatMap((body) => [post(a!, body, signed(body)), post(b!, body, signed(body))]),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const ran = [...a!.ran, ...b!.ran].sort();
    expect(ran).toEqual([...bodies].sort());
  });

  it("options requests (block_suggestion) are answered on every replica, each time", async () => {
    const [a, b] = await twoReplicas("options:");
    const body = new URLSearchParams({
      payload: JSON.stringify({ type: "block_suggestion", action_id: "vehicles", value: "" }),
    }).toString();
    expect((await post(a!, body, signed(body))).status).toBe(200);
    expect((await post(b!, body, signed(body))).status).toBe(200);
    expect((await post(b!, body, signed(body))).status).toBe(200);
    expect(a!.ran.length + b!.ran.length).toBe(3);
  });

  it("a request failing its signature is not remembered on either replica", async () => {
    const [a, b] = await twoReplicas("forged:");
    const body = commandBody("vehicles");
    const forged = await post(a!, body, { ...signed(body), "x-slack-signature": `v0=${"0".repeat(64)}` });
    expect(forged.status).toBe(401);
    expect((await post(b!, body, signed(body))).status).toBe(200);
    expect(b!.ran).toEqual([body]);
  });

  it("when Redis cannot be reached the request goes on (the listener tells the user nothing can be queued); once it is back, resends are held again", async () => {
    const ownServer = await startRedisServer();
    const client = new Redis(ownServer.url, { maxRetriesPerRequest: 1 });
    // Its connection errors while the server is down are expected (the guard sees the failed command).
    client.on("error", () => {});
    try {
      const a = await startReplica("A", new RedisSharedState(client, { prefix: "lost:" }));
      const body = commandBody("vehicles");
      await ownServer.kill();
      expect((await post(a, body, signed(body))).status).toBe(200);
      expect(a.ran).toEqual([body]);

      await ownServer.restart();
      // Wait for the client's reconnection (it retries on its own).
      while ((await client.ping().catch(() => "")) !== "PONG") {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const retry = { ...signed(body), "x-slack-retry-num": "1" };
      expect((await post(a, body, retry)).status).toBe(200);
      expect((await post(a, body, signed(body))).status).toBe(200);
      // Remembered from now on: the retry ran (nothing could be queued while Redis was down), its resend does not.
      expect(a.ran).toEqual([body, body]);
    } finally {
      client.disconnect();
      await ownServer.stop();
    }
  });
});

describe("request guard without shared state (the default: one process)", () => {
  it("each replica remembers only its own requests, so a resend to the other runs there too", async () => {
    const a = await startReplica("A", undefined);
    const b = await startReplica("B", undefined);
    const body = commandBody("vehicles");
    const headers = signed(body);
    expect((await post(a, body, headers)).status).toBe(200);
    expect((await post(a, body, headers)).text).toBe("");
    expect((await post(b, body, headers)).status).toBe(200);
    expect(a.ran).toEqual([body]);
    expect(b.ran).toEqual([body]);
  });
});
