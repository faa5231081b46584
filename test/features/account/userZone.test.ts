import { describe, expect, it } from "vitest";
import { settlingUserZone, withZone } from "../../../src/features/account/handlers/userZone.js";
import type { TaskHandler } from "../../../src/platform/tasks/runner.js";
import { zoneWasGuessed } from "../../../src/platform/tasks/zoneNote.js";

/** A task's zone as stored: a flag (worded in the reader's language when rendered), never words. */
describe("a guessed zone is stored as a flag", () => {
  const OLD_NOTE = "Times in Europe/Bucharest: Slack did not say your time zone.";

  it("withZone writes the flag, and drops an old row's English note", () => {
    expect(
      withZone({ timeZone: "UTC", zoneNote: OLD_NOTE }, { zone: "Europe/Bucharest", guessed: true }),
    ).toEqual({
      timeZone: "Europe/Bucharest",
      zoneGuessed: true,
      zoneNote: undefined,
    });
    expect(withZone({ timeZone: "UTC" }, { zone: "America/New_York" })).toEqual({
      timeZone: "America/New_York",
      zoneGuessed: undefined,
      zoneNote: undefined,
    });
  });

  it("zoneWasGuessed reads rows stored now and before", () => {
    expect(zoneWasGuessed({ timeZone: "Europe/Bucharest", zoneGuessed: true })).toBe(true);
    expect(zoneWasGuessed({ timeZone: "Europe/Bucharest", zoneNote: OLD_NOTE })).toBe(true);
    expect(zoneWasGuessed({ timeZone: "America/New_York" })).toBe(false);
  });

  it("a resumed old row whose zone is still the guessed one runs as stored (no re-save)", async () => {
    const saved: unknown[] = [];
    const ran: unknown[] = [];
    const handler = {
      kind: "probe",
      run: async (ctx: { params: unknown }) => {
        ran.push(ctx.params);
        return undefined;
      },
    } as unknown as TaskHandler<{ timeZone?: string; zoneNote?: string }, undefined, undefined> & {
      kind: "probe";
    };
    const settling = settlingUserZone(
      handler,
      {
        settle: async () => ({ zone: "Europe/Bucharest", guessed: true }),
        saveParams: (_id, params) => saved.push(params),
      },
      withZone,
    );
    const params = { timeZone: "Europe/Bucharest", zoneNote: OLD_NOTE };
    const task = { id: "t1", slackUser: "U1", workspace: "", createdAt: 0 };
    await settling.run({ task, params } as never);
    expect(saved).toEqual([]);
    expect(ran).toEqual([params]);
    // Slack now says the zone: the row is re-read and stored without the note.
    const told = settlingUserZone(
      handler,
      { settle: async () => ({ zone: "Europe/Bucharest" }), saveParams: (_id, p) => saved.push(p) },
      withZone,
    );
    await told.run({ task, params } as never);
    expect(saved).toEqual([{ timeZone: "Europe/Bucharest", zoneGuessed: undefined, zoneNote: undefined }]);
  });
});
