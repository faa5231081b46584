/**
 * How long a fault lasted (issue 24, item 7): a check sees a recovery only at its next run, so
 * the end is measured from the service's own dates where it gives them, and otherwise said as
 * the span the checks allow ("2–6 min"), never as if it ended at the check.
 */
import { describe, expect, it } from "vitest";
import { faultDurationSpan, faultEnd } from "../../../src/features/alerts/duration.js";
import {
  endEvidenceOf,
  evaluateSweep,
  type IncidentRecord,
  type ResolveReason,
} from "../../../src/features/alerts/incidents.js";
import {
  resolvedAlertMessage,
  resolvedThreadReply,
} from "../../../src/features/alerts/slack/views/resolution.js";
import type { TransportView } from "../../../src/features/etransport/types.js";
import { textOf } from "../../helpers/botHarness.js";

const MIN = 60_000;
/** 10:00 UTC on a working day. */
const T0 = Date.UTC(2026, 2, 3, 10, 0, 0);
const at = (minutes: number) => T0 + minutes * MIN;

const running: TransportView = {
  uId: "t-1",
  codeUit: "Y45R577UN544GY4S",
  statusId: 2,
  carrierCode: "B-123-ABC",
  transmissionStatusCode: "Error",
  // Nothing reached the platform since 10:04.
  lastTransmissionMs: at(4),
  lastGpsMs: at(4),
};

/** A transmission fault first seen by the 10:05 check, still seen at `lastSeen`, gone at the `resolved` check. */
function incident(parts: {
  lastSeen: number;
  resolved: number;
  evidence?: number;
  kind?: IncidentRecord["kind"];
  reason?: ResolveReason;
  facts?: Partial<TransportView>;
}): IncidentRecord {
  const record: IncidentRecord = {
    id: "i-1",
    account: "demo",
    transportUId: running.uId,
    codeUit: running.codeUit,
    kind: parts.kind ?? "transmission",
    code: "Error",
    firstSeenAt: at(5),
    openedAt: at(5),
    state: "resolved",
    lastSeenAt: parts.lastSeen,
    resolvedAt: parts.resolved,
    resolveReason: parts.reason ?? "recovered",
    facts: { ...running, ...parts.facts },
  };
  if (parts.evidence !== undefined) record.endEvidenceMs = parts.evidence;
  return record;
}

describe("faultEnd and faultDurationSpan", () => {
  it("without the service's date, the end lies between the last check that saw the fault and the one that did not", () => {
    // Released at 10:06; the 5-minute checks saw it at 10:05 and saw it gone at 10:10.
    const fault = incident({ lastSeen: at(5), resolved: at(10) });
    expect(faultEnd(fault)).toEqual({ earliestMs: at(5), latestMs: at(10) });
    expect(faultDurationSpan(fault)).toEqual({ shortestMs: 1 * MIN, longestMs: 6 * MIN });
  });

  it("a recovered transmission: the last position sent after the last sighting is the latest the end can be", () => {
    const fault = incident({ lastSeen: at(5), resolved: at(10), evidence: at(6) });
    expect(faultEnd(fault)).toEqual({ earliestMs: at(5), latestMs: at(6) });
    expect(faultDurationSpan(fault)).toEqual({ shortestMs: 1 * MIN, longestMs: 2 * MIN });
  });

  it("a date the checks contradict is not used: before the last sighting, or after the resolving check", () => {
    for (const evidence of [at(5), at(3), at(11)]) {
      expect(faultEnd(incident({ lastSeen: at(5), resolved: at(10), evidence }))).toEqual({
        earliestMs: at(5),
        latestMs: at(10),
      });
    }
  });

  it("a start, an answer or an end of transmission is the end itself: one figure", () => {
    const started = incident({
      kind: "notstarted",
      lastSeen: at(5),
      resolved: at(10),
      evidence: at(7),
      facts: { statusId: 1, startMs: at(-20) },
    });
    expect(faultEnd(started)).toEqual({ earliestMs: at(7), latestMs: at(7) });
    // Not started since the planned 09:40, started at 10:07.
    expect(faultDurationSpan(started)).toEqual({ shortestMs: 27 * MIN, longestMs: 27 * MIN });
    const answered = incident({ kind: "changerequest", lastSeen: at(5), resolved: at(10), evidence: at(8) });
    expect(faultEnd(answered)).toEqual({ earliestMs: at(8), latestMs: at(8) });
    const ended = incident({ reason: "status", lastSeen: at(5), resolved: at(10), evidence: at(9) });
    expect(faultEnd(ended)).toEqual({ earliestMs: at(9), latestMs: at(9) });
  });

  it("nothing while the fault lasts", () => {
    const { resolvedAt: _r, ...lasting } = incident({ lastSeen: at(5), resolved: at(10) });
    const open: IncidentRecord = { ...lasting, state: "open" };
    expect(faultEnd(open)).toBeUndefined();
    expect(faultDurationSpan(open)).toEqual({ shortestMs: 0, longestMs: 0 });
  });
});

