/**
 * A mutation whose answer times out has an unknown outcome, exactly like a crash between send
 * and record: the journal asks the service (load-transports) before sending again, so the
 * service sees the pause once. A proxy in front of the simulator holds back the answer.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../../src/simulator/index.js";
import { type BotHarness, lastSeenBy, startBotHarness, textOf } from "../../helpers/botHarness.js";

const INTERVAL = 60;
const TIMEOUT = 400;
let sim: RunningSimulator;
let proxy: Server;
let h: BotHarness;
/** Endpoints whose next answer the proxy holds back past the client's timeout. */
const slowOnce = new Set<string>();

beforeAll(async () => {
  sim = await startSimulator({ port: 0, minIntervalMs: INTERVAL, drift: false, control: true });
  const target = new URL(sim.url);
  proxy = createServer((req, res) => {
    const endpoint = [...slowOnce].find((e) => req.url?.includes(`/${e}`));
    const upstream = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        // The service has done the work (a 200); only its answer is late.
        const slow = endpoint !== undefined && answer.statusCode === 200;
        if (slow) slowOnce.delete(endpoint);
        const send = () => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        };
        if (slow) setTimeout(send, TIMEOUT * 3);
        else send();
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  h = await startBotHarness({
    intervalMs: INTERVAL,
    env: {
      FLEET_API_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      FLEET_USERNAME: "demo",
      FLEET_PASSWORD: "demo",
      FLEET_TIMEOUT_MS: String(TIMEOUT),
    },
  });
});

afterAll(async () => {
  await h?.close();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await sim.close();
});

describe("a mutation whose answer times out", () => {
  it("is checked with the service before it is sent again: one pause reaches the service", async () => {
    const running = sim.control.transports().find((t) => t.statusId === 2)!;
    slowOnce.add("pause-transports");
    await h.driver.slashCommand({
      command: "/etransport",
      text: `pause ${running.codeUit}`,
      userId: "U0DISPATCH",
      channelId: "C0GENERAL",
    });
    await h.settle();
    const pauses = sim.control
      .requests(500)
      .filter((r) => r.endpoint === "pause-transports" && r.status !== 429);
    expect(pauses).toHaveLength(1);
    expect(sim.control.transports().find((t) => t.codeUit === running.codeUit)?.statusId).toBe(6);
    expect(textOf(lastSeenBy(h.fake, "C0GENERAL", "U0DISPATCH"))).not.toMatch(/failed/i);
    // The audit trail keeps both: the attempt without an answer, and the pause found made.
    const history = await h.driver.slashCommand({
      command: "/etransport",
      text: `history ${running.codeUit}`,
      userId: "U0DISPATCH",
      channelId: "C0GENERAL",
    });
    const told = textOf(history.posted);
    expect(told).toContain("2 recorded changes");
    expect(told).toMatch(/\*Paused\*.*\n:white_check_mark: done \(found made when the task resumed/);
    expect(told).toMatch(/\*Pause\*.*\n:grey_question: sent, no usable answer `timeout`/);
  });
});
