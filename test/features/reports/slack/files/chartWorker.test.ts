/**
 * The chart process of chartWorker.ts: one job in, one PNG (or the reason there is none) out, and
 * the process is gone afterwards, which is what gives the chart libraries' memory back. The bot's
 * side (worker thread → child process → PNG) runs in test/features/reports/temperatures.test.ts through temperatureChartPng.
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { temperatureReport } from "../../../../../src/features/reports/index.js";
import {
  CHART_HEIGHT,
  CHART_WIDTH,
} from "../../../../../src/features/reports/slack/files/temperatureChart.js";
import { PERIOD, PNG_SIGNATURE, pngSize, schemas, TRUCK } from "../../helpers.js";

const MODULE = fileURLToPath(
  new URL("../../../../../src/features/reports/slack/files/chartWorker.ts", import.meta.url),
);

function chartProcess(): ChildProcess {
  return fork(MODULE, [], {
    execArgv: ["--import", import.meta.resolve("tsx")],
    env: { ...process.env, FLEETBOT_CHART_PROCESS: "1" },
    serialization: "advanced",
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
}

/** The first message of the child and its exit code. */
function outcome(child: ChildProcess): Promise<{ message: unknown; code: number | null }> {
  let message: unknown;
  child.once("message", (m: unknown) => {
    message = m;
  });
  return new Promise((resolve) => child.once("exit", (code) => resolve({ message, code })));
}

describe("the chart process", () => {
  const report = temperatureReport(
    schemas.temperaturesPayload.parse([{ temperature: [], humidity: [] }]),
    [TRUCK],
    PERIOD,
  );

  it("renders one chart, answers with the PNG and exits", async () => {
    const child = chartProcess();
    const done = outcome(child);
    child.send({ report, vehicleId: TRUCK.vehicleId, language: "ro" });
    const { message, code } = await done;
    expect(code).toBe(0);
    const png = typeof message === "object" && message !== null && "png" in message ? message.png : undefined;
    expect(png).toBeInstanceOf(Uint8Array);
    if (!(png instanceof Uint8Array)) return;
    expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(pngSize(png)).toEqual({ width: CHART_WIDTH, height: CHART_HEIGHT });
  });

  it("answers why there is no chart (a vehicle not in the report, or no job at all) and exits", async () => {
    const notInReport = chartProcess();
    const first = outcome(notInReport);
    notInReport.send({ report, vehicleId: 999, language: "en" });
    expect(await first).toEqual({ message: { error: expect.stringMatching(/999/) }, code: 1 });

    const noJob = chartProcess();
    const second = outcome(noJob);
    noJob.send({ hello: "there" });
    expect(await second).toEqual({ message: { error: "the chart process got no chart job" }, code: 1 });
  });

  it("exits when the bot goes away before sending a job", async () => {
    const child = chartProcess();
    const done = outcome(child);
    await new Promise<void>((resolve) => child.once("spawn", () => resolve()));
    child.disconnect();
    // Gone either way: by its disconnect handler (1) or, disconnected before it listened, with nothing left to do (0).
    expect([0, 1]).toContain((await done).code);
  });
});
