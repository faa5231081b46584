import { describe, expect, it } from "vitest";
import { describeTask, renderTask } from "../../../src/features/renderers.js";
import { ApplicationFailureError } from "../../../src/platform/fleet/errors.js";
import { taskErrorText } from "../../../src/platform/slack/views/taskEnding.js";
import { describeTaskError } from "../../../src/platform/tasks/failures.js";
import type { TaskRecord } from "../../../src/platform/tasks/task.js";

const UIT = "AB12CD34EF56GH78";
const SHOWN = "AB12-CD34-EF56-GH78";

function task(kind: string, params: unknown, extra: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id: "task-1",
    kind,
    params,
    account: "demo",
    workspace: "",
    slackUser: "U0DANA",
    reply: {},
    priority: "interactive",
    state: "queued",
    progressDone: 0,
    progressTotal: 1,
    attempts: 0,
    createdAt: 0,
    updatedAt: 0,
    ...extra,
  };
}

describe("a UIT has one display form: dashed in fours (point 9)", () => {
  it("in the task descriptions of every transport kind", () => {
    const described = [
      describeTask(task("transport-action", { action: "start", uits: [UIT, "ZZ12CD34EF56GH78"] }), "en"),
      describeTask(task("transport-find", { uit: UIT, purpose: "show", timeZone: "UTC" }), "en"),
      describeTask(task("transport-remove", { uit: UIT, transportUId: "t-1" }), "en"),
    ];
    expect(described[0]).toBe(`Start ${SHOWN}, ZZ12-CD34-EF56-GH78`);
    for (const text of described) {
      expect(text).toContain(SHOWN);
      expect(text).not.toContain(UIT);
    }
  });

  it("in the answers: a removal and an unknown UIT", async () => {
    const context = { now: () => 0, companyTimeZone: "UTC", defaultLanguage: "en" as const };
    const removed = await renderTask(
      task(
        "transport-remove",
        { uit: UIT, transportUId: "t-1" },
        { state: "done", result: { removed: true, uit: UIT } },
      ),
      context,
    );
    const missing = await renderTask(
      task("transport-find", { uit: UIT, purpose: "show", timeZone: "UTC" }, { state: "done", result: {} }),
      context,
    );
    for (const answer of [removed, missing]) {
      expect(answer.message.text).toContain(SHOWN);
      expect(answer.message.text).not.toContain(UIT);
    }
  });

  it("in the failure of a transport call", () => {
    const error = new ApplicationFailureError("start-transports", [
      { errorCode: "UitValidityNotStarted", errorParameters: [UIT] },
    ]);
    // Stored as the service's code and parameters; dashed where a reader sees it, in either language.
    const described = describeTaskError(error);
    expect(described).toMatchObject({ code: "etransport", params: { parameters: [UIT] } });
    for (const language of ["en", "ro"] as const) {
      const text = taskErrorText(described, language);
      expect(text).toContain(SHOWN);
      expect(text).not.toContain(UIT);
    }
  });
});
