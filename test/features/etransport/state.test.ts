import { describe, expect, it } from "vitest";
import { isKnownTransportFailure, transportFailure } from "../../../src/features/etransport/failures.js";
import {
  isAdvisedTransmission,
  transportStatusText,
} from "../../../src/features/etransport/slack/views/transportText.js";
import { transportStateInfo } from "../../../src/features/etransport/state.js";
import { parseTransportView, toTransportView } from "../../../src/features/etransport/types.js";
import { messages } from "../../../src/i18n/catalogue.js";
import { fleetSchemas, TRANSMISSION_STATUS_CODES } from "../../../src/platform/fleet/schemas.js";

describe("transportStateInfo: status → name, finished, actions", () => {
  it.each([
    [1, "Pending", false, ["start", "edit", "remove"]],
    [2, "In Progress", false, ["pause", "end", "edit", "remove"]],
    [3, "Completed", true, ["remove"]],
    [4, "Auto Completed", true, ["remove"]],
    [5, "Error", false, ["edit", "remove"]],
    [6, "Paused", false, ["start", "end", "edit", "remove"]],
    [9, "Unknown status (9)", false, ["remove"]],
  ])("status %i", (statusId, name, finished, actions) => {
    const info = transportStateInfo({ statusId });
    // The domain gives the id; the name is the catalogue's.
    expect(info.knownStatus).toBe(statusId !== 9);
    expect(transportStatusText("en", statusId)).toBe(name);
    expect(info.finished).toBe(finished);
    expect(info.actions).toEqual(actions);
  });

  it("Error status is bad", () => {
    expect(transportStateInfo({ statusId: 5 }).severity).toBe("bad");
  });
});

describe("transportStateInfo: transmission", () => {
  it.each([
    ["Active", 2, "ok"],
    ["Finalized", 3, "ok"],
    ["NotStarted", 1, "ok"],
    ["NotStarted", 2, "warning"],
    ["WithoutTransmission", 2, "warning"],
    ["WithoutTransmission", 6, "ok"],
    ["Error", 2, "bad"],
    ["OldData", 2, "warning"],
    ["NoGPSCoordinates", 2, "bad"],
    ["NotInRomania", 2, "info"],
    ["MissingETransportConfiguration", 1, "bad"],
    ["SomethingNew", 2, "warning"],
  ] as const)("%s while status %i is %s", (code, statusId, severity) => {
    const info = transportStateInfo({ statusId, transmissionStatusCode: code });
    expect(info.transmission.severity).toBe(severity);
    expect(info.severity).toBe(severity);
  });

  it("takes the alert's severity for NotInRomania: information abroad, a fault on a domestic route", () => {
    const abroad = { startLocation: "Arad", endLocation: "Budapest, Hungary" };
    const domestic = { startLocation: "Pitești", endLocation: "Brașov" };
    const code = "NotInRomania";
    expect(transportStateInfo({ statusId: 2, transmissionStatusCode: code, ...abroad }).severity).toBe(
      "info",
    );
    expect(transportStateInfo({ statusId: 2, transmissionStatusCode: code, ...domestic }).severity).toBe(
      "bad",
    );
  });

  it("every documented code is known, with a meaning and (the non-trivial ones) advice in both languages", () => {
    for (const code of TRANSMISSION_STATUS_CODES) {
      const t = transportStateInfo({ statusId: 2, transmissionStatusCode: code }).transmission;
      expect(t.known).toBe(true);
      for (const lang of ["en", "ro"] as const) {
        expect(messages(lang).etransport.transmissionMeaning(code)).toBeTruthy();
        if (isAdvisedTransmission(code))
          expect(messages(lang).etransport.transmissionAdvice(code)).toBeTruthy();
      }
    }
    expect(transportStateInfo({ statusId: 2, transmissionStatusCode: "Weird" }).transmission.known).toBe(
      false,
    );
    expect(messages("en").etransport.transmissionAdvice("OldData")).toMatch(/ANAF app/);
    expect(messages("ro").etransport.transmissionAdvice("OldData")).toMatch(/aplicația ANAF/);
  });

  it("change request errors are bad, success is ok", () => {
    expect(transportStateInfo({ statusId: 2, changeRequestStatusCode: "ResponseError" }).severity).toBe(
      "bad",
    );
    expect(transportStateInfo({ statusId: 2, changeRequestStatusCode: "RequestErrorSent" }).severity).toBe(
      "bad",
    );
    const ok = transportStateInfo({ statusId: 2, changeRequestStatusCode: "ResponseSuccess" });
    expect(ok.severity).toBe("ok");
    expect(ok.changeRequest).toEqual({ code: "ResponseSuccess", known: true, severity: "ok" });
  });
});

