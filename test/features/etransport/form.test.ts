import { describe, expect, it } from "vitest";
import {
  type TransportFormField,
  type TransportFormInput,
  toAddTransportParams,
  toUpdateTransportParams,
  validateTransportForm,
} from "../../../src/features/etransport/form.js";
import {
  transportFormErrorText,
  transportFormWarningTexts,
} from "../../../src/features/etransport/slack/views/formWording.js";

const NOW = Date.parse("2025-03-10T08:00:00Z");
const HOUR = 3600;
const DAY = 86_400;
const nowS = NOW / 1000;

const valid: TransportFormInput = {
  vehicleUId: "0b7c2f0e-1111-4222-8333-944455556666",
  uit: "y45r-577u-n544-gy4s",
  vat: "RO 16341004",
  validityStart: nowS + HOUR,
  validityEnd: nowS + HOUR + 4 * DAY,
  transmissionStart: null,
  transmissionEnd: null,
  startLocation: "  Ploiești,   depot ",
  endLocation: "",
  trailer1: "b-123-abc",
  trailer2: null,
  notes: " Fragile <&> ",
};

const create = { mode: "create" as const, nowMs: NOW };
const edit = { mode: "edit" as const, nowMs: NOW };

/** The errors (data, from the domain) as the English form words them, dates in `zone`. */
function errorsOf(
  input: TransportFormInput,
  ctx: Parameters<typeof validateTransportForm>[1] = create,
  zone = "UTC",
): Partial<Record<TransportFormField, string>> {
  const result = validateTransportForm(input, ctx);
  if (result.ok) throw new Error(`expected errors, got ${JSON.stringify(result.value)}`);
  const worded: Partial<Record<TransportFormField, string>> = {};
  for (const [field, error] of Object.entries(result.errors)) {
    if (error) worded[field as TransportFormField] = transportFormErrorText(error, "en", zone, ctx.nowMs);
  }
  return worded;
}