describe("endEvidenceOf: what the transport at resolution says of the end", () => {
  it("reads the date that means the fault was over, per kind and reason", () => {
    const t: TransportView = {
      ...running,
      transmissionStatusCode: "Active",
      lastTransmissionMs: at(9),
      startMs: at(7),
      endMs: at(8),
      changeRequestCreatedMs: at(6),
      changeRequestDateMs: at(7),
      changeRequestAuthorityDateMs: at(8),
    };
    expect(endEvidenceOf("transmission", "recovered", t)).toBe(at(9));
    expect(endEvidenceOf("stalled", "recovered", t)).toBe(at(9));
    expect(endEvidenceOf("changerequest", "recovered", t)).toBe(at(8));
    expect(endEvidenceOf("notstarted", "recovered", t)).toBe(at(7));
    expect(endEvidenceOf("notstarted", "recovered", { ...t, statusId: 1 })).toBeUndefined();
    expect(endEvidenceOf("transmission", "status", t)).toBe(at(8));
    expect(endEvidenceOf("transmission", "changed", t)).toBeUndefined();
    expect(endEvidenceOf("expiry", "recovered", t)).toBeUndefined();
  });

  it("a sweep that resolves an incident carries the transport's date with it", () => {
    const open = incident({ lastSeen: at(5), resolved: at(10) });
    const { resolvedAt: _r, resolveReason: _why, ...active } = open;
    const recovered: TransportView = {
      ...running,
      transmissionStatusCode: "Active",
      lastTransmissionMs: at(6),
    };
    const changes = evaluateSweep("demo", [{ ...active, state: "open" }], [recovered], at(10), {}, []);
    expect(changes).toContainEqual({
      type: "resolve",
      id: "i-1",
      at: at(10),
      reason: "recovered",
      wasOpen: true,
      endEvidenceMs: at(6),
    });
  });
});

describe("the resolved alert and its thread reply", () => {
  it("say the span the checks allow when the end is not known, instead of the time until the check", () => {
    // The newcomer's case: released after 2 minutes, reported as lasting 6.
    const fault = incident({ lastSeen: at(5), resolved: at(10) });
    const reply = textOf(resolvedThreadReply(fault, { language: "en", timeZone: "UTC" }));
    expect(reply).toContain("It lasted 1–6 min (it ended between two alert checks)");
    expect(reply).not.toMatch(/lasted 6 min/);
    expect(textOf(resolvedAlertMessage(fault, { language: "en", timeZone: "UTC" }))).toContain(
      "lasted 1–6 min",
    );
  });

  it("say one figure when the service's dates pin the end", () => {
    const fault = incident({ kind: "changerequest", lastSeen: at(5), resolved: at(10), evidence: at(6) });
    // The change request failed at its authority date; here the fault counts from the 10:05 sighting.
    const reply = textOf(resolvedThreadReply(fault, { language: "en", timeZone: "UTC" }));
    expect(reply).toContain("It lasted 1 min.");
    expect(reply).not.toContain("between two alert checks");
  });

  it("with checks a minute apart, the span is narrow", () => {
    const fault = incident({ lastSeen: at(6), resolved: at(7) });
    expect(textOf(resolvedThreadReply(fault, { language: "en" }))).toContain("It lasted 2–3 min");
  });
});
