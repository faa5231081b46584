import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../../src/platform/log.js";
import { type HttpRoute, serveRoute } from "../../../src/platform/slack/app.js";

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** Serves one route on a free port, as startSlackApp does, and returns its URL. */
async function serve(route: HttpRoute): Promise<string> {
  const logger = createLogger("silent");
  server = createServer((req, res) => serveRoute(route, req, res, logger));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${route.path}`;
}

describe("fleetbot's own HTTP routes", () => {
  it("a handler that rejects answers 500 instead of leaving an unhandled rejection", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const url = await serve({
        path: "/healthz",
        handler: async () => {
          throw new Error("store down");
        },
      });
      const answer = await fetch(url);
      expect(answer.status).toBe(500);
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("a handler that throws after it began answering ends the answer", async () => {
    const url = await serve({
      path: "/metrics",
      handler: (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("partial");
        throw new Error("late");
      },
    });
    const answer = await fetch(url);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("partial");
  });
});
