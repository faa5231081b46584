import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  normalisePlate,
  parseVehicleList,
  parseVehicleRef,
  resolveVehicles,
  type VehicleRef,
  type VehicleResolution,
} from "../../src/commands/index.js";
import {
  type ResolutionProblem,
  resolutionProblemText,
} from "../../src/platform/slack/views/vehicleProblems.js";
import { msg } from "./problemText.js";

/** A resolution that found nothing, as an English reader is told (and the Romanian, for the same). */
const described = (r: VehicleResolution, language: "en" | "ro" = "en") =>
  resolutionProblemText(r as ResolutionProblem, language);

const FLEET = [
  {
    vehicleId: 1,
    vehicleUId: "3f2a1b4c-0000-4000-8000-000000000001",
    name: "Volvo FH 12",
    plate: "B-123-ABC",
  },
  { vehicleId: 2, name: "Volvo FH 16", plate: "CJ-07-XYZ" },
  { vehicleId: 3, name: "DAF XF", plate: "B 999 ZZZ" },
  { vehicleId: 4, name: "Reefer 3", plate: "IS-45-RFR" },
  { vehicleId: 5, name: "Scania", plate: "B-124-ABC" },
  { vehicleId: 6, name: "Sprinter", plate: "AG-12-SPR" },
];

function refs(text: string): VehicleRef[] {
  const r = parseVehicleList(text);
  if (!r.ok) throw new Error(msg(r));
  return r.refs;
}

describe("normalisePlate", () => {
  it.each([
    ["b 123 abc", "B123ABC"],
    ["B-123-ABC", "B123ABC"],
    ["b123abc", "B123ABC"],
    [" cj.07/xyz ", "CJ07XYZ"],
    ["", ""],
  ])("%j → %j", (text, expected) => expect(normalisePlate(text)).toBe(expected));

  it("is idempotent and keeps only letters and digits", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const n = normalisePlate(s);
        expect(normalisePlate(n)).toBe(n);
        expect(n).not.toMatch(/[\s\-.,#]/);
      }),
    );
  });

  it("ignores case, spaces and dashes", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Z]{1,2}[0-9]{2,3}[A-Z]{3}$/),
        fc.array(fc.constantFrom(" ", "-", "")),
        (plate, seps) => {
          const written = plate
            .split("")
            .map((c, i) => `${i % 2 ? c.toLowerCase() : c}${seps[i] ?? ""}`)
            .join("");
          expect(normalisePlate(written)).toBe(plate);
        },
      ),
    );
  });
});

describe("parseVehicleRef / parseVehicleList", () => {
  it.each([
    ["B-123-ABC", { type: "plate", raw: "B-123-ABC", normalised: "B123ABC" }],
    ["b 123 abc", { type: "plate", raw: "b 123 abc", normalised: "B123ABC" }],
    ["CJ07XYZ", { type: "plate", raw: "CJ07XYZ", normalised: "CJ07XYZ" }],
    ["M-AB 1234", { type: "plate", raw: "M-AB 1234", normalised: "MAB1234" }],
    ["Volvo FH 12", { type: "name", raw: "Volvo FH 12", normalised: "VOLVOFH12" }],
    ["Reefer", { type: "name", raw: "Reefer", normalised: "REEFER" }],
    ["#42", { type: "id", raw: "#42", normalised: "42", vehicleId: 42 }],
    ["#007", { type: "id", raw: "#007", normalised: "7", vehicleId: 7 }],
    ["All", { type: "all", raw: "All", normalised: "ALL" }],
  ])("%j", (text, expected) => {
    expect(parseVehicleRef(text)).toEqual({ ok: true, ref: expected });
  });

  it.each([["#"], ["#abc"], ["#0"], ["---"]])("%j is refused", (text) => {
    const r = parseVehicleRef(text);
    expect(r.ok).toBe(false);
  });

  it("splits on commas, and on spaces between whole plates or ids; removes duplicates in order", () => {
    expect(refs("Volvo FH 12, b 123 abc,,#4").map((r) => r.raw)).toEqual(["Volvo FH 12", "b 123 abc", "#4"]);
    expect(refs("B-123-ABC CJ-07-XYZ #4").map((r) => r.raw)).toEqual(["B-123-ABC", "CJ-07-XYZ", "#4"]);
    expect(refs("B-123-ABC, b123abc, #4, #04").map((r) => r.raw)).toEqual(["B-123-ABC", "#4"]);
  });
});

