/** The synthetic fleet: vehicles as a pure function of (seed, count). */
import { guid, hash32, Rng } from "./random.js";
import { DEPOTS, type Depot, measureRoad } from "./roads.js";

export type VehicleKind = "truck" | "van" | "car";

export interface Driver {
  firstName: string;
  lastName: string;
}

export interface SecondaryFuel {
  /** l/100 km on the secondary source (LPG). */
  litresPer100Km: number;
  /** Share of distance driven on the secondary source. */
  distanceShare: number;
  tankLitres: number;
}

export interface Reefer {
  /** Set point of the cargo box, °C (4 chilled, −18 frozen). */
  setPointC: number;
  temperatureSensors: number;
  humiditySensors: number;
}

export interface SimVehicle {
  vehicleId: number;
  vehicleUId: string;
  name: string;
  plate: string;
  vin: string;
  manufacturer: string;
  model: string;
  year: number;
  kind: VehicleKind;
  depot: Depot;
  /** Roads (names in ROADS) the vehicle drives, all starting at its depot. */
  roads: readonly string[];
  /** Farthest one-way distance of a day trip, km. */
  maxOneWayKm: number;
  cruiseKmh: readonly [number, number];
  litresPer100Km: number;
  idleLitresPerHour: number;
  tankLitres: number;
  secondaryFuel?: SecondaryFuel;
  reefer?: Reefer;
  drivers: readonly Driver[];
  /** Drives privately on Saturdays (company car used by its driver). */
  privateOnSaturdays: boolean;
  nominalVoltage: 12 | 24;
  /** Odometer at the fleet epoch. */
  odometerBaseKm: number;
}

interface Make {
  manufacturer: string;
  model: string;
  short: string;
  wmi: string;
}

const TRUCKS: readonly Make[] = [
  { manufacturer: "Volvo", model: "FH 500", short: "Volvo FH 500", wmi: "YV2" },
  { manufacturer: "Scania", model: "R 450", short: "Scania R 450", wmi: "YS2" },
  { manufacturer: "Mercedes-Benz", model: "Actros 1845", short: "Actros 1845", wmi: "WDB" },
  { manufacturer: "DAF", model: "XF 480", short: "DAF XF 480", wmi: "XLR" },
  { manufacturer: "MAN", model: "TGX 18.510", short: "MAN TGX", wmi: "WMA" },
  { manufacturer: "Iveco", model: "S-Way 490", short: "Iveco S-Way", wmi: "ZCF" },
  { manufacturer: "Renault Trucks", model: "T 480", short: "Renault T 480", wmi: "VF6" },
];

const VANS: readonly Make[] = [
  { manufacturer: "Ford", model: "Transit 350", short: "Ford Transit", wmi: "WF0" },
  { manufacturer: "Mercedes-Benz", model: "Sprinter 316 CDI", short: "Sprinter 316", wmi: "WDB" },
  { manufacturer: "Renault", model: "Master 2.3 dCi", short: "Renault Master", wmi: "VF1" },
  { manufacturer: "Iveco", model: "Daily 35S16", short: "Iveco Daily", wmi: "ZCF" },
  { manufacturer: "Volkswagen", model: "Crafter 2.0 TDI", short: "VW Crafter", wmi: "WV1" },
];

const FIRST_NAMES = [
  "Ion",
  "Gheorghe",
  "Mihai",
  "Vasile",
  "Constantin",
  "Andrei",
  "Alexandru",
  "Florin",
  "Marian",
  "Cristian",
  "Adrian",
  "Daniel",
  "Ionuț",
  "Bogdan",
  "Nicolae",
  "Sorin",
  "Dumitru",
  "Elena",
  "Ioana",
  "Răzvan",
];
const LAST_NAMES = [
  "Popescu",
  "Ionescu",
  "Popa",
  "Dumitru",
  "Stan",
  "Stoica",
  "Gheorghe",
  "Matei",
  "Ciobanu",
  "Rusu",
  "Munteanu",
  "Moldovan",
  "Lungu",
  "Constantinescu",
  "Marin",
  "Tudor",
  "Dinu",
  "Șerban",
  "Barbu",
  "Nistor",
];

/** Letters used on Romanian plates (no I, O, Q: they read as 1, 0). */
const PLATE_LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ";
const VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
const VIN_YEAR: Readonly<Record<number, string>> = {
  2015: "F",
  2016: "G",
  2017: "H",
  2018: "J",
  2019: "K",
  2020: "L",
  2021: "M",
  2022: "N",
  2023: "P",
  2024: "R",
  2025: "S",
};

/** Romanian plate: county code, 2 digits (3 allowed for B), 3 letters. */
export function romanianPlate(county: string, rng: Rng): string {
  const digits = county === "B" && rng.chance(0.5) ? rng.int(100, 999) : rng.int(1, 99);
  const letters = Array.from({ length: 3 }, () => rng.pick([...PLATE_LETTERS])).join("");
  return `${county}-${String(digits).padStart(2, "0")}-${letters}`;
}

