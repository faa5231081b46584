import { describe, expect, it } from "vitest";
import { WorkspaceEvents } from "../../../src/platform/workspaces/events.js";
import { type WorkspaceData, WorkspaceRemoval } from "../../../src/platform/workspaces/removal.js";
import { ONLY_WORKSPACE } from "../../../src/platform/workspaces/workspace.js";

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Whether `promise` has settled after every callback already queued has run. */
async function hasSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

function removalWith(data: Omit<WorkspaceData, "stage">[], installedAt?: number) {
  const events = new WorkspaceEvents();
  for (const part of data) events.onRemoved({ stage: "data", ...part });
  return new WorkspaceRemoval({
    installations: {
      deleteIfInstalledBefore: async () => installedAt === undefined,
      installedAt: async () => installedAt,
      deleteInstallation: async () => undefined,
    },
    events,
    logger,
    retryMs: 5,
  });
}

/** idle(): tests prove with it that no removal runs, instead of waiting a while. */
describe("WorkspaceRemoval.idle", () => {
  it("resolves at once when nothing was asked", async () => {
    expect(await hasSettled(removalWith([]).idle())).toBe(true);
  });

  it("counts a fire-and-forget removal from the call on, until its last part is deleted", async () => {
    const slowPart = deferred();
    const deleted: string[] = [];
    const removal = removalWith([
      {
        name: "tasks",
        deleteWorkspace: async (key) => {
          await slowPart.promise;
          deleted.push(key);
        },
      },
    ]);
    void removal.tokenDead("T0DEAD");
    // Asked for synchronously: idle already knows, before the removal's first await.
    const idle = removal.idle();
    expect(await hasSettled(idle)).toBe(false);
    slowPart.resolve();
    await idle;
    expect(deleted).toEqual(["T0DEAD"]);
  });

  it("waits for the retries of a part that failed", async () => {
    let tries = 0;
    const removal = removalWith([
      {
        name: "flaky",
        deleteWorkspace: () => {
          tries++;
          if (tries < 3) throw new Error("store busy");
        },
      },
    ]);
    void removal.purge("T0GONE");
    await removal.idle();
    expect(tries).toBe(3);
  });

  it("an uninstall older than the installation is idle once it has decided; a refused purge is idle too", async () => {
    const deleted: string[] = [];
    const removal = removalWith([{ name: "tasks", deleteWorkspace: (key) => deleted.push(key) }], Date.now());
    const outcome = removal.uninstalled({ teamId: "T0BACK" }, Date.now() - 60_000);
    await removal.idle();
    expect(await outcome).toBe("older-than-install");
    expect(deleted).toEqual([]);

    await expect(removal.purge(ONLY_WORKSPACE)).rejects.toThrow("never purged");
    expect(await hasSettled(removal.idle())).toBe(true);
  });

  it("several removals at once: idle when the last one ends", async () => {
    const first = deferred();
    const second = deferred();
    const gates = [first, second];
    const removal = removalWith([{ name: "tasks", deleteWorkspace: () => gates.shift()!.promise }]);
    void removal.purge("T0ONE");
    void removal.purge("T0TWO");
    const idle = removal.idle();
    first.resolve();
    expect(await hasSettled(idle)).toBe(false);
    second.resolve();
    await idle;
  });
});

/** Parts subscribe where they are built, in any order; a removal deletes stage by stage. */
describe("WorkspaceEvents", () => {
  it("a removal deletes the work, then the data, then the fleet accounts, then memory, whatever the order of subscription", async () => {
    const events = new WorkspaceEvents();
    const deleted: string[] = [];
    const part = (name: string, stage: "work" | "data" | "accounts" | "memory") =>
      events.onRemoved({ name, stage, deleteWorkspace: (key) => deleted.push(`${name} of ${key}`) });
    part("clients", "memory");
    part("linked accounts", "data");
    part("fleet accounts", "accounts");
    part("tasks", "work");
    part("settings", "data");
    part("listener deps", "memory");
    const removal = new WorkspaceRemoval({
      installations: {
        deleteIfInstalledBefore: async () => true,
        installedAt: async () => undefined,
        deleteInstallation: async () => undefined,
      },
      events,
      logger,
    });
    expect(await removal.uninstalled({ teamId: "T0GONE" }, Date.now())).toBe("removed");
    expect(deleted).toEqual([
      "tasks of T:T0GONE",
      "linked accounts of T:T0GONE",
      "settings of T:T0GONE",
      "fleet accounts of T:T0GONE",
      "clients of T:T0GONE",
      "listener deps of T:T0GONE",
    ]);
  });

  it("a token found dead before the removal is built is removed once it is; a fresh install purges through it", async () => {
    const events = new WorkspaceEvents();
    const deleted: string[] = [];
    events.onRemoved({ name: "tasks", stage: "work", deleteWorkspace: (key) => deleted.push(key) });
    events.tokenDead("T0EARLY");
    await events.installedAnew("T0NEW");
    expect(deleted).toEqual([]);
    const removal = new WorkspaceRemoval({
      installations: {
        deleteIfInstalledBefore: async () => false,
        installedAt: async () => undefined,
        deleteInstallation: async () => undefined,
      },
      events,
      logger,
    });
    await removal.idle();
    expect(deleted).toEqual(["T0EARLY"]);
    await events.installedAnew("T0NEW");
    expect(deleted).toEqual(["T0EARLY", "T0NEW"]);
  });
});
