/**
 * Issue 14, points 1, 2 and 9 (views): what a dispatcher reads is true. Headlines count
 * refusals, lists speak dispatcher words, a UIT has one display form, report headers use
 * one date format, the queue shows the time it was asked, and remove can be cancelled.
 */
import type { ActionsBlock, Button, KnownBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import {
  transportActionHeadline,
  transportActionResultMessage,
} from "../../../../../src/features/etransport/slack/views/actionResult.js";
import { parseTransportButtonValue } from "../../../../../src/features/etransport/slack/views/buttonValues.js";
import {
  transportListFilter,
  transportListMessage,
} from "../../../../../src/features/etransport/slack/views/list.js";
import {
  removeCancelledMessage,
  removeConfirmationMessage,
} from "../../../../../src/features/etransport/slack/views/removal.js";
import { queueMessage } from "../../../../../src/features/queue/slack/views.js";
import { stopsMessage } from "../../../../../src/features/reports/slack/views/stops.js";
import { periodMrkdwn } from "../../../../../src/features/reports/slack/views/vehicleFormat.js";
import type { StopsReport } from "../../../../../src/features/reports/stops.js";
import { listPhrase, type TransportBulkAction } from "../../../../../src/i18n/en/etransport.js";
import type { TransportActionResult } from "../../../../../src/platform/fleet/schemas.js";
import { ACTIONS } from "../../../../../src/platform/slack/actionIds.js";
import type { TaskRecord } from "../../../../../src/platform/tasks/task.js";
import { validateMessagePayload } from "../../../../../src/sandbox/fakeSlack/limits.js";
import { transport } from "./etransportFixtures.js";

const buttonsOf = (blocks: KnownBlock[]): Button[] =>
  blocks.filter((b): b is ActionsBlock => b.type === "actions").flatMap((b) => b.elements as Button[]);
const textOf = (blocks: KnownBlock[]): string => JSON.stringify(blocks);
/** What a person reads: the message's text and every text string of its blocks (not ids or values). */
function readable(message: { text: string; blocks: KnownBlock[] }): string {
  const parts = [message.text];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        if (key === "text" && typeof inner === "string") parts.push(inner);
        else walk(inner);
      }
    }
  };
  walk(message.blocks);
  return parts.join("\n");
}

const ok = (codeUit: string): TransportActionResult => ({
  codeUit,
  isSuccess: true,
  errors: [],
  reported: true,
});
const refused = (codeUit: string, error = "UitValidityNotStarted"): TransportActionResult => ({
  codeUit,
  isSuccess: false,
  errors: [error],
  reported: true,
});

describe("action headline (point 1)", () => {
  const cases: [TransportBulkAction, string, string, string, string][] = [
    // action, 1 of 1 refused, 1 of 1 done, 2 of 3 done, 3 of 3 refused
    [
      "start",
      "Start refused for 1 of 1.",
      "Started the transport.",
      "Started 2 of 3; 1 refused.",
      "Start refused for 3 of 3.",
    ],
    [
      "pause",
      "Pause refused for 1 of 1.",
      "Paused the transport.",
      "Paused 2 of 3; 1 refused.",
      "Pause refused for 3 of 3.",
    ],
    [
      "end",
      "End refused for 1 of 1.",
      "Ended the transport.",
      "Ended 2 of 3; 1 refused.",
      "End refused for 3 of 3.",
    ],
    [
      "remove",
      "Remove refused for 1 of 1.",
      "Removed the transport.",
      "Removed 2 of 3; 1 refused.",
      "Remove refused for 3 of 3.",
    ],
  ];

  it.each(cases)(
    "%s: single and bulk, refused, done and mixed",
    (action, oneRefused, oneDone, mixed, allRefused) => {
      expect(transportActionHeadline(action, [refused("A")], "en")).toBe(oneRefused);
      expect(transportActionHeadline(action, [ok("A")], "en")).toBe(oneDone);
      expect(transportActionHeadline(action, [ok("A"), refused("B"), ok("C")], "en")).toBe(mixed);
      expect(transportActionHeadline(action, [refused("A"), refused("B"), refused("C")], "en")).toBe(
        allRefused,
      );
    },
  );

  it("says all when every one of several succeeded, and that none was named for an empty list", () => {
    expect(transportActionHeadline("start", [ok("A"), ok("B")], "en")).toBe("Started all 2 transports.");
    expect(transportActionHeadline("end", [], "en")).toBe("End: no transport was named.");
  });

  it("a refused single Start never reads as a success, in the text or in the blocks", () => {
    const message = transportActionResultMessage("start", [refused("AB12CD34EF56GH78")], undefined, {
      language: "en",
    });
    expect(message.text).toBe("Start refused for 1 of 1.");
    const all = readable(message);
    expect(all).not.toMatch(/was started|\bStarted\b/);
    expect(all).toContain("❌ `AB12-CD34-EF56-GH78` not started: UitValidityNotStarted");
    expect(message.blocks[0]).toMatchObject({ text: { text: "*Start refused for 1 of 1.*" } });
  });
});

