import { describe, expect, it } from "vitest";
import type { IncidentChange } from "../../../../src/features/alerts/incidents.js";
import { describeContract, NOW, type StoreSet } from "./backends.js";

type OpenChange = Extract<IncidentChange, { type: "open" }>;
const open = (n: number): OpenChange => ({
  type: "open",
  account: "demo",
  transportUId: `t-${n}`,
  codeUit: `UIT${n}`,
  kind: "transmission",
  code: "Error",
  at: NOW,
  state: "open",
  facts: { uId: `t-${n}`, codeUit: `UIT${n}`, statusId: 2 },
});

async function storm(s: StoreSet, count: number): Promise<string[]> {
  const incidents = await s.alerts.applyChanges(Array.from({ length: count }, (_, i) => open(i)));
  return incidents.map((i) => i.id);
}

describeContract("AlertRepository: grouped alerts", (backend) => {
  describe("groups", () => {
    it("stores a group and its members before anything is posted, in order, each with its post row", async () => {
      const s = await backend.open();
      const ids = await storm(s, 7);
      const group = await s.alerts.createGroup("demo", "C1", ids);
      expect(group).toEqual({
        id: expect.any(String),
        account: "demo",
        workspace: "",
        channel: "C1",
        createdAt: NOW,
        shown: 0,
        attempts: 0,
      });
      expect(await s.alerts.group(group.id)).toEqual(group);
      const members = await s.alerts.groupMembers(group.id);
      expect(members.map((m) => m.incident.id)).toEqual(ids);
      expect(members.map((m) => m.post)).toEqual(
        ids.map((incidentId) => ({
          incidentId,
          workspace: "",
          channel: "C1",
          attempts: 0,
          groupId: group.id,
        })),
      );
      expect(await s.alerts.post(ids[0]!, "C1")).toMatchObject({ groupId: group.id });
    });

    it("records the group's post once, what it showed, failures, and its resolution; a posted or grouped member is not taken again", async () => {
      const s = await backend.open();
      const ids = await storm(s, 8);
      await s.alerts.ensurePost(ids[0]!, "C1");
      await s.alerts.recordPosted(ids[0]!, "C1", "1.0001");
      const group = await s.alerts.createGroup("demo", "C1", ids.slice(0, 6));
      // The posted one stays single; the others joined.
      expect((await s.alerts.groupMembers(group.id)).map((m) => m.incident.id)).toEqual(ids.slice(1, 6));
      // Another group does not take members of the first.
      const other = await s.alerts.createGroup("demo", "C1", ids.slice(4, 7));
      expect((await s.alerts.groupMembers(other.id)).map((m) => m.incident.id)).toEqual([ids[6]]);
      // A later page of the sweep joins.
      expect(await s.alerts.addToGroup(group.id, [ids[6]!, ids[7]!])).toMatchObject({ id: group.id });
      expect((await s.alerts.groupMembers(group.id)).map((m) => m.incident.id)).toEqual([
        ...ids.slice(1, 6),
        ids[7],
      ]);
      expect(await s.alerts.addToGroup("nope", [ids[7]!])).toBeUndefined();

      await s.alerts.recordGroupFailure(group.id, "Slack rate limit");
      expect(await s.alerts.group(group.id)).toMatchObject({ attempts: 1, lastError: "Slack rate limit" });
      await s.alerts.recordGroupPosted(group.id, "2.0001", 5);
      await s.alerts.recordGroupPosted(group.id, "3.0001", 9);
      expect(await s.alerts.group(group.id)).toMatchObject({
        ts: "2.0001",
        postedAt: NOW,
        shown: 5,
        attempts: 2,
      });
      expect((await s.alerts.group(group.id))?.lastError).toBeUndefined();
      await s.alerts.recordGroupShown(group.id, 6);
      await s.alerts.recordGroupShown(group.id, 4);
      expect(await s.alerts.group(group.id)).toMatchObject({ shown: 6 });
      await s.alerts.recordGroupResolved(group.id);
      expect(await s.alerts.group(group.id)).toMatchObject({ resolvedAt: NOW });
    });

    it("a group goes with its last member when resolved incidents are purged", async () => {
      const s = await backend.open();
      const ids = await storm(s, 6);
      const group = await s.alerts.createGroup("demo", "C1", ids);
      await s.alerts.recordGroupPosted(group.id, "2.0001", 6);
      await s.alerts.applyChanges(
        ids.map(
          (id) =>
            ({ type: "resolve", id, at: NOW + 1, reason: "recovered", wasOpen: true }) as IncidentChange,
        ),
      );
      for (const id of ids) await s.alerts.recordResolutionDone(id, "C1");
      await s.alerts.purge(NOW + 2);
      expect(await s.alerts.group(group.id)).toBeUndefined();
      expect(await s.alerts.groupMembers(group.id)).toEqual([]);
    });

    it("a group belongs to one workspace's channel: the same channel id in another workspace has its own group and posts", async () => {
      const s = await backend.open();
      const ids = await storm(s, 4);
      const a = await s.alerts.createGroup("demo", "C1", ids.slice(0, 3), "T:ALPHA");
      const b = await s.alerts.createGroup("demo", "C1", ids.slice(0, 2), "T:BRAVO");
      expect(a).toMatchObject({ workspace: "T:ALPHA", channel: "C1", account: "demo" });
      expect(await s.alerts.group(b.id)).toMatchObject({ workspace: "T:BRAVO", channel: "C1" });
      // Grouped in A does not keep an incident out of B's group: they are different posts.
      expect((await s.alerts.groupMembers(b.id)).map((m) => m.incident.id)).toEqual(ids.slice(0, 2));
      expect((await s.alerts.groupMembers(b.id)).map((m) => m.post.workspace)).toEqual([
        "T:BRAVO",
        "T:BRAVO",
      ]);
      // A later page joins in the group's own workspace.
      await s.alerts.addToGroup(a.id, [ids[3]!]);
      expect(await s.alerts.post(ids[3]!, "C1", "T:ALPHA")).toMatchObject({ groupId: a.id });
      expect(await s.alerts.post(ids[3]!, "C1", "T:BRAVO")).toBeUndefined();
      expect(await s.alerts.post(ids[0]!, "C1")).toBeUndefined();
      expect(await s.alerts.post(ids[0]!, "C1", "T:BRAVO")).toMatchObject({ groupId: b.id });
      // An uninstalled workspace's groups go; the other's stay (B still subscribes to the account).
      await s.alerts.upsertSubscription({ workspace: "T:BRAVO", channel: "C1", account: "demo" });
      expect(await s.alerts.deleteWorkspace("T:ALPHA")).toMatchObject({ groups: 1, posts: 4 });
      expect(await s.alerts.group(a.id)).toBeUndefined();
      expect(await s.alerts.groupMembers(a.id)).toEqual([]);
      expect((await s.alerts.groupMembers(b.id)).map((m) => m.incident.id)).toEqual(ids.slice(0, 2));
    });
  });
});
