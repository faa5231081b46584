import { TZDate } from "@date-fns/tz";
import type { InputBlock, KnownBlock, ModalView } from "@slack/types";
import { describe, expect, it } from "vitest";
import {
  type TransportFormErrors,
  validateTransportForm,
} from "../../../../../src/features/etransport/form.js";
import { pickerSeconds } from "../../../../../src/features/etransport/slack/views/formInputs.js";
import { transportModal } from "../../../../../src/features/etransport/slack/views/formModal.js";
import {
  checkTransportModal,
  transportFormValues,
  transportModalErrors,
  type ViewStateValues,
} from "../../../../../src/features/etransport/slack/views/formSubmission.js";
import type { TransportModalVehicle } from "../../../../../src/features/etransport/slack/views/vehicleOptions.js";
import { vehicleOptions } from "../../../../../src/features/etransport/slack/views/vehicleOptions.js";
import type { TransportView } from "../../../../../src/features/etransport/types.js";
import { INPUTS, VIEWS } from "../../../../../src/platform/slack/actionIds.js";
import {
  validateOptionsResponse,
  validateView,
  validateViewErrors,
} from "../../../../../src/sandbox/fakeSlack/limits.js";
import { NOW, transport, worstTransport } from "./etransportFixtures.js";

const vehicles: TransportModalVehicle[] = [
  { vehicleUId: "0b7c2f0e-1111-4222-8333-944455556666", plate: "B-12-ABC", name: "Truck 12" },
  { vehicleUId: "v-2", plate: "CJ 07 XYZ", name: "Frigorific Brașov" },
  { vehicleUId: "v-3", plate: "B-123-KLM", name: "Dubă <&> mică" },
];

const inputs = (view: ModalView): InputBlock[] =>
  (view.blocks as KnownBlock[]).filter((b): b is InputBlock => b.type === "input");

/**
 * What Slack sends back on submission when the user changes nothing: initial values, and
 * the date-time pickers as the client shows them — wall-clock minutes in the user's zone —
 * turned back into an instant in that zone.
 */
function submitUnchanged(view: ModalView, zone: string): ViewStateValues {
  const values: ViewStateValues = {};
  for (const block of inputs(view)) {
    const el = block.element as unknown as Record<string, unknown> & { action_id: string; type: string };
    let state: Record<string, unknown>;
    switch (el.type) {
      case "plain_text_input":
        state = { type: el.type, value: (el.initial_value as string | undefined) ?? null };
        break;
      case "external_select":
        state = { type: el.type, selected_option: el.initial_option ?? null };
        break;
      case "datetimepicker": {
        const initial = el.initial_date_time as number | undefined;
        if (initial === undefined) {
          state = { type: el.type, selected_date_time: null };
          break;
        }
        const wall = new TZDate(initial * 1000, zone);
        const back = new TZDate(
          wall.getFullYear(),
          wall.getMonth(),
          wall.getDate(),
          wall.getHours(),
          wall.getMinutes(),
          zone,
        );
        state = { type: el.type, selected_date_time: Math.floor(back.getTime() / 1000) };
        break;
      }
      default:
        throw new Error(`unexpected element ${el.type}`);
    }
    values[block.block_id!] = { [el.action_id]: state };
  }
  return values;
}

