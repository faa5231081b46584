/**
 * The request guard's door, over real sockets: what is refused before its body is read, the
 * body cap, which requests count as acks to let go first, and how long a seen request is
 * remembered. The guard stands in front of a listener that records what reaches it (Bolt's
 * place), so "nothing reached Bolt" is observed, not assumed.
 */
import { createHmac } from "node:crypto";
import { createServer, type RequestListener, type Server } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { PendingAcks } from "../../../src/platform/slack/pendingAcks.js";
import {
  guardSlackRequests,
  MAX_BODY_BYTES,
  REQUEST_WINDOW_MS,
} from "../../../src/platform/slack/requestGuard.js";

const SECRET = "door-test-signing-secret";
const PATH = "/slack/events";
const FORM = "application/x-www-form-urlencoded";

interface Door {
  port: number;
  /** Bodies that got past the guard. */
  passed: string[];
  pendingAcks: PendingAcks;
  clock: { now: number };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function openDoor(): Promise<Door> {
  const passed: string[] = [];
  const clock = { now: Date.now() };
  const pendingAcks = new PendingAcks();
  const inner: RequestListener = (req, res) => {
    const body = "rawBody" in req ? req.rawBody : undefined;
    passed.push(Buffer.isBuffer(body) ? body.toString("utf8") : "");
    res.writeHead(200).end("ran");
  };
  const server = createServer(
    guardSlackRequests(inner, { signingSecret: SECRET, path: PATH, pendingAcks, now: () => clock.now }),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("not listening");
  return { port: address.port, passed, pendingAcks, clock };
}

function signature(body: string, timestampSec: number): string {
  return `v0=${createHmac("sha256", SECRET).update(`v0:${timestampSec}:${body}`).digest("hex")}`;
}

/**
 * Sends the request line and headers only (the body is announced, never sent) and resolves
 * with the status line the server answers, or "none" when it waits for the body.
 */
function headersOnly(port: number, headers: Record<string, string>, waitMs = 300): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    const done = (value: string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => done("none"), waitMs);
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      if (answer.includes("\r\n")) done(answer.split("\r\n")[0] ?? "");
    });
    socket.on("error", reject);
    const lines = Object.entries({ host: "127.0.0.1", ...headers }).map(([k, v]) => `${k}: ${v}`);
    socket.write(`POST ${PATH} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`);
  });
}

async function post(door: Door, body: string, headers: Record<string, string>) {
  const res = await fetch(`http://127.0.0.1:${door.port}${PATH}`, { method: "POST", body, headers });
  return { status: res.status, text: await res.text() };
}

const commandBody = (n: number) =>
  new URLSearchParams({ command: "/fleet", text: "help", user_id: "U1", trigger_id: `t-${n}` }).toString();

describe("refused before the body is read", () => {
  it("no Slack headers and a body larger than an ssl_check: 401 at once", async () => {
    const door = await openDoor();
    const status = await headersOnly(door.port, { "content-type": FORM, "content-length": "500000" });
    expect(status).toMatch(/^HTTP\/1\.1 401/);
    expect(door.passed).toEqual([]);
  });

  it("a timestamp outside the window (either way) or malformed: 401 at once", async () => {
    const door = await openDoor();
    const nowSec = Math.floor(door.clock.now / 1000);
    for (const timestamp of [String(nowSec - 6 * 60), String(nowSec + 6 * 60), "12ab", "1e9"]) {
      const status = await headersOnly(door.port, {
        "content-type": FORM,
        "content-length": "500000",
        "x-slack-request-timestamp": timestamp,
        "x-slack-signature": `v0=${"0".repeat(64)}`,
      });
      expect(status, timestamp).toMatch(/^HTTP\/1\.1 401/);
    }
    expect(door.passed).toEqual([]);
  });

  it("a body announced above 1 MB: 413 at once; within the window, the guard waits for a smaller one", async () => {
    const door = await openDoor();
    const nowSec = Math.floor(door.clock.now / 1000);
    const signed = {
      "x-slack-request-timestamp": String(nowSec),
      "x-slack-signature": `v0=${"0".repeat(64)}`,
    };
    expect(
      await headersOnly(door.port, {
        "content-type": FORM,
        "content-length": String(MAX_BODY_BYTES + 1),
        ...signed,
      }),
    ).toMatch(/^HTTP\/1\.1 413/);
    // A plausible request is read: the guard waits for its body (the signature needs it).
    expect(await headersOnly(door.port, { "content-type": FORM, "content-length": "2000", ...signed })).toBe(
      "none",
    );
  });

  it("a chunked body that grows past 1 MB is cut off with 413, and nothing reaches Bolt", async () => {
    const door = await openDoor();
    const nowSec = Math.floor(door.clock.now / 1000);
    const big = `text=${"a".repeat(MAX_BODY_BYTES + 10)}`;
    const res = await post(door, big, {
      "content-type": FORM,
      "x-slack-request-timestamp": String(nowSec),
      "x-slack-signature": signature(big, nowSec),
    }).catch(() => ({ status: 413, text: "" }));
    expect(res.status).toBe(413);
    expect(door.passed).toEqual([]);
  });
});

