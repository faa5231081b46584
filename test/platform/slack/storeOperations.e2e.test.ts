/**
 * What an operator meets on the store: a changed CREDENTIALS_KEY told in one line (and to each
 * affected user), a read-only DATA_DIR named as such, and retention that runs by itself.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/platform/log.js";
import { SqliteAccountStore } from "../../../src/platform/store/accountStore.js";
import { openDatabase, StoreError } from "../../../src/platform/store/database.js";
import { DAY_MS } from "../../../src/platform/store/retention.js";
import { SqliteTaskStore } from "../../../src/platform/store/taskStore.js";
import { lastSeenBy, startBotHarness, textOf } from "../../helpers/botHarness.js";

const KEY_A = Buffer.alloc(32, 1);
const KEY_B = Buffer.alloc(32, 2);
const USER = "U0DISPATCH";
const CHANNEL = "C0GENERAL";

function capturingLogger() {
  const lines: { msg?: string; level?: number }[] = [];
  const logger = createLogger("info", {
    write(line: string) {
      lines.push(JSON.parse(line));
    },
  });
  return { logger, lines };
}

describe("a changed CREDENTIALS_KEY", () => {
  it("is told at start in one line, and the affected user is asked to link again", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-key-"));
    const db = openDatabase(dataDir);
    new SqliteAccountStore(db, KEY_A).link("", USER, "demo", "demo");
    db.close();

    const { logger, lines } = capturingLogger();
    const h = await startBotHarness({
      env: { DATA_DIR: dataDir, CREDENTIALS_KEY: KEY_B.toString("base64") },
      start: { logger },
    });
    try {
      const keyLines = lines.filter((l) => l.msg?.includes("cannot be decrypted"));
      expect(keyLines).toHaveLength(1);
      expect(keyLines[0]!.msg).toMatch(/^1 linked account cannot be decrypted with this CREDENTIALS_KEY/);

      const plate = h.bot.simulator!.vehicles[0]!.plate;
      await h.driver.slashCommand({
        command: "/fleet",
        text: `where ${plate}`,
        userId: USER,
        channelId: CHANNEL,
      });
      await h.settle();
      const answer = textOf(lastSeenBy(h.fake, CHANNEL, USER));
      expect(answer).toContain("/fleet login");
      expect(answer).not.toContain("details are in its log");
      expect(h.fake.violations).toEqual([]);
    } finally {
      await h.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("retention", () => {
  it("runs at start: a task finished 15 days ago is gone, one finished yesterday stays", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-retention-"));
    const db = openDatabase(dataDir);
    const tasks = new SqliteTaskStore(db);
    const ids = [15, 1].map((days) => {
      const { task } = tasks.create({
        kind: "vehicle-report",
        params: {},
        account: "demo",
        reply: {},
        priority: "report",
      });
      db.prepare("UPDATE tasks SET state = 'done', finished_at = ?, delivered_at = ? WHERE id = ?").run(
        Date.now() - days * DAY_MS,
        Date.now() - days * DAY_MS,
        task.id,
      );
      return task.id;
    });
    db.close();

    const h = await startBotHarness({ env: { DATA_DIR: dataDir, TASK_RETENTION_DAYS: "14" } });
    try {
      expect(await h.bot.tasks.get(ids[0]!)).toBeUndefined();
      expect(await h.bot.tasks.get(ids[1]!)).toBeDefined();
    } finally {
      await h.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** A read-only file system needs a mount; root on Linux can make one, elsewhere the test says it skipped. */
function readOnlyMount(): { dir: string; release(): void } | { skip: string } {
  const dir = mkdtempSync(join(tmpdir(), "fleetbot-ro-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir], { stdio: "ignore" });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return { skip: "cannot mount a tmpfs here (needs root on Linux)" };
  }
  mkdirSync(join(dir, "data"));
  execFileSync("mount", ["-o", "remount,ro", dir], { stdio: "ignore" });
  return {
    dir: join(dir, "data"),
    release() {
      execFileSync("umount", [dir], { stdio: "ignore" });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe("a read-only DATA_DIR", () => {
  const mount = readOnlyMount();
  it.skipIf("skip" in mount)(
    `is reported as read-only, not as corrupt${"skip" in mount ? ` (skipped: ${mount.skip})` : ""}`,
    () => {
      if ("skip" in mount) return;
      try {
        let error: unknown;
        try {
          openDatabase(mount.dir);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(StoreError);
        expect(String((error as Error).message)).toMatch(/is read-only/);
        expect(String((error as Error).message)).not.toMatch(/corrupt/);
      } finally {
        mount.release();
      }
    },
  );
});
