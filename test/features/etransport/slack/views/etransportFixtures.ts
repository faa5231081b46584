import type { TransportView } from "../../../../../src/features/etransport/types.js";

export const NOW = Date.parse("2025-03-10T08:00:00Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export function transport(overrides: Partial<TransportView> = {}): TransportView {
  return {
    uId: "6f1c0a52-3b7e-4c1d-9a55-0d2e8f7b1234",
    codeUit: "Y45R577UN544GY4S",
    statusId: 2,
    carrierUId: "0b7c2f0e-1111-4222-8333-944455556666",
    carrierCode: "B-12-ABC",
    carrierName: "Truck 12",
    validityStartMs: NOW - HOUR,
    validityEndMs: NOW + 4 * DAY,
    startMs: NOW - 30 * 60_000,
    transmissionStatusCode: "Active",
    lastTransmissionMs: NOW - 120_000,
    lastGpsMs: NOW - 60_000,
    ...overrides,
  };
}

const nasty = "Șoseaua <Kiseleff> & «Ștefan cel Mare» — depozit nr. 5 <&>";

/** A transport with every field at its longest and full of characters that need escaping. */
export function worstTransport(i: number): TransportView {
  const uit = `W${String(i).padStart(2, "0")}RSTUVWXYZ12345`.slice(0, 16);
  return transport({
    uId: `6f1c0a52-3b7e-4c1d-9a55-0d2e8f7b${String(1000 + i)}`,
    codeUit: uit,
    statusId: [1, 2, 3, 4, 5, 6][i % 6]!,
    carrierCode: "<&>B-123-ȘȚĂ<&>",
    carrierName: `${"<&>ÎÂȘȚĂ ".repeat(20)}${i}`,
    trailer1Code: "<B-99-TRL>",
    trailer2Code: "CJ&12&XYZ",
    notes: `${nasty} `.repeat(10).slice(0, 500),
    startLocation: `${nasty} `.repeat(4).slice(0, 200),
    endLocation: `${nasty} `.repeat(4).slice(0, 200),
    transmissionStatusCode: "NoGPSCoordinates",
    transmissionStatusErrorDescription: `Eroare <transmisie> & ${"detaliu ".repeat(60)}`,
    changeRequestStatusCode: "ResponseError",
    changeRequestMessage: "Cerere <creată> & trimisă",
    changeRequestAuthorityMessage: `Numărul de înmatriculare <indicat> & ${"nu este valid ".repeat(30)}`,
    externalResponse: `UIT respins <&> ${"motiv ".repeat(80)}`,
    endMs: NOW + 2 * DAY,
  });
}
