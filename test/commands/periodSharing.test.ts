/**
 * Issue 12: identical asks a second apart share upstream calls. Two `stops all today` typed one
 * second apart parse to the same period, and the client sends them with the same share key (the
 * gate runs identical waiting calls once); a minute later is a new call.
 */
import { MockAgent } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Period, parseFleetCommand } from "../../src/commands/index.js";
import { FleetClient } from "../../src/platform/fleet/client.js";
import { recordingGate } from "../platform/fleet/helpers.js";

const ORIGIN = "http://fleet.test";
const ZONE = "Europe/Bucharest";
const VEHICLE_IDS = [3, 1, 2];

let agent: MockAgent;

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  agent
    .get(ORIGIN)
    .intercept({ path: () => true, method: () => true })
    .reply((opts) =>
      opts.path.includes("authentication/login")
        ? {
            statusCode: 200,
            data: JSON.stringify({ access_token: "tok", expires_in: 28800, token_type: "Bearer" }),
          }
        : {
            statusCode: 200,
            data: JSON.stringify({ payload: [], correlationId: "c", failureReasons: [], isSuccess: true }),
          },
    )
    .persist();
});

afterEach(async () => {
  await agent.close();
});

function periodTypedAt(text: string, nowIso: string): Period {
  const r = parseFleetCommand(text, { timeZone: ZONE, now: new Date(nowIso) });
  if (!r.ok || r.kind !== "report" || !r.period) throw new Error(`${text} should be a report with a period`);
  return r.period;
}

/** The share keys of the stops calls the client makes for each period. */
async function stopsShareKeys(periods: readonly Period[]): Promise<(string | undefined)[]> {
  const gate = recordingGate();
  const fleet = new FleetClient({
    baseUrl: `${ORIGIN}/`,
    apiVersion: "2.0",
    timeZone: ZONE,
    gate,
    dispatcher: agent,
  });
  const session = fleet.session({ username: "demo", password: "pw" });
  for (const p of periods) {
    await session.stops({ vehicleIds: VEHICLE_IDS, from: p.from, to: p.to, stationaryMarginMinutes: 5 });
  }
  return gate.calls.filter((c) => c.endpoint === "stops").map((c) => c.shareKey);
}

describe("identical relative asks within a minute are one upstream call", () => {
  it.each([
    "stops all today",
    "stops all azi",
    "stops all last 3h",
    "stops all ultimele 2 zile",
    "stops all this week",
  ])("%j typed one second apart: same period, same share key", async (text) => {
    const first = periodTypedAt(text, "2026-11-22T10:17:05.400Z");
    const second = periodTypedAt(text, "2026-11-22T10:17:06.400Z");
    expect(second).toEqual(first);
    const [a, b] = await stopsShareKeys([first, second]);
    expect(a).toBeDefined();
    expect(b).toBe(a);
  });

  it("the next minute is a new call", async () => {
    const first = periodTypedAt("stops all today", "2026-11-22T10:17:59.000Z");
    const later = periodTypedAt("stops all today", "2026-11-22T10:18:00.000Z");
    const [a, b] = await stopsShareKeys([first, later]);
    expect(b).not.toBe(a);
  });
});