function vin(wmi: string, year: number, rng: Rng): string {
  const body = Array.from({ length: 14 }, () => rng.pick([...VIN_CHARS]));
  body[6] = VIN_YEAR[year] ?? "N"; // position 10 of the VIN is the model year
  return `${wmi}${body.join("")}`;
}

/** Depot index by vehicle position: most of the fleet sits in București. */
const DEPOT_ORDER = [0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 1, 0, 3, 0, 2];

/** Special roles by position, so every seed has them. */
const ROLE_CHILLED_REEFER = 0;
const ROLE_FREEZER_REEFER = 1;
const ROLE_LPG = 2;
const ROLE_PRIVATE_CAR = 3;

export function generateFleet(seed: number, count: number): SimVehicle[] {
  const vehicles: SimVehicle[] = [];
  const usedPlates = new Set<string>();
  let nextId = 20_000 + (hash32("fleet-base", seed) % 60_000);
  for (let i = 0; i < count; i++) {
    const rng = new Rng("vehicle", seed, i);
    nextId += rng.int(1, 37);
    const depot = DEPOTS[DEPOT_ORDER[i % DEPOT_ORDER.length]!]!;
    const isTruck = i === ROLE_CHILLED_REEFER || (i > ROLE_PRIVATE_CAR && rng.chance(0.6));
    const kind: VehicleKind = i === ROLE_PRIVATE_CAR ? "car" : isTruck ? "truck" : "van";
    let make: Make = rng.pick(kind === "truck" ? TRUCKS : VANS);
    if (i === ROLE_LPG)
      make = { manufacturer: "Dacia", model: "Dokker Van 1.6 LPG", short: "Dokker LPG", wmi: "UU1" };
    if (i === ROLE_PRIVATE_CAR)
      make = { manufacturer: "Škoda", model: "Octavia Combi 2.0 TDI", short: "Octavia", wmi: "TMB" };
    if (i === ROLE_FREEZER_REEFER) make = VANS[3]!;
    const year = rng.int(2016, 2025);
    const drivers = [0, 1].map(() => ({ firstName: rng.pick(FIRST_NAMES), lastName: rng.pick(LAST_NAMES) }));
    let plate = romanianPlate(depot.county, rng);
    while (usedPlates.has(plate)) plate = romanianPlate(depot.county, rng);
    usedPlates.add(plate);
    const reefer: Reefer | undefined =
      i === ROLE_CHILLED_REEFER
        ? { setPointC: 4, temperatureSensors: 2, humiditySensors: 1 }
        : i === ROLE_FREEZER_REEFER
          ? { setPointC: -18, temperatureSensors: 2, humiditySensors: 1 }
          : undefined;
    const label = reefer ? `${make.short} Frigo` : make.short;
    const name = i === ROLE_PRIVATE_CAR ? `${make.short} – Director` : `${label} – ${drivers[0]!.firstName}`;
    const maxOneWayKm = kind === "truck" ? 300 : kind === "car" ? 160 : 130;
    const roads = depot.roads.filter((road) => measureRoad(road).lengthKm > 40);
    vehicles.push({
      vehicleId: nextId,
      vehicleUId: guid("vehicle", seed, i),
      name,
      plate,
      vin: vin(make.wmi, year, rng),
      manufacturer: make.manufacturer,
      model: make.model,
      year,
      kind,
      depot,
      roads,
      maxOneWayKm,
      cruiseKmh: kind === "truck" ? [62, 84] : [65, 95],
      litresPer100Km: kind === "truck" ? rng.between(27, 33) : kind === "car" ? 6.2 : rng.between(8.5, 10.5),
      idleLitresPerHour: kind === "truck" ? 2.5 : 0.9,
      tankLitres: kind === "truck" ? 600 : kind === "car" ? 50 : i === ROLE_LPG ? 50 : 80,
      ...(i === ROLE_LPG
        ? { secondaryFuel: { litresPer100Km: 10.8, distanceShare: 0.85, tankLitres: 42 } }
        : {}),
      ...(reefer ? { reefer } : {}),
      drivers,
      privateOnSaturdays: i === ROLE_PRIVATE_CAR,
      nominalVoltage: kind === "truck" ? 24 : 12,
      odometerBaseKm: Math.round(rng.between(20_000, 250_000)),
    });
  }
  return vehicles;
}

/** The viewer's subset: ten vehicles, including the chilled reefer and the LPG van. */
export function viewerVehicleIds(fleet: readonly SimVehicle[]): number[] {
  return [0, 2, 4, 5, 6, 7, 8, 9, 10, 11].map((i) => fleet[i]?.vehicleId).filter((id) => id !== undefined);
}
