import { describe, expect, it } from "vitest";
import { alertSeverity, isDomesticRoute, placeCountry } from "../../../src/features/etransport/severity.js";

describe("placeCountry", () => {
  it.each([
    ["București, Depou Militari", "RO"],
    ["Bucuresti", "RO"],
    ["Constanța, Port Constanța Sud Agigea", "RO"],
    ["Constanţa (cedilla)", "RO"],
    ["Cluj-Napoca, Tetarom I", "RO"],
    ["Str. Fabricii 3, jud. Olt", "RO"],
    ["Budapesta, Ungaria, Depozit Soroksár", "abroad"],
    ["Nădlac II, punct de trecere a frontierei", "abroad"],
    ["Wien, Austria", "abroad"],
    ["Timișoara, Calea Aradului 92", "RO"],
    ["Depozit central", "unknown"],
    [undefined, "unknown"],
  ] as const)("%s → %s", (place, country) => {
    expect(placeCountry(place)).toBe(country);
  });

  it("does not take a street named after a city for the city", () => {
    expect(placeCountry("Calea Aradului 92")).toBe("unknown");
  });
});

describe("alertSeverity", () => {
  const domestic = { startLocation: "Pitești", endLocation: "Brașov" };
  const abroad = { startLocation: "Arad", endLocation: "Budapest, Hungary" };

  it("NotInRomania is information unless both ends are in Romania", () => {
    expect(isDomesticRoute(domestic)).toBe(true);
    expect(isDomesticRoute(abroad)).toBe(false);
    expect(isDomesticRoute({ startLocation: "Pitești" })).toBe(false);
    expect(alertSeverity({ kind: "transmission", code: "NotInRomania", facts: abroad })).toBe("info");
    expect(alertSeverity({ kind: "transmission", code: "NotInRomania", facts: {} })).toBe("info");
    expect(alertSeverity({ kind: "transmission", code: "NotInRomania", facts: domestic })).toBe("fault");
  });

  it("Error and NoGPSCoordinates are faults, OldData a warning; other kinds stay faults", () => {
    expect(alertSeverity({ kind: "transmission", code: "Error", facts: {} })).toBe("fault");
    expect(alertSeverity({ kind: "transmission", code: "NoGPSCoordinates", facts: {} })).toBe("fault");
    expect(alertSeverity({ kind: "transmission", code: "OldData", facts: {} })).toBe("warning");
    expect(alertSeverity({ kind: "changerequest", code: "ResponseError", facts: {} })).toBe("fault");
    expect(alertSeverity({ kind: "expiry", code: "ValidityEnding", facts: {} })).toBe("fault");
  });
});
