import { afterEach, describe, expect, it, vi } from "vitest";
import {
  SCHEDULE_ID_ALPHABET,
  scheduleIdCandidates,
  scheduleIdOf,
} from "../../../../src/platform/store/scheduleRecords.js";
import { describeContract, NOW } from "./backends.js";

/** The draws randomInt answers next (each an index into the alphabet); the real one once empty. */
const draws = vi.hoisted(() => ({ queue: [] as number[] }));

vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  return {
    ...actual,
    randomInt: (max: number) => draws.queue.shift() ?? actual.randomInt(max),
  };
});

afterEach(() => {
  draws.queue = [];
});

/** Draws spelling these ids, one after another. */
const spell = (...ids: string[]) => ids.flatMap((id) => [...id].map((c) => SCHEDULE_ID_ALPHABET.indexOf(c)));

const schedule = (workspace: string) => ({
  workspace,
  channel: "C1",
  createdBy: "U1",
  command: "stops all today",
  recurrence: { every: "day" as const, time: "18:00" },
  timeZone: "Europe/Bucharest",
  nextRunAt: NOW,
});

describe("schedule ids", () => {
  it("read as typed: case, O, I, L, spaces and dashes", () => {
    expect(scheduleIdOf("7k2q")).toBe("7K2Q");
    expect(scheduleIdOf("o1-il ")).toBe("0111");
    expect(scheduleIdOf("ABCDEFG")).toBeUndefined();
    expect(scheduleIdOf("ABC")).toBeUndefined();
    expect(scheduleIdOf("7K2U")).toBeUndefined();
    expect(scheduleIdOf("7K2!")).toBeUndefined();
  });

  it("candidates: 4 characters first, longer after repeated collisions, up to 6", () => {
    const lengths = [...scheduleIdCandidates()].map((id) => id.length);
    expect(lengths[0]).toBe(4);
    expect([...new Set(lengths)]).toEqual([4, 5, 6]);
  });
});

describeContract("ScheduleRepository ids", (backend) => {
  it("a taken id is drawn again; the same id in another workspace is free", async () => {
    const s = await backend.open();
    draws.queue = spell("7K2Q");
    const first = await s.schedules.add(schedule("T:ALPHA"));
    expect(first.id).toBe("7K2Q");
    draws.queue = spell("7K2Q", "7K2Q", "9ZZZ");
    const second = await s.schedules.add(schedule("T:ALPHA"));
    expect(second.id).toBe("9ZZZ");
    draws.queue = spell("7K2Q");
    expect((await s.schedules.add(schedule("T:BRAVO"))).id).toBe("7K2Q");
    expect((await s.schedules.get("T:ALPHA", "7K2Q"))?.workspace).toBe("T:ALPHA");
    expect((await s.schedules.get("T:BRAVO", "7k2q"))?.workspace).toBe("T:BRAVO");
  });

  it("after 8 collisions at 4 characters, a 5-character id", async () => {
    const s = await backend.open();
    draws.queue = spell("AAAA");
    await s.schedules.add(schedule("T:ALPHA"));
    draws.queue = spell(...Array.from({ length: 8 }, () => "AAAA"), "BBBBB");
    expect((await s.schedules.add(schedule("T:ALPHA"))).id).toBe("BBBBB");
    expect(await s.schedules.count("T:ALPHA")).toBe(2);
  });
});
