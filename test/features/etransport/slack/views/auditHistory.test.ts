import { describe, expect, it } from "vitest";
import {
  auditHistoryMessage,
  HISTORY_MAX_ENTRIES,
} from "../../../../../src/features/etransport/slack/views/auditHistory.js";
import { blocksText } from "../../../../../src/platform/slack/views/message.js";
import type { AuditEntry } from "../../../../../src/platform/store/contract/index.js";

const UIT = "AB12CD34EF56GH78";
const AT = Date.UTC(2026, 10, 3, 8, 0);

function entries(count: number, fields: Partial<AuditEntry> = {}): AuditEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `t${i}`,
    at: AT - i * 60_000,
    account: "demo",
    slackUser: "U0DISPATCH",
    uit: UIT,
    action: "start" as const,
    outcome: "success" as const,
    ...fields,
  }));
}

const render = (list: AuditEntry[], total = list.length) =>
  auditHistoryMessage({
    language: "en",
    uit: UIT,
    account: "demo",
    history: { entries: list, total },
    timeZone: "Europe/Bucharest",
  });

describe("auditHistoryMessage", () => {
  it("words each outcome: done, refused with the service's code and words, unknown as such", () => {
    const message = render([
      ...entries(1, { id: "a", action: "create" }),
      ...entries(1, {
        id: "b",
        action: "end",
        outcome: "failure",
        code: "TransportNotStarted",
        message: "not <started>",
      }),
      ...entries(1, { id: "c", action: "pause", outcome: "unknown", code: "timeout" }),
      ...entries(1, { id: "d", action: "remove", slackUser: undefined }),
    ]);
    const text = JSON.stringify(message.blocks);
    expect(text).toContain("*Created*");
    expect(text).toContain(":x: refused by the fleet service `TransportNotStarted`: not &lt;started&gt;");
    expect(text).toContain("*Pause*");
    expect(text).toContain("the change may or may not have been made");
    expect(text).toContain("<@U0DISPATCH>");
    expect(text).toContain("no Slack user recorded");
    expect(text).toContain("<!date^");
  });

  it("stays within 50 blocks and counts what it leaves out", () => {
    const message = render(entries(HISTORY_MAX_ENTRIES), 130);
    expect(message.blocks.length).toBeLessThanOrEqual(50);
    expect(JSON.stringify(message.blocks.at(-1))).toContain("82 older changes are not shown");
  });

  it("long answers of the service are cut so the whole message stays under Slack's text limit", () => {
    const long = entries(HISTORY_MAX_ENTRIES, {
      outcome: "failure",
      code: "X".repeat(500),
      message: "y".repeat(5000),
    });
    const message = render(long);
    expect(blocksText(message.blocks)).toBeLessThanOrEqual(10_000);
    expect(message.blocks.length).toBeLessThan(HISTORY_MAX_ENTRIES);
    const shown = message.blocks.length - 2;
    expect(JSON.stringify(message.blocks.at(-1))).toContain(`${HISTORY_MAX_ENTRIES - shown} older changes`);
  });

  it("no entry: says so for the account, with commands that work", () => {
    const text = JSON.stringify(render([], 0).blocks);
    expect(text).toContain("No changes of `AB12-CD34-EF56-GH78` are recorded for fleet account `demo`");
    expect(text).toContain("`/etransport list all`");
  });
});
