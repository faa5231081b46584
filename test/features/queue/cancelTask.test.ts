/**
 * A Cancel click says "cancelled" only when the cancel took: a task that ended between the
 * ownership read and the cancel is told as finished, and the clicked message is left as it is.
 */
import { describe, expect, it } from "vitest";
import type { QueueDeps } from "../../../src/features/context.js";
import { cancelTask } from "../../../src/features/queue/slack/listeners.js";
import type { TaskRecord } from "../../../src/platform/tasks/task.js";

const TASK: TaskRecord = {
  id: "task-1",
  kind: "transport-list",
  params: {},
  account: "demo",
  workspace: "",
  slackUser: "U0DANA",
  reply: { language: "ro" },
  priority: "interactive",
  state: "running",
  progressDone: 0,
  progressTotal: 1,
  attempts: 0,
  createdAt: 0,
  updatedAt: 0,
};

function run(cancelTakes: boolean) {
  const responses: { text?: string; replace_original?: boolean }[] = [];
  const deps = {
    now: () => 0,
    users: {
      timeZoneOf: async () => "UTC",
      zoneAtAck: () => "UTC",
      accountOf: async () => ({ username: "demo", linked: true }),
      languageOf: async () => "en" as const,
    },
    tasks: {
      owned: async () => ({ owned: true as const, task: TASK }),
      cancel: async () => cancelTakes,
    },
  } as unknown as QueueDeps;
  const args = {
    ack: async () => {},
    action: { value: TASK.id, block_id: "progress-task-1" },
    body: { user: { id: "U0VIEWER" } },
    respond: async (r: { text?: string; replace_original?: boolean }) => {
      responses.push(r);
    },
  };
  return { responses, done: cancelTask(args as unknown as Parameters<typeof cancelTask>[0], deps) };
}

describe("Cancel on a waiting message", () => {
  it("replaces it with who cancelled, in the task's language, when the cancel took", async () => {
    const { responses, done } = run(true);
    await done;
    expect(responses).toHaveLength(1);
    expect(responses[0]?.replace_original).toBe(true);
    expect(responses[0]?.text).toContain("<@U0VIEWER> a anulat cererea");
  });

  it("says the request had already finished, in the clicker's language, when it had ended meanwhile", async () => {
    const { responses, done } = run(false);
    await done;
    expect(responses).toHaveLength(1);
    expect(responses[0]?.replace_original).toBe(false);
    expect(responses[0]?.text).toBe("That request has already finished.");
  });
});
