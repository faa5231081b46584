import { describe, expect, it } from "vitest";
import { LinkAttempts } from "../../src/slack/listeners/account.js";

const MIN = 60_000;

describe("LinkAttempts", () => {
  it("allows three attempts in ten minutes per user, then says when the oldest leaves the window", () => {
    const attempts = new LinkAttempts();
    expect(attempts.take("U1", 0)).toEqual({ ok: true });
    expect(attempts.take("U1", 2 * MIN)).toEqual({ ok: true });
    expect(attempts.take("U1", 4 * MIN)).toEqual({ ok: true });
    expect(attempts.take("U1", 5 * MIN)).toEqual({ ok: false, retryAt: 10 * MIN });
    // Another user has a budget of their own.
    expect(attempts.take("U2", 5 * MIN)).toEqual({ ok: true });
    // A refusal does not count: at 10 minutes the first attempt has left the window.
    expect(attempts.take("U1", 10 * MIN)).toEqual({ ok: true });
    expect(attempts.take("U1", 10 * MIN + 1)).toEqual({ ok: false, retryAt: 12 * MIN });
  });
});
