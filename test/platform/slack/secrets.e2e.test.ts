/**
 * Passwords, tokens and signing secrets never reach a log or the store in clear: the real
 * process (`src/main.ts`, sandbox mode) at LOG_LEVEL=trace, a user linking an account through
 * the sandbox page's API (the same signed requests as Slack), then its whole output searched.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { INPUTS } from "../../../src/platform/slack/actionIds.js";

/** A password no log line could contain by chance: any occurrence is a leak. */
const PASSWORD = "Zq7-unusual-Pa55word";
const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-secrets-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("secrets", () => {
  it("a linked account's password never appears in the log (trace level) nor in clear in the store", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      env: {
        ...process.env,
        PORT: "0",
        DATA_DIR: dataDir,
        LOG_LEVEL: "trace",
        FLEET_MIN_INTERVAL_MS: "50",
        CREDENTIALS_KEY: Buffer.alloc(32, 3).toString("base64"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.stderr!.on("data", (c: Buffer) => {
      output += c.toString();
    });
    try {
      const until = async (check: () => boolean, what: string) => {
        for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
        if (!check()) throw new Error(`timed out waiting for ${what}\n${output.slice(-2000)}`);
      };
      await until(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(output), "the bot to listen");
      const base = output.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)![1]!;
      // A user of the embedded simulator with that password (its control API is on in the sandbox).
      const sim = output.match(/simulator at (http:\/\/127\.0\.0\.1:\d+)/)![1]!;
      const added = await fetch(`${sim}/__control/users`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "ana", password: PASSWORD, vehicleIds: "all" }),
      });
      expect(added.status).toBe(200);
      // The sandbox API answers only with the token its page carries.
      const token = /name="sandbox-token" content="([^"]+)"/.exec(
        await (await fetch(`${base}/`)).text(),
      )![1]!;
      const post = (path: string, body: unknown) =>
        fetch(`${base}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-sandbox-token": token },
          body: JSON.stringify(body),
        });
      await post("/sandbox/command", { channel: "C0GENERAL", text: "/fleet login" });
      let viewId: string | undefined;
      async function refreshView() {
        const state = (await (
          await fetch(`${base}/sandbox/state`, { headers: { "x-sandbox-token": token } })
        ).json()) as {
          modals: { id?: string; viewId?: string }[];
        };
        const modal = state.modals.at(-1);
        viewId = modal?.id ?? modal?.viewId;
      }
      for (let i = 0; i < 50 && !viewId; i++) {
        await refreshView();
        if (!viewId) await new Promise((r) => setTimeout(r, 50));
      }
      expect(viewId).toBeDefined();
      const submitted = await post("/sandbox/submit", {
        viewId,
        values: {
          [INPUTS.loginUsername.block]: { [INPUTS.loginUsername.action]: "ana" },
          [INPUTS.loginPassword.block]: { [INPUTS.loginPassword.action]: PASSWORD },
        },
      });
      expect(submitted.status).toBe(200);
      await until(() => /"account":"ana"/.test(output), "the login of ana through the gate");
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.on("exit", r));
    }
    expect(output).toContain('"level":20'); // debug lines were written: the search below means something
    expect(output).not.toContain(PASSWORD);
    expect(output).not.toMatch(/Bearer [A-Za-z0-9._-]{10,}/);
    expect(output).not.toMatch(/xoxb-[A-Za-z0-9-]{6,}/);
    for (const file of readdirSync(dataDir)) {
      const bytes = readFileSync(join(dataDir, file)).toString("latin1");
      expect(bytes).not.toContain(PASSWORD);
    }
  }, 40_000);
});
