import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { parseParams } from "../../../src/platform/tasks/task.js";

describe("parseParams", () => {
  it("parses one parameters object once per schema, and each new object again", () => {
    const schema = z.object({ report: z.string(), minMinutes: z.number().default(5) });
    const other = z.object({ report: z.literal("stops") });
    const spy = vi.spyOn(schema, "safeParse");
    const params = { report: "stops" };
    const first = parseParams(schema, params);
    expect(first).toEqual({ success: true, data: { report: "stops", minMinutes: 5 } });
    expect(parseParams(schema, params)).toBe(first);
    expect(spy).toHaveBeenCalledTimes(1);
    // Another schema reads the same object with its own rules.
    expect(parseParams(other, params).success).toBe(true);
    expect(parseParams(other, { report: "fuel" }).success).toBe(false);
    // A record read again from the store is a new object: parsed again.
    parseParams(schema, { report: "stops" });
    expect(spy).toHaveBeenCalledTimes(2);
    // Failures are kept too, and values that are not objects are parsed each time.
    expect(parseParams(schema, { report: 1 }).success).toBe(false);
    expect(parseParams(schema, null).success).toBe(false);
    expect(parseParams(schema, null).success).toBe(false);
    expect(spy).toHaveBeenCalledTimes(5);
  });
});
