import { Writable } from "node:stream";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { UnauthorizedError } from "../../../src/platform/fleet/errors.js";
import type { LoginResponse } from "../../../src/platform/fleet/schemas.js";
import {
  ALERT_LOGIN_RETRY_MS,
  type SharedToken,
  type SharedTokens,
  TokenManager,
} from "../../../src/platform/fleet/tokens.js";
import { createLogger } from "../../../src/platform/log.js";
import { recordingGate } from "./helpers.js";

const SECRET = "eyJ.secret-token-text";

/** The simulator-like answer of the n-th login. */
function loginAnswer(n: number, expiresIn: number, scope: string): LoginResponse {
  return {
    access_token: `${SECRET}-${n}`,
    expires_in: expiresIn,
    token_type: "Bearer",
    refresh_token: undefined,
    scope,
  };
}

function setup(options: { expiresIn?: number; marginMs?: number; failFirst?: boolean } = {}) {
  let now = Date.parse("2026-01-01T00:00:00Z");
  let logins = 0;
  const gate = recordingGate();
  const tokens = new TokenManager({
    account: "demo",
    password: "pw",
    gate,
    refreshMarginMs: options.marginMs,
    now: () => now,
    sendLogin: async (): Promise<LoginResponse> => {
      logins += 1;
      await new Promise((r) => setTimeout(r, 5));
      if (options.failFirst && logins === 1) throw new Error("login failed");
      return loginAnswer(logins, options.expiresIn ?? 28800, "openid profile");
    },
  });
  return {
    tokens,
    gate,
    logins: () => logins,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe("TokenManager", () => {
  it("logs in through the gate, as endpoint login without shareKey", async () => {
    const { tokens, gate } = setup();
    await tokens.token({ priority: "report", taskId: "t1" });
    expect(gate.calls).toEqual([
      {
        account: "demo",
        endpoint: "login",
        // The signal withdraws the queued login when a call's slot logs in first.
        context: { priority: "report", taskId: "t1", signal: expect.any(AbortSignal) },
      },
    ]);
  });

  it("reuses the token until the margin before expires_in runs out (not an assumed hour)", async () => {
    const { tokens, logins, advance } = setup({ expiresIn: 28800 });
    const first = await tokens.token();
    expect(first.expiresAt.toISOString()).toBe("2026-01-01T08:00:00.000Z");
    advance(2 * 3600_000); // past one hour: still reused
    expect(await tokens.token()).toBe(first);
    advance(6 * 3600_000 - 61_000); // 61 s before expiry: still reused
    expect(await tokens.token()).toBe(first);
    advance(2_000); // 59 s before expiry: inside the default 60 s margin
    const second = await tokens.token();
    expect(second).not.toBe(first);
    expect(logins()).toBe(2);
  });

  it("caps the margin at half of a short token lifetime", async () => {
    const { tokens, advance } = setup({ expiresIn: 10, marginMs: 60_000 });
    const first = await tokens.token();
    advance(4_000);
    expect(await tokens.token()).toBe(first);
    advance(1_500);
    expect(await tokens.token()).not.toBe(first);
  });

  it("runs one login at a time: concurrent callers share it", async () => {
    const { tokens, logins, gate } = setup();
    const all = await Promise.all([tokens.token(), tokens.token(), tokens.renew(), tokens.token()]);
    expect(new Set(all).size).toBe(1);
    expect(logins()).toBe(1);
    expect(gate.calls).toHaveLength(1);
  });

  it("a failed login fails its waiters, and the next call tries again", async () => {
    const { tokens, logins } = setup({ failFirst: true });
    const results = await Promise.allSettled([tokens.token(), tokens.token()]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    await expect(tokens.token()).resolves.toBeDefined();
    expect(logins()).toBe(2);
  });

  it("a caller whose signal aborts stops waiting; the shared login goes on for the others", async () => {
    const { tokens, logins } = setup();
    const controller = new AbortController();
    const leaving = tokens.token({ signal: controller.signal });
    const staying = tokens.token();
    controller.abort();
    await expect(leaving).rejects.toThrow();
    await expect(staying).resolves.toBeDefined();
    expect(logins()).toBe(1);
  });

  it("a caller already cancelled starts no login, and leaves no rejection unheard", async () => {
    // Regression: a cancelled task's renew() queued a login nobody listened to; when it failed
    // (CI: a closing simulator), its rejection went unhandled, which ends a Node process.
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const { tokens, logins, gate } = setup({ failFirst: true });
      const controller = new AbortController();
      controller.abort();
      await expect(tokens.renew({ signal: controller.signal })).rejects.toThrow();
      await expect(tokens.token({ signal: controller.signal })).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 20)); // a login would have failed after 5 ms
      await new Promise((r) => setImmediate(r));
      expect(gate.calls).toEqual([]);
      expect(logins()).toBe(0);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("a shared login that fails after every caller left is still heard", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const { tokens, logins } = setup({ failFirst: true });
      const first = new AbortController();
      const second = new AbortController();
      const leaving = [tokens.token({ signal: first.signal }), tokens.renew({ signal: second.signal })];
      first.abort();
      second.abort();
      for (const call of leaving) await expect(call).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setImmediate(r));
      expect(logins()).toBe(1);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("invalidate forgets the current token, but not a newer one for an old token's late 401", async () => {
    const { tokens, logins } = setup();
    const first = await tokens.token();
    tokens.invalidate(first);
    expect(tokens.expiresAt()).toBeUndefined();
    const second = await tokens.token();
    tokens.invalidate(first);
    expect(await tokens.token()).toBe(second);
    expect(logins()).toBe(2);
    tokens.invalidate();
    expect(tokens.current()).toBeUndefined();
  });

  it("exposes expiresAt and renewAt for a background refresher", async () => {
    const { tokens } = setup({ expiresIn: 3600 });
    expect(tokens.expiresAt()).toBeUndefined();
    await tokens.token();
    expect(tokens.expiresAt()?.toISOString()).toBe("2026-01-01T01:00:00.000Z");
    expect(tokens.renewAt()?.toISOString()).toBe("2026-01-01T00:59:00.000Z");
  });

  it("never shows the token text in strings, JSON, inspect or logs", async () => {
    const { tokens } = setup();
    const token = await tokens.token();
    expect(token.authorization()).toBe(`Bearer ${SECRET}-1`);
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    createLogger("debug", sink).info({ token, tokens, nested: { token } }, "state");
    for (const text of [
      String(token),
      JSON.stringify(token),
      inspect(token),
      inspect(tokens),
      JSON.stringify(tokens),
      ...lines,
    ]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain("pw");
    }
  });
});

describe("TokenManager, a refused login", () => {
  function refusing(refusals: number, retryRefusedLogin?: boolean) {
    let logins = 0;
    const gate = recordingGate();
    const tokens = new TokenManager({
      account: "demo",
      password: "pw",
      gate,
      retryRefusedLogin,
      sendLogin: async (): Promise<LoginResponse> => {
        logins += 1;
        if (logins <= refusals) throw new UnauthorizedError("login", "login", { status: 401 });
        return {
          access_token: "t",
          expires_in: 28800,
          token_type: "Bearer",
          refresh_token: undefined,
          scope: "",
        };
      },
    });
    return { tokens, logins: () => logins };
  }

  it("a single passing 401 is tried once more and the task gets its token", async () => {
    const { tokens, logins } = refusing(1);
    await expect(tokens.token()).resolves.toBeDefined();
    expect(logins()).toBe(2);
  });

  it("a lasting refusal fails after the second try, not in a loop", async () => {
    const { tokens, logins } = refusing(5);
    await expect(tokens.token()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(logins()).toBe(2);
  });

  it("credentials someone offers (a link attempt) are refused at the first 401", async () => {
    const { tokens, logins } = refusing(1, false);
    await expect(tokens.token()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(logins()).toBe(1);
  });
});

/** The replicas' shared store as an in-memory map (the Redis one is tested against a real server). */
class MapTokens implements SharedTokens {
  readonly kept = new Map<string, SharedToken>();
  failing = false;
  loads = 0;
  async load(account: string, _password: string) {
    this.loads += 1;
    if (this.failing) throw new Error("redis down");
    return this.kept.get(account);
  }
  async save(account: string, _password: string, token: SharedToken) {
    if (this.failing) throw new Error("redis down");
    this.kept.set(account, token);
  }
  async drop(account: string, value: string) {
    if (this.kept.get(account)?.value === value) this.kept.delete(account);
  }
}

describe("TokenManager, replicas sharing the account's token", () => {
  function replicas(count: number, options: { expiresIn?: number } = {}) {
    let now = Date.parse("2026-01-01T00:00:00Z");
    let logins = 0;
    const shared = new MapTokens();
    const managers = Array.from(
      { length: count },
      () =>
        new TokenManager({
          account: "demo",
          password: "pw",
          gate: recordingGate(),
          now: () => now,
          shared,
          sendLogin: async (): Promise<LoginResponse> => {
            logins += 1;
            return loginAnswer(logins, options.expiresIn ?? 3600, "openid");
          },
        }),
    );
    return {
      managers,
      shared,
      logins: () => logins,
      advance: (ms: number) => (now += ms),
      /** Logins so far, and the login whose token the shared store holds (0: none). */
      state: () => ({ logins, shared: Number(shared.kept.get("demo")?.value.split("-").at(-1) ?? 0) }),
    };
  }

  it("a replica without a token takes the one another replica got: one login for both", async () => {
    const { managers, shared, logins } = replicas(2);
    const [a, b] = managers as [TokenManager, TokenManager];
    const first = await a.token();
    expect(shared.kept.get("demo")?.value).toBe(`${SECRET}-1`);
    const taken = await b.token();
    expect(logins()).toBe(1);
    expect(taken.authorization()).toBe(first.authorization());
    expect(taken.expiresAt).toEqual(first.expiresAt);
    expect(taken.scopes).toEqual(["openid"]);
  });

  it("a burst of callers on a replica without a token looks into the shared store once", async () => {
    const { managers, shared, state } = replicas(2);
    const [a, b] = managers as [TokenManager, TokenManager];
    await a.token();
    const loadsBefore = shared.loads;
    const all = await Promise.all(Array.from({ length: 20 }, () => b.token()));
    expect(new Set(all).size).toBe(1);
    expect(shared.loads - loadsBefore).toBe(1);
    expect(state()).toEqual({ logins: 1, shared: 1 });
  });

  it("a shared token inside the renewal margin is not taken: the replica logs in and shares its own", async () => {
    const { managers, state, advance } = replicas(2, { expiresIn: 3600 });
    const [a, b] = managers as [TokenManager, TokenManager];
    await a.token();
    advance(3600_000 - 30_000); // 30 s before expiry, inside the 60 s margin
    expect((await b.token()).authorization()).toBe(`Bearer ${SECRET}-2`);
    expect(state()).toEqual({ logins: 2, shared: 2 });
    // …which the first replica now takes instead of logging in a third time.
    expect((await a.token()).authorization()).toBe(`Bearer ${SECRET}-2`);
    expect(state()).toEqual({ logins: 2, shared: 2 });
  });

  it("a token the service refused is dropped for everyone, but not a newer one another replica shared", async () => {
    const { managers, state } = replicas(2);
    const [a, b] = managers as [TokenManager, TokenManager];
    const refused = await a.token();
    b.invalidate(await b.token());
    await new Promise((r) => setImmediate(r));
    expect(state()).toEqual({ logins: 1, shared: 0 });
    // B logs in again rather than take the refused token back from anywhere.
    expect((await b.token()).authorization()).toBe(`Bearer ${SECRET}-2`);
    // A's late 401 for the old token drops nothing: the shared one is B's newer token.
    a.invalidate(refused);
    await new Promise((r) => setImmediate(r));
    expect((await a.token()).authorization()).toBe(`Bearer ${SECRET}-2`);
    expect(state()).toEqual({ logins: 2, shared: 2 });
  });

  it("renew() logs in whatever is shared (an early renewal, a credentials check) and shares the new token", async () => {
    const { managers, state } = replicas(2);
    const [a, b] = managers as [TokenManager, TokenManager];
    await a.token();
    expect((await b.renew()).authorization()).toBe(`Bearer ${SECRET}-2`);
    expect(state()).toEqual({ logins: 2, shared: 2 });
  });

  it("when the shared store cannot be reached, each replica logs in on its own and works", async () => {
    const { managers, shared, logins } = replicas(2);
    shared.failing = true;
    const [a, b] = managers as [TokenManager, TokenManager];
    await expect(a.token()).resolves.toBeDefined();
    await expect(b.token()).resolves.toBeDefined();
    expect(logins()).toBe(2);
  });
});

describe("TokenManager after a refused login", () => {
  function refusing() {
    let now = Date.parse("2026-01-01T00:00:00Z");
    let logins = 0;
    let refuse = true;
    const tokens = new TokenManager({
      account: "demo",
      password: "old",
      gate: recordingGate(),
      now: () => now,
      sendLogin: async (): Promise<LoginResponse> => {
        logins += 1;
        if (refuse) throw new UnauthorizedError("login", "login", { status: 401 });
        return loginAnswer(logins, 28800, "openid");
      },
    });
    return {
      tokens,
      logins: () => logins,
      advance: (ms: number) => {
        now += ms;
      },
      accept: () => {
        refuse = false;
      },
    };
  }

  it("upkeep never logs in again; an alert sweep tries once per ALERT_LOGIN_RETRY_MS; a person always", async () => {
    const { tokens, logins, advance, accept } = refusing();
    await expect(tokens.renew({ priority: "background" })).rejects.toBeInstanceOf(UnauthorizedError);
    // One try, no retry for unattended work: repeated refusals can lock the account upstream.
    expect(logins()).toBe(1);
    for (let i = 0; i < 5; i++) {
      advance(5 * 60_000);
      await expect(tokens.renew({ priority: "background" })).rejects.toBeInstanceOf(UnauthorizedError);
    }
    expect(logins()).toBe(1);
    // Alerts: silent before the cool-down (25 min since the refusal), one try after it.
    await expect(tokens.renew({ priority: "alert" })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(logins()).toBe(1);
    advance(ALERT_LOGIN_RETRY_MS);
    await expect(tokens.renew({ priority: "alert" })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(logins()).toBe(2);
    await expect(tokens.renew({ priority: "alert" })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(logins()).toBe(2);
    // A person's command logs in (and is told); once it works, everyone may again.
    accept();
    await tokens.renew({ priority: "interactive" });
    expect(logins()).toBe(3);
    expect(tokens.loginRefused).toBe(false);
  });
});
