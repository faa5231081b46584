/**
 * A full disk is told, not silent: on a small tmpfs filled to the last byte, a command is
 * answered within the ack ("nothing was queued"), /healthz turns 503 with the reason, and once
 * space is back everything works again by itself.
 */
import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lastSeenBy, startBotHarness, textOf } from "../../helpers/botHarness.js";

const USER = "U0DISPATCH";
const CHANNEL = "C0GENERAL";

function smallDisk(): { root: string; dataDir: string; release(): void } | { skip: string } {
  const root = mkdtempSync(join(tmpdir(), "fleetbot-full-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", root], { stdio: "ignore" });
  } catch {
    rmSync(root, { recursive: true, force: true });
    return { skip: "cannot mount a tmpfs here (needs root on Linux)" };
  }
  const dataDir = join(root, "data");
  mkdirSync(dataDir);
  return {
    root,
    dataDir,
    release() {
      execFileSync("umount", ["-l", root], { stdio: "ignore" });
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Writes a file until the disk says ENOSPC; returns its path. */
function fill(root: string): string {
  const path = join(root, "filler");
  const fd = openSync(path, "w");
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch {
    // Full: one byte at a time for the last scraps.
    try {
      for (;;) writeSync(fd, Buffer.alloc(1, 1));
    } catch {}
  } finally {
    closeSync(fd);
  }
  return path;
}

describe("a full disk", () => {
  const disk = smallDisk();
  it.skipIf("skip" in disk)(
    `is told to the user within the ack and by /healthz, and recovers by itself${"skip" in disk ? ` (skipped: ${disk.skip})` : ""}`,
    async () => {
      if ("skip" in disk) return;
      const h = await startBotHarness({ env: { DATA_DIR: disk.dataDir } });
      try {
        const plate = h.bot.simulator!.vehicles[0]!.plate;
        const where = () =>
          h.driver.slashCommand({
            command: "/fleet",
            text: `where ${plate}`,
            userId: USER,
            channelId: CHANNEL,
          });
        await where();
        await h.settle();
        const filler = fill(disk.root);

        // The WAL may still have room for a few rows: ask until the store refuses.
        let refused = "";
        for (let i = 0; i < 40 && !refused; i++) {
          const result = await where();
          expect(result.status).toBe(200);
          const seen = textOf(lastSeenBy(h.fake, CHANNEL, USER));
          if (seen.includes("cannot save requests right now")) refused = seen;
        }
        expect(refused).toContain("nothing was queued");
        const unhealthy = await fetch(`${h.bot.url}/healthz`);
        expect(unhealthy.status).toBe(503);
        expect(((await unhealthy.json()) as { store: string }).store).toMatch(/full/);

        unlinkSync(filler);
        const healthy = await fetch(`${h.bot.url}/healthz`);
        expect(healthy.status).toBe(200);
        h.fake.reset();
        await where();
        await h.settle();
        expect(textOf(lastSeenBy(h.fake, CHANNEL, USER))).toContain(plate);
        expect(h.fake.violations).toEqual([]);
      } finally {
        await h.close();
        disk.release();
      }
    },
  );
});
