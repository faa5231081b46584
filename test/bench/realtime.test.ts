import { describe, expect, it } from "vitest";
import { isProgress } from "../../bench/realtime/harness.js";
import { estimateMs, UNDER_A_SECOND } from "../../bench/realtime/rows.js";
import { listeningUrl } from "../helpers/botLog.js";

// The real-time bench reads the bot's texts: these are the readings it relies on.
describe("real-time bench readings", () => {
  it("reads the estimate of an ack text in seconds, minutes and hours", () => {
    expect(estimateMs(":hourglass_flowing_sand: Last position for B-1-ABC: next in line, about 1 s")).toBe(
      1000,
    );
    expect(estimateMs("Stops report: position 3 in the queue, about 12 min")).toBe(720_000);
    expect(estimateMs("Fuel report: position 40 in the queue, about 1 h 5 min")).toBe(3_900_000);
    expect(estimateMs("Stops report: next in line")).toBeUndefined();
    expect(estimateMs("Last position for B-1-ABC: next in line, under a second")).toBe(UNDER_A_SECOND);
  });

  it("finds the bot's URL in its listening log line, and nothing in other lines", () => {
    const line = JSON.stringify({
      level: 30,
      url: "http://127.0.0.1:40123",
      msg: "fleetbot listening on http://127.0.0.1:40123 (Slack requests: …)",
    });
    expect(listeningUrl(line)).toBe("http://127.0.0.1:40123");
    expect(listeningUrl(JSON.stringify({ msg: "fleet simulator request" }))).toBeUndefined();
  });

  it("tells a progress update from an answer", () => {
    expect(isProgress(":hourglass_flowing_sand: Stops report: 1/3 requests")).toBe(true);
    expect(isProgress("58 stops · yesterday (Sat 21 Nov)")).toBe(false);
  });
});