describe("list header in dispatcher words (point 9)", () => {
  it.each([
    ["default", 10, "open transports (pending, in progress or paused)"],
    ["pending", 1, "pending transport"],
    ["active", 3, "transports in progress"],
    ["paused", 2, "paused transports"],
    ["completed", 4, "completed transports"],
    ["all", 28, "transports in any state"],
    ["active paused", 5, "transports in progress or paused"],
    ["pending active paused", 5, "transports pending, in progress or paused"],
  ])("%s → %s", (filter, count, phrase) => {
    expect(listPhrase(transportListFilter(filter), count)).toBe(phrase);
  });

  it("never shows the internal word default, in the header, the text or the empty answer", () => {
    const full = transportListMessage({
      language: "en",
      transports: [transport()],
      totalRecords: 10,
      pageIndex: 0,
      pageSize: 8,
      filterLabel: "default",
      filter: "default",
    });
    expect(full.blocks[0]).toMatchObject({
      type: "header",
      text: { text: "e-Transport · 10 open transports (pending, in progress or paused)" },
    });
    const empty = transportListMessage({
      language: "en",
      transports: [],
      totalRecords: 0,
      pageIndex: 0,
      pageSize: 8,
      filterLabel: "default",
      search: "B-99",
    });
    expect(empty.text).toBe("No open transports (pending, in progress or paused) matching “B-99”.");
    for (const message of [full, empty]) {
      expect(readable(message)).not.toMatch(/default/i);
      expect(validateMessagePayload(message)).toEqual([]);
    }
  });
});

describe("one display form of a UIT (point 9)", () => {
  it("a UIT search (sent without dashes) is shown grouped, like the cards", () => {
    const message = transportListMessage({
      language: "en",
      transports: [transport()],
      totalRecords: 1,
      pageIndex: 0,
      pageSize: 8,
      filterLabel: "all",
      search: "Y45R577UN544GY4S",
    });
    const all = readable(message);
    expect(all).toContain("Y45R-577U-N544-GY4S");
    expect(all).not.toContain("Y45R577UN544GY4S");
    const empty = transportListMessage({
      language: "en",
      transports: [],
      totalRecords: 0,
      pageIndex: 0,
      pageSize: 8,
      filterLabel: "all",
      search: "AB12CD34EF56GH78",
    });
    expect(empty.text).toBe("No transports in any state matching “AB12-CD34-EF56-GH78”.");
  });

  it("outcomes, the remove question and its cancellation show the grouped form only", () => {
    const t = transport();
    const messages = [
      transportActionResultMessage("start", [ok(t.codeUit), refused("AB12CD34EF56GH78")], [t], {
        language: "en",
      }),
      removeConfirmationMessage(t, { language: "en" }),
      removeCancelledMessage(t.codeUit, "en"),
    ];
    for (const message of messages) {
      // Button values and block ids carry the UIT as the service knows it; people read the grouped form.
      expect(readable(message)).not.toMatch(/Y45R577UN544GY4S|AB12CD34EF56GH78/);
      expect(readable(message)).toMatch(/Y45R-577U-N544-GY4S/);
    }
    expect(messages[2]!.text).toBe(
      "Not removed: the transport with UIT Y45R-577U-N544-GY4S stays as it was.",
    );
  });
});