/** The warnings as the English form words them. */
function warningsOf(input: TransportFormInput, ctx: Parameters<typeof validateTransportForm>[1] = create) {
  const result = validateTransportForm(input, ctx);
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.errors)}`);
  return transportFormWarningTexts(result.warnings, "en", "UTC", ctx.nowMs);
}

describe("validateTransportForm: valid forms", () => {
  it("accepts a create form and normalises UIT, VAT, places, trailers, notes", () => {
    const result = validateTransportForm(valid, create);
    expect(result).toEqual({
      ok: true,
      warnings: [],
      value: {
        vehicleUId: valid.vehicleUId,
        codeUit: "Y45R577UN544GY4S",
        vatNumber: "RO16341004",
        validityStartMs: NOW + HOUR * 1000,
        validityEndMs: NOW + (HOUR + 4 * DAY) * 1000,
        startLocation: "Ploiești, depot",
        trailer1Code: "B123ABC",
        notes: "Fragile <&>",
      },
    });
  });

  it("accepts an edit form without UIT (and ignores one given)", () => {
    const result = validateTransportForm({ ...valid, uit: undefined }, edit);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value.codeUit).toBeUndefined();
    const ignored = validateTransportForm({ ...valid, uit: "garbage" }, edit);
    expect(ignored.ok).toBe(true);
  });

  it("accepts the transmission window inside the validity, bounds included", () => {
    const start = valid.validityStart as number;
    const end = valid.validityEnd as number;
    const result = validateTransportForm(
      { ...valid, transmissionStart: start, transmissionEnd: end },
      create,
    );
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.value.transmissionStartMs).toBe(start * 1000);
      expect(result.value.transmissionEndMs).toBe(end * 1000);
    }
  });

  it.each([
    ["Y45R577UN544GY4S"],
    ["y45r 577u n544 gy4s"],
    ["Y45R–577U–N544–GY4S"],
    [" Y45R-577U N544_GY4S "],
  ])("normalises the UIT %j", (uit) => {
    const result = validateTransportForm({ ...valid, uit }, create);
    expect(result.ok && result.value.codeUit).toBe("Y45R577UN544GY4S");
  });

  it("accepts numeric strings from pickers and a foreign VAT and plates", () => {
    const result = validateTransportForm(
      {
        ...valid,
        validityStart: String(valid.validityStart),
        vat: "DE 123456789",
        trailer1: "M-AB 1234",
        trailer2: "WX1234A",
      },
      create,
    );
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.value.vatNumber).toBe("DE123456789");
      expect([result.value.trailer1Code, result.value.trailer2Code]).toEqual(["MAB1234", "WX1234A"]);
    }
  });
});

describe("validateTransportForm: one error per field", () => {
  it.each<[string, TransportFormInput, TransportFormField, RegExp]>([
    ["no vehicle", { ...valid, vehicleUId: null }, "vehicleUId", /Choose the vehicle/],
    ["empty vehicle", { ...valid, vehicleUId: "  " }, "vehicleUId", /plate or name/],
    ["no UIT", { ...valid, uit: "" }, "uit", /Y45R-577U-N544-GY4S/],
    ["short UIT", { ...valid, uit: "Y45R-577U-N544" }, "uit", /16 .*this has 12/],
    ["long UIT", { ...valid, uit: "Y45R-577U-N544-GY4SX" }, "uit", /this has 17/],
    ["UIT with symbols", { ...valid, uit: "Y45R-577U-N544-GY4$" }, "uit", /only letters and digits/],
    ["no VAT", { ...valid, vat: "" }, "vat", /RO16341004/],
    ["bad CIF", { ...valid, vat: "RO16341005" }, "vat", /check digit/],
    ["bad EU VAT", { ...valid, vat: "NL123456789001" }, "vat", /NL123456789B01/],
    ["no validity start", { ...valid, validityStart: null }, "validityStart", /start of the UIT/],
    ["no validity end", { ...valid, validityEnd: undefined }, "validityEnd", /end of the UIT/],
    ["garbage start", { ...valid, validityStart: "soon" }, "validityStart", /Not a date/],
    ["garbage end", { ...valid, validityEnd: -5 }, "validityEnd", /Not a date/],
    [
      "end before start",
      { ...valid, validityEnd: (valid.validityStart as number) - 60 },
      "validityEnd",
      /end after it starts/,
    ],
    [
      "end equal to start",
      { ...valid, validityEnd: valid.validityStart },
      "validityEnd",
      /end after it starts/,
    ],
    [
      "expired UIT on create",
      { ...valid, validityStart: nowS - 6 * DAY, validityEnd: nowS - DAY },
      "validityEnd",
      /expired/,
    ],
    [
      "transmission before validity",
      { ...valid, transmissionStart: (valid.validityStart as number) - 60 },
      "transmissionStart",
      /on or after/,
    ],
    [
      "transmission start after validity",
      { ...valid, transmissionStart: (valid.validityEnd as number) + 60 },
      "transmissionStart",
      /by /,
    ],
    [
      "transmission end after validity",
      { ...valid, transmissionEnd: (valid.validityEnd as number) + 60 },
      "transmissionEnd",
      /within the UIT validity/,
    ],
    [
      "transmission end before validity",
      { ...valid, transmissionEnd: (valid.validityStart as number) - 60 },
      "transmissionEnd",
      /on or after/,
    ],
    [
      "transmission end before its start",
      {
        ...valid,
        transmissionStart: (valid.validityStart as number) + DAY,
        transmissionEnd: (valid.validityStart as number) + HOUR,
      },
      "transmissionEnd",
      /end after it starts/,
    ],
    ["garbage transmission start", { ...valid, transmissionStart: "x" }, "transmissionStart", /Not a date/],
    ["garbage transmission end", { ...valid, transmissionEnd: Number.NaN }, "transmissionEnd", /Not a date/],
    ["bad trailer 1", { ...valid, trailer1: "B#1" }, "trailer1", /not a plate.*B-123-ABC/],
    ["letters only", { ...valid, trailer1: "xyz" }, "trailer1", /“xyz” is not a plate.*e\.g\. B-123-ABC/],
    ["bad trailer 2", { ...valid, trailer2: "X" }, "trailer2", /Trailer 2/],
    ["same trailers", { ...valid, trailer1: "B 123 ABC", trailer2: "b-123-abc" }, "trailer2", /same plate/],
    ["long start location", { ...valid, startLocation: "x".repeat(201) }, "startLocation", /201 .*200/],
    ["long end location", { ...valid, endLocation: "y".repeat(250) }, "endLocation", /250 .*200/],
    ["long notes", { ...valid, notes: "n".repeat(501) }, "notes", /501 .*500/],
  ])("%s", (_name, input, block, message) => {
    const errors = errorsOf(input);
    expect(Object.keys(errors)).toEqual([block]);
    expect(errors[block]).toMatch(message);
    expect(errors[block]!.length).toBeLessThan(200);
  });

  it("refuses a trailer with the vehicle's own plate when the plate is known", () => {
    const errors = errorsOf({ ...valid, trailer1: "B 99 XYZ" }, { ...create, vehiclePlate: "B-99-XYZ" });
    expect(errors.trailer1).toMatch(/vehicle's own plate/);
  });

  it("gives every field's error in one submit: a transmission outside the validity beside a wrong validity end", () => {
    // The end before the start is wrong, but the start is good: the transmission is checked against it.
    const errors = errorsOf({
      ...valid,
      validityEnd: (valid.validityStart as number) - HOUR,
      transmissionStart: (valid.validityStart as number) - 60,
      trailer1: "xyz",
    });
    expect(Object.keys(errors).sort()).toEqual(["trailer1", "transmissionStart", "validityEnd"]);
    expect(errors.transmissionStart).toMatch(/within the UIT validity: on or after/);
    // Only the end known: a transmission after it is told too.
    const noStart = errorsOf({
      ...valid,
      validityStart: null,
      transmissionEnd: (valid.validityEnd as number) + 60,
    });
    expect(Object.keys(noStart).sort()).toEqual(["transmissionEnd", "validityStart"]);
    expect(noStart.transmissionEnd).toMatch(/within the UIT validity: by/);
  });

  it("the plate error's examples pass the plate check", () => {
    for (const example of ["B-123-ABC", "CJ-06-BDX", "M-AB-1234"]) {
      expect(validateTransportForm({ ...valid, trailer1: example }, create).ok).toBe(true);
    }
  });

  it("keys every error by its field name and reports all fields at once", () => {
    const errors = errorsOf({});
    expect(Object.keys(errors).sort()).toEqual(
      ["vehicleUId", "uit", "vat", "validityStart", "validityEnd"].sort(),
    );
  });

  it("does not call an expired UIT an error when editing (a warning instead)", () => {
    const warnings = warningsOf({ ...valid, validityStart: nowS - 6 * DAY, validityEnd: nowS - DAY }, edit);
    expect(warnings.join(" ")).toMatch(/ended/);
  });

  it("formats dates in messages in the given zone, in the one date form", () => {
    const errors = errorsOf(
      { ...valid, transmissionStart: (valid.validityStart as number) - 60 },
      create,
      "Europe/Bucharest",
    );
    expect(errors.transmissionStart).toMatch(/on or after Mon 10 Mar, 11:00\.$/);
  });

  it("returns codes and data, not words", () => {
    const result = validateTransportForm({ ...valid, uit: "Y45R-577U", vat: "RO16341005" }, create);
    expect(result).toEqual({
      ok: false,
      errors: {
        uit: { problem: "uitLength", expected: 16, length: 8, example: "Y45R-577U-N544-GY4S" },
        vat: { problem: "vat", vat: { problem: "cifChecksum", vat: "RO16341005", example: "RO16341004" } },
      },
    });
  });
});

describe("validateTransportForm: warnings", () => {
  const start = nowS + HOUR;
  it.each<[string, TransportFormInput, RegExp[]]>([
    ["exactly 5 days: none", { ...valid, validityStart: start, validityEnd: start + 5 * DAY }, []],
    [
      "over 5 days: high-fiscal-risk warning",
      { ...valid, validityStart: start, validityEnd: start + 5 * DAY + 60 },
      [/over 5 days .*high-fiscal-risk/],
    ],
    [
      "exactly 15 days: the 5-day warning only",
      { ...valid, validityStart: start, validityEnd: start + 15 * DAY },
      [/over 5 days/],
    ],
    [
      "over 15 days: the legal maximum warning",
      { ...valid, validityStart: start, validityEnd: start + 16 * DAY },
      [/more than the legal 15 days/],
    ],
    [
      "more than 3 days ahead",
      { ...valid, validityStart: nowS + 4 * DAY, validityEnd: nowS + 6 * DAY },
      [/at most 3 days before/],
    ],
    [
      "exactly 3 days ahead: none",
      { ...valid, validityStart: nowS + 3 * DAY, validityEnd: nowS + 5 * DAY },
      [],
    ],
    [
      "start in the past",
      { ...valid, validityStart: nowS - 2 * HOUR, validityEnd: nowS + 2 * DAY },
      [/in the past/],
    ],
    [
      "start a few minutes ago: none",
      { ...valid, validityStart: nowS - 300, validityEnd: nowS + 2 * DAY },
      [],
    ],
  ])("%s", (_name, input, expected) => {
    const warnings = warningsOf(input);
    expect(warnings).toHaveLength(expected.length);
    for (const [i, re] of expected.entries()) expect(warnings[i]).toMatch(re);
  });

  it("does not warn about a past start when editing a running transport", () => {
    expect(warningsOf({ ...valid, validityStart: nowS - DAY, validityEnd: nowS + DAY }, edit)).toEqual([]);
  });

  it("gives both the span and the ahead warnings together", () => {
    const warnings = warningsOf({ ...valid, validityStart: nowS + 4 * DAY, validityEnd: nowS + 24 * DAY });
    expect(warnings).toHaveLength(2);
  });
});

describe("client parameters", () => {
  it("toAddTransportParams converts instants to Dates and keeps optional fields only when set", () => {
    const result = validateTransportForm(
      { ...valid, transmissionStart: valid.validityStart, trailer2: "CJ 12 XYZ" },
      create,
    );
    if (!result.ok) throw new Error("invalid");
    const params = toAddTransportParams(result.value);
    expect(params).toEqual({
      codeUit: "Y45R577UN544GY4S",
      vehicleUId: valid.vehicleUId,
      vatNumber: "RO16341004",
      validityStart: new Date(NOW + HOUR * 1000),
      validityEnd: new Date(NOW + (HOUR + 4 * DAY) * 1000),
      start: new Date(NOW + HOUR * 1000),
      startLocation: "Ploiești, depot",
      trailer1Code: "B123ABC",
      trailer2Code: "CJ12XYZ",
      notes: "Fragile <&>",
    });
    expect("end" in params).toBe(false);
  });

  it("toUpdateTransportParams adds the transport id and no UIT", () => {
    const result = validateTransportForm({ ...valid, uit: undefined }, edit);
    if (!result.ok) throw new Error("invalid");
    const params = toUpdateTransportParams(result.value, "tr-uid-1");
    expect(params.transportUId).toBe("tr-uid-1");
    expect("codeUit" in params).toBe(false);
    expect(params.validityStart).toBeInstanceOf(Date);
  });

  it("toAddTransportParams refuses an edit draft", () => {
    const result = validateTransportForm(valid, edit);
    if (!result.ok) throw new Error("invalid");
    expect(() => toAddTransportParams(result.value)).toThrow(/no UIT/);
  });
});

describe("an edit form keeps what the user did not touch", () => {
  // The service holds instants to the second (and below); the pickers show and return minutes.
  const saved = {
    validityStartMs: NOW + 3_600_000 + 8_600, // 09:00:08.6
    validityEndMs: NOW + 3_600_000 + 10 * 86_400_000 + 41_250, // 10 days later, 09:00:41.25
    startMs: NOW + 7_200_000 + 30_000,
  };
  const minute = (ms: number) => Math.floor(ms / 60_000) * 60;
  const untouched: TransportFormInput = {
    ...valid,
    validityStart: minute(saved.validityStartMs),
    validityEnd: minute(saved.validityEndMs),
    transmissionStart: minute(saved.startMs),
    notes: "notes changed, nothing else",
  };
  const editSaved = { mode: "edit" as const, nowMs: NOW, saved };

  it("a picker left as it was keeps the saved instant to the millisecond, not the minute it showed", () => {
    const result = validateTransportForm(untouched, editSaved);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.value.validityStartMs).toBe(saved.validityStartMs);
    expect(result.value.validityEndMs).toBe(saved.validityEndMs);
    expect(result.value.transmissionStartMs).toBe(saved.startMs);
  });

  it("a saved 10-day validity is not asked to be confirmed again on every edit; a changed one is", () => {
    expect(warningsOf(untouched, editSaved)).toEqual([]);
    const longer = { ...untouched, validityEnd: minute(saved.validityEndMs) + DAY };
    expect(warningsOf(longer, editSaved).join(" ")).toMatch(/over 5 days/);
    // Without what the service holds (an old form), the span is checked as before.
    expect(warningsOf(untouched, edit).join(" ")).toMatch(/over 5 days/);
  });

  it("a picker moved by the user takes the minute picked", () => {
    const moved = { ...untouched, validityStart: minute(saved.validityStartMs) + 60 };
    const result = validateTransportForm(moved, editSaved);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.value.validityStartMs).toBe((minute(saved.validityStartMs) + 60) * 1000);
    expect(result.value.validityEndMs).toBe(saved.validityEndMs);
  });
});
