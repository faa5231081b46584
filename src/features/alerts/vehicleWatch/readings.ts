import type { SensorReading, Vehicle } from "../../../platform/fleet/schemas.js";
import { engineFromEvent } from "../../../platform/vehicles/engine.js";
import { isPlace } from "./geo.js";

/**
 * One vehicle as company-vehicles shows it at a sweep, reduced to what vehicle watch reads
 * (pure). A value the service did not give, or gave unreadably, is undefined: it makes no
 * incident, and resolves none.
 */
export interface VehicleReading {
  vehicleId: number;
  vehicleUId?: string;
  plate?: string;
  name?: string;
  gpsMs?: number;
  latitude?: number;
  longitude?: number;
  address?: string;
  speedKmh?: number;
  volts?: number;
  /** Running or not; undefined when neither engineRpm nor a known engineEvent says. */
  engine?: "on" | "off";
  /** When the engine last changed (engineEventDate). */
  engineEventMs?: number;
  private: boolean;
}

/**
 * fleet-api.md does not define `engineEvent`'s values, so the engine is read from `engineRpm`
 * (> 0: running). Only where a vehicle gives no rpm is `engineEvent` read, as the one public
 * client reading known (1 ignition on, 0 or 2 off, as the position card reads it); any other value says nothing.
 */
export function engineOf(v: Pick<Vehicle, "engineRpm" | "engineEvent">): "on" | "off" | undefined {
  if (v.engineRpm !== undefined && Number.isFinite(v.engineRpm)) return v.engineRpm > 0 ? "on" : "off";
  return engineFromEvent(v.engineEvent);
}

function finite(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) ? value : undefined;
}

export function readingOf(v: Vehicle): VehicleReading {
  const gpsMs = v.gpsDate?.getTime();
  const placed = isPlace(v.latitude, v.longitude);
  const reading: VehicleReading = { vehicleId: v.vehicleId, private: v.isPrivate === true };
  const set = <K extends keyof VehicleReading>(key: K, value: VehicleReading[K] | undefined) => {
    if (value !== undefined) reading[key] = value;
  };
  set("vehicleUId", v.vehicleUId);
  set("plate", v.vehicleRegistrationNumber);
  set("name", v.vehicleName);
  set("gpsMs", gpsMs !== undefined && Number.isFinite(gpsMs) ? gpsMs : undefined);
  if (placed) {
    set("latitude", v.latitude);
    set("longitude", v.longitude);
    set("address", v.address);
  }
  const speed = finite(v.speed);
  set("speedKmh", speed !== undefined && speed >= 0 ? speed : undefined);
  const volts = finite(v.externalPowerVoltage);
  set("volts", volts !== undefined && volts >= 0 ? volts : undefined);
  set("engine", engineOf(v));
  const engineEventMs = v.engineEventDate?.getTime();
  set(
    "engineEventMs",
    engineEventMs !== undefined && Number.isFinite(engineEventMs) ? engineEventMs : undefined,
  );
  return reading;
}

/** A reefer's temperature reading, as vehicle watch keeps it. */
export interface TemperaturePoint {
  vehicleId: number;
  atMs: number;
  value: number;
  sensor?: number;
}

export function temperaturePointsOf(readings: readonly SensorReading[]): TemperaturePoint[] {
  const out: TemperaturePoint[] = [];
  for (const r of readings) {
    const atMs = r.date.getTime();
    if (!Number.isFinite(atMs) || !Number.isFinite(r.value)) continue;
    out.push({
      vehicleId: r.vehicleId,
      atMs,
      value: r.value,
      ...(r.sensorNumber === undefined ? {} : { sensor: r.sensorNumber }),
    });
  }
  return out.sort((a, b) => a.atMs - b.atMs);
}