describe("remove by command (point 9)", () => {
  it("offers Cancel next to the confirm button, carrying the same transport", () => {
    const t = transport();
    const message = removeConfirmationMessage(t, { language: "en" });
    const buttons = buttonsOf(message.blocks);
    expect(buttons.map((b) => b.action_id)).toEqual([ACTIONS.transportRemove, ACTIONS.transportRemoveCancel]);
    const cancel = buttons[1]!;
    expect(cancel.text.text).toBe("Cancel");
    expect(cancel.style).toBeUndefined();
    expect(cancel.confirm).toBeUndefined();
    expect(parseTransportButtonValue(cancel.value)).toEqual({ u: t.codeUit, id: t.uId });
    expect(validateMessagePayload(message)).toEqual([]);
  });
});

describe("queue: asked at a time (point 9)", () => {
  it("formats the time with Slack's {time} token, not the word UTC", () => {
    const createdAt = Date.UTC(2026, 10, 3, 12, 5);
    const task: TaskRecord = {
      id: "task-1",
      kind: "vehicle-report",
      params: {},
      account: "demo",
      workspace: "",
      slackUser: "U0DANA",
      reply: {},
      priority: "report",
      state: "queued",
      progressDone: 0,
      progressTotal: 3,
      attempts: 0,
      createdAt,
      updatedAt: createdAt,
    };
    const message = queueMessage(
      "demo",
      [{ task, description: "Stops report for B-12-ABC" }],
      createdAt,
      "en",
    );
    const text = textOf(message.blocks);
    // The fallback in the one time form (format.ts), in the task's zone (UTC when it names none).
    expect(text).toContain(`asked by <@U0DANA> at <!date^${createdAt / 1000}^{time}|12:05>`);
    expect(text).not.toContain("^UTC|");
  });
});

describe("report headers use one date format (point 9)", () => {
  const DAY = 86_400_000;
  const fromMs = Date.UTC(2026, 10, 1, 22, 0); // Mon 2 Nov 2026 00:00 in Bucharest
  const period = {
    fromMs,
    toMs: fromMs + 7 * DAY,
    label: "last week (Mon 2026-11-02 – Sun 2026-11-08)",
    timeZone: "Europe/Bucharest",
  };

  it("the period line shows the range in the one date form (src/i18n/format.ts), after the label", () => {
    const line = periodMrkdwn(period, { language: "en" });
    const formats = [...line.matchAll(/<!date\^\d+\^([^|]+)\|/g)].map((m) => m[1]);
    expect(formats).toEqual(["{date_short_pretty} {time}", "{date_short_pretty} {time}"]);
    expect(line.startsWith(period.label)).toBe(true);
  });

  it("a stop since before the period shows its time in the period, and says so", () => {
    const report: StopsReport = {
      period,
      minMinutes: 5,
      totalStops: 2,
      vehicles: [
        {
          vehicle: { vehicleId: 1, plate: "B-68-FYR", name: "Truck" },
          totalStopMinutes: 8 * 60 + 90,
          stops: [
            {
              startMs: fromMs - 2 * DAY,
              endMs: fromMs + 8 * 3_600_000,
              durationMinutes: 8 * 60,
              beganBeforePeriod: true,
              drivers: [],
              isPrivate: false,
            },
            {
              startMs: period.toMs - 90 * 60_000,
              endMs: period.toMs,
              durationMinutes: 90,
              lastedToPeriodEnd: true,
              drivers: [],
              isPrivate: false,
            },
          ],
        },
      ],
    };
    const message = stopsMessage(report, 0, "tok", { language: "en", timeZone: "Europe/Bucharest" });
    const text = textOf(message.blocks);
    expect(text).toContain("*8 h* _(since before the period)_");
    expect(text).toContain("*1 h 30 min* _(still stopped at the period's end)_");
    expect(text).toContain("2 stops, 9 h 30 min in total");
    expect(validateMessagePayload(message)).toEqual([]);
  });
});
