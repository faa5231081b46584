import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger("debug", stream) };
}

describe("logger redaction", () => {
  it("never writes passwords, tokens, Authorization headers or signing secrets", () => {
    const { lines, logger } = capture();
    logger.info({ password: "hunter2", username: "ops" }, "login");
    logger.info({ account: { password: "p4ss", username: "x" } }, "nested");
    logger.info({ access_token: "eyJhbGciOi.payload.sig", refresh_token: "r3fr3sh" }, "tokens");
    logger.info({ req: { headers: { authorization: "Bearer eyJabc" } } }, "request");
    logger.info({ slack: { signingSecret: "s1gn", botToken: "xoxb-123", appToken: "xapp-1-2" } }, "config");
    const text = lines.join("");
    for (const secret of [
      "hunter2",
      "p4ss",
      "eyJhbGciOi",
      "r3fr3sh",
      "Bearer eyJabc",
      "s1gn",
      "xoxb-123",
      "xapp-1-2",
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain("[redacted]");
    expect(text).toContain('"username":"ops"');
  });
});