describe("transportModal", () => {
  it("create: every input, external vehicle select, valid for Slack", () => {
    const view = transportModal({
      language: "en",
      mode: "create",
      vehicles,
      userTimeZone: "Europe/Bucharest",
      privateMetadata: { channel: "C123", user: "U1" },
    });
    expect(validateView(view)).toEqual([]);
    expect(view.callback_id).toBe(VIEWS.transportCreate);
    expect(view.private_metadata).toBe('{"channel":"C123","user":"U1"}');
    expect(inputs(view).map((b) => b.block_id)).toEqual([
      INPUTS.transportVehicle.block,
      INPUTS.transportUit.block,
      INPUTS.transportVat.block,
      INPUTS.transportValidityStart.block,
      INPUTS.transportValidityEnd.block,
      INPUTS.transportStart.block,
      INPUTS.transportEnd.block,
      INPUTS.transportStartLocation.block,
      INPUTS.transportEndLocation.block,
      INPUTS.transportTrailer1.block,
      INPUTS.transportTrailer2.block,
      INPUTS.transportNotes.block,
    ]);
    const vehicle = inputs(view)[0]!;
    expect(vehicle.element).toMatchObject({ type: "external_select", min_query_length: 0 });
    expect("initial_option" in vehicle.element).toBe(false);
    const optional = inputs(view)
      .filter((b) => b.optional)
      .map((b) => b.block_id);
    expect(optional).toEqual([
      INPUTS.transportStart.block,
      INPUTS.transportEnd.block,
      INPUTS.transportStartLocation.block,
      INPUTS.transportEndLocation.block,
      INPUTS.transportTrailer1.block,
      INPUTS.transportTrailer2.block,
      INPUTS.transportNotes.block,
    ]);
    for (const b of inputs(view)) expect(b.element.action_id).toBe("value");
    expect(JSON.stringify(view)).toContain("Europe/Bucharest");
  });

  it("edit: UIT read-only as a section, vehicle preselected, fields prefilled", () => {
    const t = transport({ trailer1Code: "B-99-TRL", notes: "Fragile", startLocation: "Ploiești" });
    const view = transportModal({
      language: "en",
      mode: "edit",
      vehicles,
      initial: t,
      initialVat: "RO16341004",
      userTimeZone: "Europe/Bucharest",
      privateMetadata: JSON.stringify({ transportUId: t.uId }),
    });
    expect(validateView(view)).toEqual([]);
    expect(view.callback_id).toBe(VIEWS.transportEdit);
    expect(view.title.text).toBe("Edit e-Transport");
    const ids = inputs(view).map((b) => b.block_id);
    expect(ids).not.toContain(INPUTS.transportUit.block);
    expect(JSON.stringify(view.blocks)).toContain("Y45R-577U-N544-GY4S");
    expect(inputs(view)[0]!.element).toMatchObject({
      initial_option: { text: { text: "B-12-ABC — Truck 12" }, value: t.carrierUId },
    });
    const validity = inputs(view).find((b) => b.block_id === INPUTS.transportValidityStart.block)!;
    expect(validity.element).toMatchObject({ initial_date_time: pickerSeconds(t.validityStartMs!) });
  });

  it("labels the initial vehicle from the transport when the vehicle list is unknown", () => {
    const view = transportModal({
      language: "en",
      mode: "edit",
      vehicles: undefined,
      initial: transport({ carrierName: "Camion" }),
      userTimeZone: "UTC",
      privateMetadata: "",
    });
    expect(inputs(view)[0]!.element).toMatchObject({
      initial_option: { text: { text: "B-12-ABC — Camion" } },
    });
  });

  it("shows warnings on top and stays valid with worst-case prefills", () => {
    const view = transportModal({
      language: "en",
      mode: "edit",
      vehicles: [
        {
          vehicleUId: "0b7c2f0e-1111-4222-8333-944455556666",
          plate: "<&>".repeat(30),
          name: "ȘȚ".repeat(80),
        },
      ],
      initial: worstTransport(1),
      userTimeZone: "America/New_York",
      warnings: [
        { warning: "overMaxSpan", spanMs: 16 * 86_400_000, maxDays: 15 },
        { warning: "expired", endMs: NOW - 86_400_000 },
      ],
      privateMetadata: "m".repeat(3000),
    });
    expect(validateView(view)).toEqual([]);
    expect(JSON.stringify(view.blocks[0])).toContain("Check before saving");
    expect(view.title.text.length).toBeLessThanOrEqual(24);
  });

  it("refuses private metadata over 3000 characters", () => {
    expect(() =>
      transportModal({
        language: "en",
        mode: "create",
        vehicles,
        userTimeZone: "UTC",
        privateMetadata: "m".repeat(3001),
      }),
    ).toThrow(RangeError);
  });

  it("every validation error key is an input block of the modal it came from", () => {
    for (const mode of ["create", "edit"] as const) {
      const view = transportModal({
        language: "en",
        mode,
        vehicles,
        userTimeZone: "UTC",
        privateMetadata: "",
      });
      const result = checkTransportModal(
        {
          trailer1: "#",
          trailer2: "X",
          notes: "n".repeat(600),
          transmissionStart: "x",
          transmissionEnd: "y",
        },
        { mode, nowMs: NOW },
      );
      expect(result.ok).toBe(false);
      if (!result.ok) expect(validateViewErrors(view, result.errors)).toEqual([]);
    }
  });

  it("maps each field's error to that field's block, dropping none", () => {
    const fieldErrors: Required<TransportFormErrors> = {
      vehicleUId: { problem: "vehicleMissing", example: "B 123" },
      uit: { problem: "uitCharacters", example: "e2" },
      vat: { problem: "vat", vat: { problem: "missing", example: "e3" } },
      validityStart: { problem: "validityMissing", end: "start" },
      validityEnd: { problem: "validityMissing", end: "end" },
      transmissionStart: { problem: "notADate", hint: "orEmpty" },
      transmissionEnd: { problem: "transmissionEndBeforeStart", startMs: NOW },
      startLocation: { problem: "tooLong", what: "startLocation", length: 201, max: 200 },
      endLocation: { problem: "tooLong", what: "endLocation", length: 201, max: 200 },
      trailer1: { problem: "notAPlate", trailer: 1, text: "e10" },
      trailer2: { problem: "sameTrailer" },
      notes: { problem: "tooLong", what: "notes", length: 501, max: 500 },
    };
    const byBlock = transportModalErrors(fieldErrors);
    expect(Object.keys(byBlock)).toHaveLength(12);
    expect(byBlock[INPUTS.transportVehicle.block]).toMatch(/^Choose the vehicle/);
    expect(byBlock[INPUTS.transportStart.block]).toMatch(/or leave it empty/);
    expect(byBlock[INPUTS.transportTrailer2.block]).toMatch(/same plate as trailer 1/);
    const view = transportModal({
      language: "en",
      mode: "create",
      vehicles,
      userTimeZone: "UTC",
      privateMetadata: "",
    });
    expect(validateViewErrors(view, byBlock)).toEqual([]);
    // A submitted value and its error name the same block: reading back a field finds where its error goes.
    const values: ViewStateValues = {};
    for (const [block, message] of Object.entries(byBlock)) values[block] = { value: { value: message } };
    const read = transportFormValues(values);
    expect(read.uit).toBe(byBlock[INPUTS.transportUit.block]);
    expect(read.trailer2).toBe(byBlock[INPUTS.transportTrailer2.block]);
  });
});

