import { type ConsumptionRecord, type ConsumptionSource, sourceHasData } from "./schemas.js";
import { formatDurationHours } from "./time.js";

/** Distance, time, fuel and l/100 km of one vehicle or of a fleet. */
export interface ConsumptionTotals {
  distance: number;
  hoursSeconds: number;
  /** "hours:minutes:seconds", hours unbounded. */
  hours: string;
  consumptionValue: number;
  averageConsumption100Km: number;
}

/**
 * Totals of one vehicle by fleet-api.md's rule: with secondary-source data,
 * distance, hours and consumption are primary + secondary, and the average is the
 * arithmetic mean of the two averages; without it, the primary values.
 */
export function vehicleConsumptionTotals(record: ConsumptionRecord): ConsumptionTotals {
  const secondary = record.secondarySource;
  if (!sourceHasData(secondary)) {
    return {
      distance: record.distance,
      hoursSeconds: record.hoursSeconds,
      hours: formatDurationHours(record.hoursSeconds),
      consumptionValue: record.consumptionValue,
      averageConsumption100Km: record.averageConsumption100Km,
    };
  }
  const hoursSeconds = record.hoursSeconds + secondary.hoursSeconds;
  return {
    distance: record.distance + secondary.distance,
    hoursSeconds,
    hours: formatDurationHours(hoursSeconds),
    consumptionValue: record.consumptionValue + secondary.consumptionValue,
    averageConsumption100Km: (record.averageConsumption100Km + secondary.averageConsumption100Km) / 2,
  };
}

/**
 * Totals over several vehicles. Sums of each vehicle's totals (the rule above); the
 * average is the distance-weighted mean of the vehicles' averages, so one vehicle gives
 * exactly its rule average and a fleet without secondary sources gives its true l/100 km
 * (Σ litres / Σ km × 100). Zero distance overall gives 0.
 */
export function consumptionTotals(records: readonly ConsumptionRecord[]): ConsumptionTotals {
  let distance = 0;
  let hoursSeconds = 0;
  let consumptionValue = 0;
  let weightedAverage = 0;
  for (const record of records) {
    const t = vehicleConsumptionTotals(record);
    distance += t.distance;
    hoursSeconds += t.hoursSeconds;
    consumptionValue += t.consumptionValue;
    weightedAverage += t.averageConsumption100Km * t.distance;
  }
  return {
    distance,
    hoursSeconds,
    hours: formatDurationHours(hoursSeconds),
    consumptionValue,
    averageConsumption100Km: distance > 0 ? weightedAverage / distance : 0,
  };
}

function addSources(a: ConsumptionSource, b: ConsumptionSource): ConsumptionSource {
  const distance = a.distance + b.distance;
  const consumptionValue = a.consumptionValue + b.consumptionValue;
  const hoursSeconds = a.hoursSeconds + b.hoursSeconds;
  return {
    distance,
    consumptionValue,
    hoursSeconds,
    hours: formatDurationHours(hoursSeconds),
    // A period's l/100 km is its litres over its km; averaging the spans' averages would
    // weigh a 2-km span like a 2000-km one.
    averageConsumption100Km: distance > 0 ? (consumptionValue / distance) * 100 : 0,
  };
}

/** Which vehicle a consumption record is about: the answer carries no vehicleId, only plate and name. */
export function consumptionVehicleKey(record: ConsumptionRecord): string {
  if (record.vehicleId !== undefined) return `id:${record.vehicleId}`;
  if (record.licensePlate) return `plate:${record.licensePlate}`;
  return `name:${record.vehicleName ?? ""}`;
}

/**
 * Merges the records of consecutive period spans into one record per vehicle (first
 * appearance order): distances, litres and hours add up, each source's average is
 * recomputed as litres / km × 100 (0 when no km). A vehicle met only once is returned
 * unchanged, with the service's own average.
 */
export function mergeConsumptionSpans(records: readonly ConsumptionRecord[]): ConsumptionRecord[] {
  const merged = new Map<string, { record: ConsumptionRecord; count: number }>();
  for (const record of records) {
    const key = consumptionVehicleKey(record);
    const seen = merged.get(key);
    if (!seen) {
      merged.set(key, { record, count: 1 });
      continue;
    }
    const a = seen.record;
    const primary = addSources(a, record);
    const secondary =
      a.secondarySource && record.secondarySource
        ? addSources(a.secondarySource, record.secondarySource)
        : (a.secondarySource ?? record.secondarySource);
    seen.record = {
      vehicleId: a.vehicleId ?? record.vehicleId,
      vehicleName: a.vehicleName ?? record.vehicleName,
      licensePlate: a.licensePlate ?? record.licensePlate,
      ...primary,
      secondarySource: secondary,
    };
    seen.count += 1;
  }
  return [...merged.values()].map((m) => m.record);
}
