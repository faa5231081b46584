import { describe, expect, it } from "vitest";
import { WorkspaceEvents } from "../../../src/platform/workspaces/events.js";
import { WorkspaceRemoval } from "../../../src/platform/workspaces/removal.js";

/** A dead token's removal runs fire-and-forget from a failed Slack call: it must never reject. */
describe("WorkspaceRemoval.tokenDead", () => {
  const logged: unknown[] = [];
  const logger = {
    info: () => undefined,
    warn: () => undefined,
    error: (detail: unknown) => logged.push(detail),
  };

  it("a store that fails is logged, not thrown", async () => {
    const removal = new WorkspaceRemoval({
      installations: {
        deleteIfInstalledBefore: async () => false,
        installedAt: async () => undefined,
        deleteInstallation: async () => {
          throw new Error("store down");
        },
      },
      events: new WorkspaceEvents(),
      logger,
    });
    await expect(removal.tokenDead("T0DEAD")).resolves.toBeUndefined();
    expect(logged).toEqual([expect.objectContaining({ workspace: "T0DEAD" })]);
  });

  it("a working store removes the installation and the workspace's data", async () => {
    const deleted: string[] = [];
    const events = new WorkspaceEvents();
    events.onRemoved({
      name: "tasks",
      stage: "work",
      deleteWorkspace: (key) => deleted.push(`tasks of ${key}`),
    });
    const removal = new WorkspaceRemoval({
      installations: {
        deleteIfInstalledBefore: async () => false,
        installedAt: async () => undefined,
        deleteInstallation: async () => {
          deleted.push("installation");
        },
      },
      events,
      logger,
    });
    await removal.tokenDead("T0DEAD");
    expect(deleted).toEqual(["installation", "tasks of T0DEAD"]);
  });
});