describe("pending acks count verified requests only", () => {
  it("an unsigned or forged request being read holds no task back", async () => {
    const door = await openDoor();
    const nowSec = Math.floor(door.clock.now / 1000);
    // Headers sent, body never: the guard is reading it.
    const reading = headersOnly(
      door.port,
      {
        "content-type": FORM,
        "content-length": "2000",
        "x-slack-request-timestamp": String(nowSec),
        "x-slack-signature": `v0=${"0".repeat(64)}`,
      },
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(door.pendingAcks.pending).toBe(0);
    expect(await reading).toBe("none");
    const forged = await post(door, commandBody(1), {
      "content-type": FORM,
      "x-slack-request-timestamp": String(nowSec),
      "x-slack-signature": `v0=${"0".repeat(64)}`,
    });
    expect(forged.status).toBe(401);
    expect(door.pendingAcks.pending).toBe(0);
  });

  it("a verified request counts until its ack is sent", async () => {
    const passed: number[] = [];
    const pendingAcks = new PendingAcks();
    let release = () => {};
    const inner: RequestListener = (_req, res) => {
      passed.push(pendingAcks.pending);
      release = () => res.writeHead(200).end();
    };
    const server = createServer(
      guardSlackRequests(inner, { signingSecret: SECRET, path: PATH, pendingAcks }),
    );
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const nowSec = Math.floor(Date.now() / 1000);
    const body = commandBody(2);
    const answered = fetch(`http://127.0.0.1:${port}${PATH}`, {
      method: "POST",
      body,
      headers: {
        "content-type": FORM,
        "x-slack-request-timestamp": String(nowSec),
        "x-slack-signature": signature(body, nowSec),
      },
    });
    while (passed.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(passed).toEqual([1]);
    release();
    expect((await answered).status).toBe(200);
    expect(pendingAcks.pending).toBe(0);
  });
});

describe("the replay memory lasts to the end of the request's own window", () => {
  it("a request from a sender 4 minutes ahead cannot be replayed after 5 minutes of first sight", async () => {
    const door = await openDoor();
    const sentAt = door.clock.now;
    // The sender's clock is 4 minutes ahead: its timestamp is in the window, at its far end.
    const timestampSec = Math.floor((sentAt + 4 * 60_000) / 1000);
    const body = commandBody(3);
    const headers = {
      "content-type": FORM,
      "x-slack-request-timestamp": String(timestampSec),
      "x-slack-signature": signature(body, timestampSec),
    };
    expect((await post(door, body, headers)).text).toBe("ran");
    // 5 min 30 s after first sight: the timestamp is 1.5 min old, still inside the window.
    door.clock.now = sentAt + 5.5 * 60_000;
    expect(Math.abs(door.clock.now - timestampSec * 1000)).toBeLessThan(REQUEST_WINDOW_MS);
    const replay = await post(door, body, headers);
    expect(replay.status).toBe(200);
    expect(replay.text).toBe("");
    expect(door.passed).toHaveLength(1);
  });

  it("Slack's retry, with a later timestamp, keeps the memory to the end of the retry's window", async () => {
    const door = await openDoor();
    const first = Math.floor(door.clock.now / 1000);
    const body = commandBody(4);
    const signedAt = (sec: number) => ({
      "content-type": FORM,
      "x-slack-request-timestamp": String(sec),
      "x-slack-signature": signature(body, sec),
    });
    expect((await post(door, body, signedAt(first))).text).toBe("ran");
    // Slack's third retry comes about 5 minutes later, signed then.
    door.clock.now += 5 * 60_000;
    const retry = first + 5 * 60;
    expect((await post(door, body, signedAt(retry))).text).toBe("");
    // A capture of that retry, replayed 4 minutes later (inside its window), still runs nothing.
    door.clock.now += 4 * 60_000;
    expect((await post(door, body, signedAt(retry))).text).toBe("");
    expect(door.passed).toHaveLength(1);
  });
});