describe("transport failures: codes from the domain, words from the catalogue", () => {
  const en = messages("en").etransport;
  const ro = messages("ro").etransport;
  it.each([
    ["TransportNotFound", ["Y45R577UN544GY4S"], /does not know the transport Y45R577UN544GY4S/, /list all/],
    ["TransportAlreadyExists", ["Y45R577UN544GY4S"], /already exists/, /etransport edit/],
    ["VehicleNotFound", ["veh-1"], /vehicle veh-1/, /Choose the vehicle again/],
    ["InvalidTransportState", ["Y45R577UN544GY4S", "Completed"], /is Completed/, /Start works on Pending/],
    ["InvalidTransportState", [], /Transport is not in a state/, /Pause on In Progress/],
    ["TransportFinalized", ["ABC"], /can no longer be modified/, /new UIT/],
    ["UitValidityNotStarted", ["ABC"], /has not started yet/, /once its validity has begun/],
    ["UitValidityEnded", [], /validity of UIT has ended/, /request a new UIT/],
    ["AccessDenied", ["tr-1", "tr-2"], /no rights to tr-1, tr-2/, /administrator/],
  ])("%s %j", (code, params, summary, advice) => {
    expect(transportFailure(code, params, "c0ffee-1")).toEqual({
      code,
      known: true,
      parameters: params,
      correlationId: "c0ffee-1",
    });
    expect(en.failureSummary(code, params)).toMatch(summary);
    expect(en.failureAdvice(code, params)).toMatch(advice);
    expect(en.failure(code, params)).toBe(
      `${en.failureSummary(code, params)} ${en.failureAdvice(code, params)}`,
    );
    expect(ro.failure(code, params)).not.toBe(en.failure(code, params));
    for (const p of params) expect(ro.failure(code, params)).toContain(p);
  });

  it("shows unknown codes verbatim with their parameters", () => {
    expect(transportFailure("PlatformTimeout", ["ANAF", "30s"]).known).toBe(false);
    expect(en.failureSummary("PlatformTimeout", ["ANAF", "30s"])).toBe(
      "The fleet service answered PlatformTimeout (ANAF, 30s).",
    );
    expect(ro.failureSummary("PlatformTimeout", ["ANAF", "30s"])).toBe(
      "Platforma GPS a răspuns PlatformTimeout (ANAF, 30s).",
    );
  });

  it("does not take inherited names as known codes", () => {
    expect(isKnownTransportFailure("toString")).toBe(false);
    expect(en.failureSummary("toString", [])).toBe("The fleet service answered toString.");
  });
});

describe("TransportView", () => {
  const raw = {
    uId: "tr-1",
    carrierCode: "B-12-ABC",
    carrierName: "Truck 12",
    carrierUId: "veh-1",
    codeUit: "Y45R577UN544GY4S",
    statusId: 2,
    startDate: "2025-03-10T10:00:00",
    endDate: null,
    validityStartDate: "2025-03-10T09:00:00",
    validityEndDate: "2025-03-15T09:00:00Z",
    notes: "",
    transmissionStatusCode: "Active",
    lastGpsDate: "2025-03-10T12:00:00+02:00",
  };

  it("converts Dates to epoch ms (bare dates in the company zone) and drops absent fields", () => {
    const t = fleetSchemas("Europe/Bucharest").transport.parse(raw);
    const view = toTransportView(t);
    expect(view).toEqual({
      uId: "tr-1",
      carrierCode: "B-12-ABC",
      carrierName: "Truck 12",
      carrierUId: "veh-1",
      codeUit: "Y45R577UN544GY4S",
      statusId: 2,
      startMs: Date.parse("2025-03-10T08:00:00Z"),
      validityStartMs: Date.parse("2025-03-10T07:00:00Z"),
      validityEndMs: Date.parse("2025-03-15T09:00:00Z"),
      transmissionStatusCode: "Active",
      lastGpsMs: Date.parse("2025-03-10T10:00:00Z"),
    });
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
    expect(parseTransportView(JSON.parse(JSON.stringify(view)))).toEqual(view);
  });

  it("parseTransportView refuses what is not a transport", () => {
    expect(parseTransportView({ uId: "x" })).toBeUndefined();
    expect(parseTransportView("nope")).toBeUndefined();
  });
});
