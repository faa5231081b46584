import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, defaultLogDestination, prettyLogStream } from "../../../src/platform/log.js";
import { logSecrets, SECRET_VALUES } from "./secretFixture.js";

function terminal(isTTY: boolean) {
  const chunks: string[] = [];
  const out = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    }),
    { isTTY },
  );
  return { out, text: () => chunks.join("") };
}

/** pino-pretty writes through a stream; give it a turn to flush. */
const flushed = () => new Promise((resolve) => setImmediate(resolve));

describe("logs at a terminal", () => {
  it("are readable lines, not JSON, when stdout is a terminal", async () => {
    const { out, text } = terminal(true);
    const destination = defaultLogDestination(out);
    expect(destination).toBeDefined();
    createLogger("info", destination).info({ account: "ops" }, "fleetbot listening");
    await flushed();
    const line = text().trim();
    expect(line).toContain("INFO");
    expect(line).toContain("fleetbot listening");
    expect(() => JSON.parse(line)).toThrow();
  });

  it("stay JSON lines (pino's own writer) when stdout is not a terminal", () => {
    expect(defaultLogDestination(terminal(false).out)).toBeUndefined();
  });

  it("keep redacting passwords, tokens, Authorization headers and signing secrets", async () => {
    const { out, text } = terminal(true);
    const logger = createLogger("debug", prettyLogStream(out, { colorize: false }));
    logSecrets(logger);
    await flushed();
    const written = text();
    for (const secret of SECRET_VALUES) expect(written).not.toContain(secret);
    expect(written).toContain("[redacted]");
    expect(written).toContain("ops");
  });
});
