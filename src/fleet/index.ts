/** Public surface of the fleet client (fleet-api.md). Nothing outside fleet/ speaks HTTP to the service. */
export {
  type AddTransportParams,
  FleetClient,
  type FleetClientOptions,
  type FleetCredentials,
  FleetSession,
  type LoadTransportsParams,
  type LoginInfo,
  type PeriodParams,
  type ProgressListener,
  parseRetryAfter,
  type RefillsAllParams,
  type RefillsParams,
  type StopsParams,
  type TransportFields,
  type UpdateTransportParams,
  type VehicleRefills,
  type VehiclesPeriodParams,
} from "./client.js";
export {
  type ConsumptionTotals,
  consumptionTotals,
  consumptionVehicleKey,
  mergeConsumptionSpans,
  vehicleConsumptionTotals,
} from "./consumption.js";
export * from "./errors.js";
export { canonicalJson, normalizeKeys } from "./normalize.js";
export * from "./schemas.js";
export * from "./seam.js";
export * from "./split.js";
export {
  formatCompanyLocal,
  formatDurationHours,
  formatUtcIso,
  parseDurationSeconds,
  parseLooseServiceDate,
  parseServiceDate,
} from "./time.js";
export { AccessToken, TokenManager, type TokenManagerOptions } from "./tokens.js";
