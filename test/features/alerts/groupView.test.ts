import { describe, expect, it } from "vitest";
import type { IncidentRecord } from "../../../src/features/alerts/incidents.js";
import { groupedAlertMessage } from "../../../src/features/alerts/slack/views/alertGroups.js";
import { totalText, validateMessagePayload } from "../../../src/sandbox/fakeSlack/limits.js";

const NOW = Date.UTC(2026, 10, 3, 8, 0, 0);
const MIN = 60_000;

/** Member n of a storm: a UIT, a plate (long and with Slack's special characters) and a code. */
function member(n: number, overrides: Partial<IncidentRecord> = {}): IncidentRecord {
  const codeUit = `UIT${String(n).padStart(13, "0")}`;
  return {
    id: `6c1d2e0a-0000-4000-8000-${String(n).padStart(12, "0")}`,
    account: "demo",
    transportUId: `t-${n}`,
    codeUit,
    kind: "transmission",
    code: "Error",
    firstSeenAt: NOW - 10 * MIN,
    openedAt: NOW - 10 * MIN,
    state: "open",
    lastSeenAt: NOW,
    facts: { uId: `t-${n}`, codeUit, statusId: 2, carrierCode: `B-${n}-<&>${"X".repeat(20)}` },
    ...overrides,
  };
}

function expectWithinSlackLimits(message: { text: string; blocks: unknown[] }): void {
  expect(validateMessagePayload(message)).toEqual([]);
  expect(message.blocks.length).toBeLessThanOrEqual(50);
  expect(totalText(message.blocks)).toBeLessThanOrEqual(11_000);
  expect(message.text.length).toBeLessThanOrEqual(300);
}

describe("grouped alert", () => {
  it("lists every UIT with its vehicle and code, and says where the buttons are", () => {
    const incidents = Array.from({ length: 30 }, (_, i) => member(i, i === 3 ? { code: "OldData" } : {}));
    const message = groupedAlertMessage(
      { id: "g-1", incidents },
      { language: "en", timeZone: "Europe/Bucharest" },
    );
    expectWithinSlackLimits(message);
    const text = JSON.stringify(message.blocks);
    for (const i of incidents) expect(text).toContain(`${i.codeUit.slice(0, 4)}-${i.codeUit.slice(4, 8)}`);
    expect(text).toContain("B-7-&lt;&amp;&gt;");
    expect(text).toContain("· OldData");
    expect(text).toContain("30 open");
    expect(text).toContain("in the thread");
    expect(message.blocks[0]).toMatchObject({ type: "header" });
    expect(JSON.stringify(message.blocks[0])).toContain("🔴 Transmission problem · 30 transports");
    expect(message.text).toContain("30 transports (Error ×29, OldData ×1)");
  });

  it("strikes resolved members through with ✅ and lists open ones first", () => {
    const incidents = [member(0, { state: "resolved", resolvedAt: NOW }), member(1), member(2)];
    const message = groupedAlertMessage({ id: "g-1", incidents }, { language: "en" });
    expectWithinSlackLimits(message);
    const lines = JSON.stringify(message.blocks[2]);
    expect(lines.indexOf("UIT0-0000-0000-0001")).toBeLessThan(lines.indexOf("UIT0-0000-0000-0000"));
    expect(lines).toContain("✅ ~UIT0-0000-0000-0000 · B-0-");
    expect(JSON.stringify(message.blocks)).toContain("2 open* · 1 resolved");
  });

  it("resolved as a whole: ✅ header once the last member is resolved", () => {
    const incidents = [0, 1, 2, 3, 4, 5].map((n) =>
      member(n, { state: "resolved", resolvedAt: NOW + n * MIN }),
    );
    const message = groupedAlertMessage({ id: "g-1", incidents }, { language: "en" });
    expectWithinSlackLimits(message);
    expect(JSON.stringify(message.blocks[0])).toContain("✅ Resolved · Transmission problem · 6 transports");
    expect(JSON.stringify(message.blocks)).toContain("All 6 resolved");
    expect(message.text).toMatch(/^✅ Resolved/);
  });

  it("a huge storm is cut within Slack's limits and says how many more", () => {
    const incidents = Array.from({ length: 400 }, (_, i) =>
      member(i, { code: `Error${"E".repeat(50)}`, kind: i % 2 ? "transmission" : "changerequest" }),
    );
    const message = groupedAlertMessage({ id: "g-1", incidents }, { language: "en" });
    expectWithinSlackLimits(message);
    const text = JSON.stringify(message.blocks);
    const more = /…and (\d+) more/.exec(text);
    expect(more).not.toBeNull();
    const shown = (text.match(/`UIT/g) ?? []).length;
    expect(shown + Number(more![1])).toBe(400);
    expect(JSON.stringify(message.blocks[0])).toContain("Transport alerts · 400 transports");
  });
});
