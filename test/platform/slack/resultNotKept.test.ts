/** Issue 23 (item 5): a task whose result the store no longer keeps renders a notice, not a crash. */
import { describe, expect, it } from "vitest";
import { renderTask } from "../../../src/features/renderers.js";
import type { TaskRecord } from "../../../src/platform/tasks/task.js";

const NOW = Date.UTC(2026, 10, 3, 8, 0, 0);
const report = (resultNotKept: TaskRecord["resultNotKept"]): TaskRecord => ({
  id: "t1",
  kind: "vehicle-report",
  params: { report: "stops", refs: [{ raw: "B-123-ABC" }] },
  account: "demo",
  workspace: "",
  reply: { channel: "C1" },
  priority: "report",
  state: "done",
  progressDone: 1,
  progressTotal: 1,
  attempts: 1,
  createdAt: NOW,
  updatedAt: NOW,
  finishedAt: NOW,
  ...(resultNotKept ? { resultNotKept } : {}),
});
const context = { now: () => NOW, companyTimeZone: "Europe/Bucharest", defaultLanguage: "en" as const };

describe("a result no longer kept", () => {
  it("says it was too large to keep, with its size", async () => {
    const rendered = await renderTask(report({ reason: "too-large", bytes: 12_582_912 }), context);
    expect(rendered.message?.text).toMatch(/too large to keep/);
    expect(rendered.message?.text).toMatch(/12\.0 MB/);
    expect(rendered.files ?? []).toEqual([]);
  });

  it("says a dropped result is no longer kept", async () => {
    const rendered = await renderTask(report({ reason: "expired", bytes: 300_000 }), context);
    expect(rendered.message?.text).toMatch(/no longer kept/);
  });
});