describe("resolveVehicles", () => {
  const resolve = (text: string) => resolveVehicles(refs(text), FLEET);

  it.each([
    ["b 123 abc", 1],
    ["B123ABC", 1],
    ["cj-07-xyz", 2],
    ["#4", 4],
    ["volvo fh 16", 2],
    ["VOLVO  FH 12", 1],
    ["volvofh12", 1],
    ["Scan", 5],
    ["reefer", 4],
    ["sprint", 6],
    ["xf", 3],
    ["999", 3],
    ["3f2a1b4c-0000-4000-8000-000000000001", 1],
  ])("%j finds vehicle %i", (text, id) => {
    const r = resolve(text);
    expect(r.ok).toBe(true);
    expect(r.vehicles.map((v) => v.vehicleId)).toEqual([id]);
    expect(r.resolutions[0]?.kind).toBe("found");
  });

  it("a plate wins over a name that contains the same text", () => {
    const fleet = [
      { vehicleId: 1, name: "Spare B123ABC", plate: "CJ-01-AAA" },
      { vehicleId: 2, name: "Truck", plate: "B-123-ABC" },
    ];
    expect(resolveVehicles(refs("B-123-ABC"), fleet).vehicles.map((v) => v.vehicleId)).toEqual([2]);
  });

  it("an exact name wins over a longer name with the same start", () => {
    const fleet = [
      { vehicleId: 1, name: "Volvo", plate: "B-01-AAA" },
      { vehicleId: 2, name: "Volvo 2", plate: "B-02-AAA" },
    ];
    expect(resolveVehicles(refs("volvo"), fleet).vehicles.map((v) => v.vehicleId)).toEqual([1]);
  });

  it("a name matching several vehicles is ambiguous and lists them", () => {
    const r = resolve("volvo");
    expect(r.ok).toBe(false);
    const first = r.resolutions[0];
    expect(first?.kind).toBe("ambiguous");
    if (first?.kind !== "ambiguous") return;
    expect(first.candidates.map((v) => v.vehicleId)).toEqual([1, 2]);
    expect(described(first)).toBe(
      "`volvo` matches 2 vehicles: B-123-ABC (Volvo FH 12), CJ-07-XYZ (Volvo FH 16). Give the registration number.",
    );
    expect(described(first, "ro")).toBe(
      "`volvo` se potrivește cu 2 vehicule: B-123-ABC (Volvo FH 12), CJ-07-XYZ (Volvo FH 16). Scrie numărul de înmatriculare.",
    );
  });

  it("an unknown plate suggests the closest plates", () => {
    const r = resolve("B-123-ABD");
    const first = r.resolutions[0];
    expect(first?.kind).toBe("unknown");
    if (first?.kind !== "unknown") return;
    expect(first.suggestions.map((v) => v.plate)).toEqual(["B-123-ABC", "B-124-ABC"]);
    expect(described(first)).toBe(
      "No vehicle with registration number `B-123-ABD` in this account. Did you mean `B-123-ABC` or `B-124-ABC`?",
    );
    expect(described(first, "ro")).toBe(
      "Niciun vehicul cu numărul de înmatriculare `B-123-ABD` în acest cont. Ai vrut să scrii `B-123-ABC` sau `B-124-ABC`?",
    );
  });

  it("a 5,000-character unknown name is told back cut to an echo's budget", () => {
    const first = resolve("Q".repeat(5000)).resolutions[0];
    expect(first?.kind).toBe("unknown");
    if (first?.kind !== "unknown") return;
    for (const language of ["en", "ro"] as const) {
      const said = described(first, language);
      expect(said).toContain(`\`${"Q".repeat(99)}…\``);
      expect(said.length).toBeLessThan(200);
    }
  });

  it("an unknown name with nothing close has no suggestions", () => {
    const first = resolve("Mercedes Actros").resolutions[0];
    expect(first).toMatchObject({ kind: "unknown", suggestions: [] });
    expect(described(first!)).toBe("No vehicle named `Mercedes Actros` in this account.");
    expect(described(first!, "ro")).toBe("Niciun vehicul numit `Mercedes Actros` în acest cont.");
  });

  it("suggests at most three, closest first", () => {
    const fleet = ["B-100-AAA", "B-101-AAA", "B-102-AAA", "B-103-AAA", "B-200-AAA"].map((plate, i) => ({
      vehicleId: i + 1,
      name: `T${i}`,
      plate,
    }));
    const first = resolveVehicles(refs("B-10-AAA"), fleet).resolutions[0];
    expect(first?.kind === "unknown" && first.suggestions.length).toBe(3);
  });

  it("an id the account cannot see is not-visible, not unknown", () => {
    const r = resolve("#99");
    expect(r.resolutions[0]).toEqual({
      kind: "not-visible",
      ref: { type: "id", raw: "#99", normalised: "99", vehicleId: 99 },
      vehicleId: 99,
    });
    expect(described(r.resolutions[0]!)).toBe("Vehicle `#99` is not visible to this fleet account.");
    expect(described(r.resolutions[0]!, "ro")).toBe(
      "Vehiculul `#99` nu este vizibil pentru acest cont al platformei GPS.",
    );
  });

  it("all is every vehicle; duplicates are removed in the order first referred to", () => {
    expect(resolve("all").vehicles.map((v) => v.vehicleId)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(resolve("#4, b123abc, Reefer 3, all").vehicles.map((v) => v.vehicleId)).toEqual([
      4, 1, 2, 3, 5, 6,
    ]);
    expect(resolveVehicles(refs("all"), []).vehicles).toEqual([]);
  });

  it("reports every problem and still returns what was found", () => {
    const r = resolve("b123abc, volvo, #99, nothing-like-it");
    expect(r.ok).toBe(false);
    expect(r.vehicles.map((v) => v.vehicleId)).toEqual([1]);
    expect(r.problems.map((p) => p.kind)).toEqual(["ambiguous", "not-visible", "unknown"]);
  });

  it("keeps the caller's vehicle type", () => {
    const rich = [{ vehicleId: 9, name: "X", plate: "B-09-XXX", speed: 50 }];
    const r = resolveVehicles(refs("#9"), rich);
    expect(r.vehicles[0]?.speed).toBe(50);
  });

  it("finds any vehicle by its plate written in any case, spacing and dashes", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FLEET),
        fc.array(fc.constantFrom(" ", "-", "")),
        fc.boolean(),
        (v, seps, lower) => {
          const n = normalisePlate(v.plate);
          const written = n
            .split("")
            .map((c, i) => `${lower ? c.toLowerCase() : c}${i < n.length - 1 ? (seps[i] ?? "") : ""}`)
            .join("");
          const r = resolveVehicles(refs(written), FLEET);
          expect(r.vehicles.map((x) => x.vehicleId)).toEqual([v.vehicleId]);
        },
      ),
    );
  });
});