describe("modal round trip", () => {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  // The validity crosses the DST change of both zones' spring (NY 9 Mar, Bucharest 30 Mar).
  const cases: { zone: string; start: number }[] = [
    { zone: "Europe/Bucharest", start: Date.parse("2025-03-28T06:30:00Z") },
    { zone: "America/New_York", start: Date.parse("2025-03-07T14:15:00Z") },
  ];

  for (const { zone, start } of cases) {
    it(`edit in ${zone}: unchanged values validate to the same transport`, () => {
      const initial: TransportView = transport({
        validityStartMs: start,
        validityEndMs: start + 5 * DAY,
        startMs: start + HOUR + 17_000, // seconds are not shown by the picker
        endMs: start + 4 * DAY,
        trailer1Code: "B-99-TRL",
        trailer2Code: "CJ 12 XYZ",
        startLocation: "Ploiești, depozit <&>",
        endLocation: "Cluj-Napoca",
        notes: "Marfă fragilă & grea",
      });
      const view = transportModal({
        language: "en",
        mode: "edit",
        vehicles,
        initial,
        initialVat: "RO16341004",
        userTimeZone: zone,
        privateMetadata: JSON.stringify({ transportUId: initial.uId }),
      });
      const values = transportFormValues(submitUnchanged(view, zone));
      const result = validateTransportForm(values, { mode: "edit", nowMs: start + 2 * HOUR });
      expect(result).toEqual({
        ok: true,
        warnings: [],
        value: {
          vehicleUId: initial.carrierUId,
          vatNumber: "RO16341004",
          validityStartMs: start,
          validityEndMs: start + 5 * DAY,
          transmissionStartMs: start + HOUR,
          transmissionEndMs: start + 4 * DAY,
          startLocation: "Ploiești, depozit <&>",
          endLocation: "Cluj-Napoca",
          trailer1Code: "B99TRL",
          trailer2Code: "CJ12XYZ",
          notes: "Marfă fragilă & grea",
        },
      });
    });

    it(`create in ${zone}: a prefilled modal submits unchanged`, () => {
      const initial = transport({
        validityStartMs: start,
        validityEndMs: start + 3 * DAY,
        startMs: undefined,
      });
      const view = transportModal({
        language: "en",
        mode: "create",
        vehicles,
        initial,
        initialVat: "DE123456789",
        userTimeZone: zone,
        privateMetadata: "",
      });
      const values = transportFormValues(submitUnchanged(view, zone));
      expect(values.transmissionStart).toBeNull();
      const result = validateTransportForm(values, { mode: "create", nowMs: start - HOUR });
      expect(result.ok).toBe(true);
      if (result.ok) {
        expect(result.value.codeUit).toBe("Y45R577UN544GY4S");
        expect(result.value.validityStartMs).toBe(start);
        expect(result.value.validityEndMs).toBe(start + 3 * DAY);
        expect(result.value.vatNumber).toBe("DE123456789");
        expect(result.value.transmissionStartMs).toBeUndefined();
      }
    });
  }

  it("reads an empty submission as missing values", () => {
    expect(transportFormValues({})).toEqual({
      vehicleUId: null,
      uit: undefined,
      vat: undefined,
      validityStart: undefined,
      validityEnd: undefined,
      transmissionStart: undefined,
      transmissionEnd: undefined,
      startLocation: undefined,
      endLocation: undefined,
      trailer1: undefined,
      trailer2: undefined,
      notes: undefined,
    });
  });
});

