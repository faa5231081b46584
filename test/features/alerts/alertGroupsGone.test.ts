/**
 * A group message someone deleted must not hold back its members: members that join the
 * group later still get their reply (with its buttons), and the gone message is not edited
 * again every sweep.
 */
import { describe, expect, it } from "vitest";
import { AlertGroups, type GroupRun, groupKey } from "../../../src/features/alerts/alertGroups.js";
import type { IncidentChange } from "../../../src/features/alerts/incidents.js";
import { AlertPublishError, type AlertPublisher } from "../../../src/features/alerts/publisher.js";
import { SqliteAlertStore } from "../../../src/platform/store/alertStore.js";
import { openDatabase } from "../../../src/platform/store/database.js";
import { promised } from "../../../src/platform/store/promised.js";

const NOW = Date.UTC(2026, 10, 25, 10, 0, 0);

function open(i: number): IncidentChange {
  const uId = `t-${i}`;
  return {
    type: "open",
    account: "demo",
    transportUId: uId,
    codeUit: `UIT${String(i).padStart(13, "0")}`,
    kind: "transmission",
    code: "Error",
    at: NOW,
    state: "open",
    facts: { uId, codeUit: `UIT${String(i).padStart(13, "0")}`, statusId: 2 },
  };
}

describe("a grouped alert whose message was deleted", () => {
  it("still posts the replies of members that joined later, and stops editing the gone message", async () => {
    const store = promised(new SqliteAlertStore(openDatabase(":memory:"), () => NOW));
    let updates = 0;
    const replies: string[] = [];
    const publisher: AlertPublisher = {
      post: async () => ({ ts: "1.0" }),
      markResolved: async () => {},
      replyResolved: async () => ({ ts: "2.0" }),
      postGroup: async () => ({ ts: "100.0" }),
      updateGroup: async () => {
        updates++;
        throw new AlertPublishError("message_gone", "The alert message was deleted.");
      },
      postInThread: async (_target, _ts, incident) => {
        replies.push(incident.codeUit);
        return { ts: `${200 + replies.length}.0` };
      },
    };
    const groups = AlertGroups.for(store, publisher, 2)!;
    const run = (): GroupRun => ({
      account: "demo",
      result: { posted: 0, resolutionsSent: 0 },
      state: { rateLimited: false, signal: new AbortController().signal },
      tried: new Set(),
      groupOf: new Map(),
      failed: async () => {},
    });
    const first = await store.applyChanges([open(1), open(2), open(3)]);
    const storm = run();
    const target = { workspace: "", channel: "C1" };
    await groups.deliver([{ target, incidents: first }], new Set(), storm);
    expect(replies).toHaveLength(3);
    // A later page of the same sweep joins the group; its message is gone by now.
    const later = await store.applyChanges([open(4)]);
    await groups.deliver([{ target, incidents: later }], new Set(), storm);
    expect(replies).toHaveLength(4);
    // The next sweep edits the gone message no more.
    const seen = updates;
    const groupId = storm.groupOf.get(groupKey("demo", target))!;
    await groups.deliver([], new Set([groupId]), run());
    expect(updates).toBe(seen);
  });
});
