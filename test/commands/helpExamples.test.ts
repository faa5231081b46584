import { describe, expect, it } from "vitest";
import { helpText, vehicleExamples } from "../../src/commands/help.js";
import { parseCommandLine } from "../../src/commands/index.js";
import { resolvableVehicles } from "../../src/features/reports/catalogue.js";
import { LANGUAGES } from "../../src/i18n/index.js";
import type { Vehicle } from "../../src/platform/fleet/schemas.js";
import { resolveVehicles } from "../../src/platform/vehicles/vehicleRefs.js";

/** An account's list as the service gives it: a plate written with spaces first, one without a plate. */
const ACCOUNT = [
  { vehicleId: 41, vehicleRegistrationNumber: "B 77 KMT", vehicleName: "DAF XF" },
  { vehicleId: 42, vehicleRegistrationNumber: null, vehicleName: "Trailer 2" },
  { vehicleId: 43, vehicleRegistrationNumber: "CJ-19-RTX", vehicleName: "Reefer 1" },
] as unknown as Vehicle[];

const examplesIn = (text: string) => [...text.matchAll(/(?:e\.g\.|Ex\.:) `([^`]+)`/g)].map((m) => m[1]!);

describe("help examples with the account's vehicles", () => {
  it("uses the account's first plates and a real id, each written as one word", () => {
    expect(vehicleExamples(ACCOUNT)).toEqual({ plates: ["B-77-KMT", "CJ-19-RTX"], vehicleId: 41 });
    expect(vehicleExamples([])).toBeUndefined();
  });

  it.each(LANGUAGES)(
    "%s: names no made-up vehicle, and every example parses and finds its vehicles in the account's list",
    (language) => {
      const text = helpText("all", vehicleExamples(ACCOUNT), language);
      expect(text).not.toMatch(/B-123-ABC|CJ-07-XYZ|CJ-10-XYZ|#1234\b|b 123 abc/);
      expect(text).toContain("`b 77 kmt` = `B-77-KMT`");
      expect(text).toContain("vehicles=B-77-KMT,CJ-19-RTX");
      const examples = examplesIn(text);
      expect(examples.length).toBeGreaterThan(10);
      const list = resolvableVehicles(ACCOUNT);
      for (const example of examples) {
        const parsed = parseCommandLine(example, { timeZone: "Europe/Bucharest", now: new Date() }).result;
        expect(parsed.ok, example).toBe(true);
        if (!parsed.ok || parsed.kind !== "report") continue;
        expect(resolveVehicles(parsed.vehicles, list).ok, example).toBe(true);
      }
    },
  );

  it("with a single vehicle, lists it once where the help shows two", () => {
    const text = helpText("fleet", vehicleExamples(ACCOUNT.slice(0, 1)), "en");
    expect(text).toContain("e.g. `/fleet stops B-77-KMT last 3d min=10`");
    expect(text).not.toMatch(/CJ-/);
  });

  it("keeps the made-up examples when the list is not known", () => {
    expect(helpText("fleet", undefined, "en")).toContain("/fleet where B-123-ABC");
  });
});