describe("vehicleOptions", () => {
  it("matches plates ignoring case, spaces and dashes", () => {
    expect(vehicleOptions("b12", vehicles, "en").options.map((o) => o.value)).toEqual([
      "0b7c2f0e-1111-4222-8333-944455556666",
      "v-3",
    ]);
    expect(vehicleOptions("cj-07 x", vehicles, "en").options.map((o) => o.value)).toEqual(["v-2"]);
    expect(vehicleOptions("123 klm", vehicles, "en").options.map((o) => o.value)).toEqual(["v-3"]);
  });

  it("matches names ignoring case and diacritics", () => {
    expect(vehicleOptions("brasov", vehicles, "en").options.map((o) => o.value)).toEqual(["v-2"]);
    expect(vehicleOptions("DUBĂ", vehicles, "en").options.map((o) => o.value)).toEqual(["v-3"]);
  });

  it("lists all for an empty query, sorted by plate, labels ≤ 75", () => {
    const result = vehicleOptions("", vehicles, "en");
    expect(result.options.map((o) => o.text.text)).toEqual([
      "B-12-ABC — Truck 12",
      "B-123-KLM — Dubă <&> mică",
      "CJ 07 XYZ — Frigorific Brașov",
    ]);
    expect(validateOptionsResponse(result)).toEqual([]);
  });

  it("returns at most 100 options of at most 75 characters", () => {
    const many = Array.from({ length: 250 }, (_, i) => ({
      vehicleUId: `uid-${i}`,
      plate: `B ${String(i).padStart(3, "0")} AAA`,
      name: `Vehicle with a very long descriptive name number ${i} ${"ȘȚ".repeat(40)}`,
    }));
    const result = vehicleOptions("b", many, "en");
    expect(result.options).toHaveLength(100);
    for (const o of result.options) expect(o.text.text.length).toBeLessThanOrEqual(75);
    expect(validateOptionsResponse(result)).toEqual([]);
    expect(vehicleOptions("nothing-like-this", many, "en")).toEqual({ options: [] });
    expect(validateOptionsResponse(vehicleOptions("zzz", many, "en"))).toEqual([]);
  });
});
