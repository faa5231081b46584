import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/platform/log.js";
import { logSecrets, SECRET_VALUES } from "./secretFixture.js";

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
    logSecrets(logger);
    const text = lines.join("");
    for (const secret of SECRET_VALUES) expect(text).not.toContain(secret);
    expect(text).toContain("[redacted]");
    expect(text).toContain('"username":"ops"');
  });
});
