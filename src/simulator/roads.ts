/**
 * Romanian roads as hand-made polylines of real coordinates (coarse: a waypoint every
 * 10–40 km), with the towns on them. Routes of the synthetic fleet run along these.
 */

export interface Waypoint {
  lat: number;
  lon: number;
  /** Town at this waypoint, where deliveries and breaks can happen. */
  town?: string;
  county?: string;
  /** Outside Romania (only on the routes of transports that leave the country). */
  abroad?: true;
}

export interface Road {
  /** e.g. "A1", "DN1". */
  ref: string;
  points: readonly Waypoint[];
}

const w = (lat: number, lon: number, town?: string, county?: string): Waypoint =>
  town === undefined ? { lat, lon } : { lat, lon, town, county };
/** A waypoint outside Romania. */
const x = (lat: number, lon: number, town?: string): Waypoint =>
  town === undefined ? { lat, lon, abroad: true } : { lat, lon, town, abroad: true };

/** Every road starts at its depot (the first waypoint); vehicles drive out along it and back. */
export const ROADS: Readonly<Record<string, Road>> = {
  bucurestiSibiu: {
    ref: "A1/DN7",
    points: [
      w(44.4326, 25.9723, "București", "B"),
      w(44.4528, 25.835),
      w(44.51, 25.67, "Joița", "GR"),
      w(44.585, 25.49),
      w(44.66, 25.32, "Găești", "DB"),
      w(44.73, 25.15),
      w(44.8, 24.99, "Ștefănești", "AG"),
      w(44.8565, 24.8692, "Pitești", "AG"),
      w(44.9, 24.7),
      w(44.98, 24.52),
      w(45.05, 24.41),
      w(45.0997, 24.3693, "Râmnicu Vâlcea", "VL"),
      w(45.238, 24.34, "Călimănești", "VL"),
      w(45.49, 24.27, "Câineni", "VL"),
      w(45.63, 24.26, "Boița", "SB"),
      w(45.7983, 24.1256, "Sibiu", "SB"),
    ],
  },
  bucurestiConstanta: {
    ref: "A2",
    points: [
      w(44.4326, 25.9723, "București", "B"),
      w(44.43, 26.1),
      w(44.417, 26.24),
      w(44.46, 26.52, "Fundulea", "CL"),
      w(44.44, 26.85, "Lehliu-Gară", "CL"),
      w(44.43, 27.2),
      w(44.4, 27.55, "Drajna", "CL"),
      w(44.385, 27.83, "Fetești", "IL"),
      w(44.34, 28.033, "Cernavodă", "CT"),
      w(44.25, 28.27, "Medgidia", "CT"),
      w(44.1733, 28.6383, "Constanța", "CT"),
    ],
  },
  bucurestiBrasov: {
    ref: "DN1/A3",
    points: [
      w(44.4326, 25.9723, "București", "B"),
      w(44.47, 26.05),
      w(44.5, 26.09),
      w(44.55, 26.07, "Otopeni", "IF"),
      w(44.7, 26.05),
      w(44.83, 26.02),
      w(44.9365, 26.0129, "Ploiești", "PH"),
      w(45.03, 25.88),
      w(45.125, 25.735, "Câmpina", "PH"),
      w(45.25, 25.635, "Comarnic", "PH"),
      w(45.35, 25.551, "Sinaia", "PH"),
      w(45.415, 25.538, "Bușteni", "PH"),
      w(45.505, 25.576, "Predeal", "BV"),
      w(45.6427, 25.5887, "Brașov", "BV"),
    ],
  },
  bucurestiFocsani: {
    ref: "E85/DN2",
    points: [
      w(44.4326, 25.9723, "București", "B"),
      w(44.44, 26.08),
      w(44.48, 26.16),
      w(44.525, 26.25, "Afumați", "IF"),
      w(44.62, 26.45),
      w(44.718, 26.641, "Urziceni", "IL"),
      w(44.93, 26.74),
      w(45.15, 26.82, "Buzău", "BZ"),
      w(45.38, 27.06, "Râmnicu Sărat", "BZ"),
      w(45.696, 27.184, "Focșani", "VN"),
    ],
  },
  bucurestiCraiova: {
    ref: "A1/DN65",
    points: [
      w(44.4326, 25.9723, "București", "B"),
      w(44.51, 25.67),
      w(44.66, 25.32, "Găești", "DB"),
      w(44.8, 24.99),
      w(44.8565, 24.8692, "Pitești", "AG"),
      w(44.7, 24.67),
      w(44.55, 24.5),
      w(44.43, 24.37, "Slatina", "OT"),
      w(44.37, 24.05, "Balș", "OT"),
      w(44.3302, 23.7949, "Craiova", "DJ"),
    ],
  },
  clujSibiu: {
    ref: "DN1/A10",
    points: [
      w(46.7712, 23.6236, "Cluj-Napoca", "CJ"),
      w(46.567, 23.785, "Turda", "CJ"),
      w(46.31, 23.72, "Aiud", "AB"),
      w(46.067, 23.58, "Alba Iulia", "AB"),
      w(45.958, 23.568, "Sebeș", "AB"),
      w(45.88, 23.7),
      w(45.82, 23.9),
      w(45.7983, 24.1256, "Sibiu", "SB"),
    ],
  },
  clujOradea: {
    ref: "DN1/E60",
    points: [
      w(46.7712, 23.6236, "Cluj-Napoca", "CJ"),
      w(46.8, 23.35, "Gilău", "CJ"),
      w(46.87, 23.04, "Huedin", "CJ"),
      w(46.957, 22.82, "Ciucea", "CJ"),
      w(47.06, 22.4, "Aleșd", "BH"),
      w(47.0465, 21.9189, "Oradea", "BH"),
    ],
  },
  brasovSibiu: {
    ref: "DN1",
    points: [
      w(45.6427, 25.5887, "Brașov", "BV"),
      w(45.695, 25.445, "Codlea", "BV"),
      w(45.78, 25.2),
      w(45.842, 24.974, "Făgăraș", "BV"),
      w(45.77, 24.65),
      w(45.725, 24.38, "Avrig", "SB"),
      w(45.7983, 24.1256, "Sibiu", "SB"),
    ],
  },
  timisoaraSibiu: {
    ref: "A1",
    points: [
      w(45.7489, 21.2087, "Timișoara", "TM"),
      w(45.72, 21.55),
      w(45.6886, 21.9031, "Lugoj", "TM"),
      w(45.85, 22.18, "Făget", "TM"),
      w(45.93, 22.65, "Ilia", "HD"),
      w(45.883, 22.9, "Deva", "HD"),
      w(45.84, 23.2, "Orăștie", "HD"),
      w(45.958, 23.568, "Sebeș", "AB"),
      w(45.88, 23.7),
      w(45.7983, 24.1256, "Sibiu", "SB"),
    ],
  },
  timisoaraArad: {
    ref: "A1/DN69",
    points: [
      w(45.7489, 21.2087, "Timișoara", "TM"),
      w(45.87, 21.25, "Giarmata", "TM"),
      w(46.03, 21.29, "Vinga", "AR"),
      w(46.1866, 21.3123, "Arad", "AR"),
    ],
  },
  iasiSuceava: {
    ref: "E58/E85",
    points: [
      w(47.1585, 27.6014, "Iași", "IS"),
      w(47.19, 27.3),
      w(47.21, 27.01, "Târgu Frumos", "IS"),
      w(47.247, 26.722, "Pașcani", "IS"),
      w(47.46, 26.3, "Fălticeni", "SV"),
      w(47.6514, 26.2556, "Suceava", "SV"),
    ],
  },
  iasiBacau: {
    ref: "E583/E85",
    points: [
      w(47.1585, 27.6014, "Iași", "IS"),
      w(47.21, 27.01, "Târgu Frumos", "IS"),
      w(46.921, 26.926, "Roman", "NT"),
      w(46.75, 26.93),
      w(46.567, 26.914, "Bacău", "BC"),
    ],
  },
  // The roads below are in no depot's list: only transport routes use them (they link the
  // Moldavian network to București, and Arad to Hungary through the Nădlac II border crossing).
  bacauFocsani: {
    ref: "E85",
    points: [
      w(46.567, 26.914, "Bacău", "BC"),
      w(46.35, 27.0),
      w(46.1, 27.17, "Adjud", "VN"),
      w(45.87, 27.23, "Mărășești", "VN"),
      w(45.696, 27.184, "Focșani", "VN"),
    ],
  },
  aradBudapesta: {
    ref: "A1/M43/M5",
    points: [
      w(46.1866, 21.3123, "Arad", "AR"),
      w(46.17, 21.07, "Pecica", "AR"),
      w(46.168, 20.78, "Nădlac", "AR"),
      w(46.17, 20.73, "Nădlac II", "AR"),
      x(46.19, 20.68),
      x(46.21, 20.48, "Makó"),
      x(46.253, 20.1484, "Szeged"),
      x(46.62, 19.86),
      x(46.9062, 19.6913, "Kecskemét"),
      x(47.2, 19.35),
      x(47.4979, 19.0402, "Budapesta"),
    ],
  },
};

export type RoadName = keyof typeof ROADS;

export interface Depot {
  town: string;
  county: string;
  /** Hotspot name defined in the platform for the depot. */
  hotSpot: string;
  address: string;
  /** Where the vehicles park: the first waypoint of each of its roads (a test holds them equal). */
  latitude: number;
  longitude: number;
  roads: readonly string[];
}

export const DEPOTS: readonly Depot[] = [
  {
    town: "București",
    county: "B",
    hotSpot: "Depou București Militari",
    address: "Bd. Iuliu Maniu 600, Sector 6, București",
    latitude: 44.4326,
    longitude: 25.9723,
    roads: [
      "bucurestiSibiu",
      "bucurestiConstanta",
      "bucurestiBrasov",
      "bucurestiFocsani",
      "bucurestiCraiova",
    ],
  },
  {
    town: "Cluj-Napoca",
    county: "CJ",
    hotSpot: "Depou Cluj Tetarom",
    address: "Str. Tăietura Turcului 47, Cluj-Napoca",
    latitude: 46.7712,
    longitude: 23.6236,
    roads: ["clujSibiu", "clujOradea"],
  },
  {
    town: "Brașov",
    county: "BV",
    hotSpot: "Depou Brașov Bartolomeu",
    address: "Str. Zizinului 110, Brașov",
    latitude: 45.6427,
    longitude: 25.5887,
    roads: ["brasovSibiu"],
  },
  {
    town: "Timișoara",
    county: "TM",
    hotSpot: "Depou Timișoara Calea Aradului",
    address: "Calea Aradului 92, Timișoara",
    latitude: 45.7489,
    longitude: 21.2087,
    roads: ["timisoaraSibiu", "timisoaraArad"],
  },
  {
    town: "Iași",
    county: "IS",
    hotSpot: "Depou Iași Păcurari",
    address: "Șos. Păcurari 138, Iași",
    latitude: 47.1585,
    longitude: 27.6014,
    roads: ["iasiSuceava", "iasiBacau"],
  },
];

/** A road with cumulative distances, for interpolation by kilometre. */
export interface MeasuredRoad {
  road: Road;
  /** km from the first waypoint to each waypoint. */
  km: readonly number[];
  lengthKm: number;
}

const EARTH_RADIUS_KM = 6371;

export function haversineKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(h));
}

export function bearingDegrees(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const y = Math.sin((b.lon - a.lon) * rad) * Math.cos(b.lat * rad);
  const x =
    Math.cos(a.lat * rad) * Math.sin(b.lat * rad) -
    Math.sin(a.lat * rad) * Math.cos(b.lat * rad) * Math.cos((b.lon - a.lon) * rad);
  return (Math.atan2(y, x) / rad + 360) % 360;
}

/** The point `km` away from `from` along the initial bearing `bearing` (degrees), on a sphere. */
export function destinationPoint(
  from: { lat: number; lon: number },
  bearing: number,
  km: number,
): { lat: number; lon: number } {
  const rad = Math.PI / 180;
  const angle = km / EARTH_RADIUS_KM;
  const lat1 = from.lat * rad;
  const theta = bearing * rad;
  const lat2 = Math.asin(
    Math.sin(lat1) * Math.cos(angle) + Math.cos(lat1) * Math.sin(angle) * Math.cos(theta),
  );
  const lon2 =
    from.lon * rad +
    Math.atan2(
      Math.sin(theta) * Math.sin(angle) * Math.cos(lat1),
      Math.cos(angle) - Math.sin(lat1) * Math.sin(lat2),
    );
  return { lat: lat2 / rad, lon: ((lon2 / rad + 540) % 360) - 180 };
}

/** Real roads wind: measured straight-line lengths are stretched by this factor. */
const ROAD_WINDING = 1.15;

const measured = new Map<string, MeasuredRoad>();

export function measureRoad(name: string): MeasuredRoad {
  const cached = measured.get(name);
  if (cached) return cached;
  const road = ROADS[name];
  if (!road) throw new Error(`unknown road ${name}`);
  const result = measurePolyline(road);
  measured.set(name, result);
  return result;
}

/**
 * Makes a composed road (a transport's route) known to measureRoad under `name`, so drives
 * along it are read like drives along a named road. Names are derived from the route's ends,
 * so registering twice is harmless.
 */
export function registerRoad(name: string, road: Road): MeasuredRoad {
  const cached = measured.get(name);
  if (cached) return cached;
  const result = measurePolyline(road);
  measured.set(name, result);
  return result;
}

function measurePolyline(road: Road): MeasuredRoad {
  const km: number[] = [0];
  for (let i = 1; i < road.points.length; i++) {
    const prev = road.points[i - 1]!;
    const cur = road.points[i]!;
    km.push(km[i - 1]! + haversineKm(prev, cur) * ROAD_WINDING);
  }
  return { road, km, lengthKm: km[km.length - 1]! };
}

export interface RoadPosition {
  lat: number;
  lon: number;
  /** Direction of travel when driving towards higher km. */
  course: number;
  /** Outside Romania: past the last Romanian waypoint towards a foreign one. */
  abroad: boolean;
}

/** Position at a kilometre along the road. */
export function positionAtKm(road: MeasuredRoad, atKm: number): RoadPosition {
  const km = road.km;
  const clamped = Math.max(0, Math.min(road.lengthKm, atKm));
  let lo = 0;
  let hi = km.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (km[mid]! <= clamped) lo = mid;
    else hi = mid;
  }
  const a = road.road.points[lo]!;
  const b = road.road.points[hi]!;
  const span = km[hi]! - km[lo]!;
  const f = span > 0 ? (clamped - km[lo]!) / span : 0;
  // The border lies at the Romanian waypoint next to a foreign one (Nădlac II).
  const abroad =
    (a.abroad === true && (b.abroad === true || f < 1)) ||
    (b.abroad === true && (a.abroad === true || f > 0));
  return {
    lat: a.lat + (b.lat - a.lat) * f,
    lon: a.lon + (b.lon - a.lon) * f,
    course: bearingDegrees(a, b),
    abroad,
  };
}

/** The nearest town on the road to a kilometre, for "near X" addresses. */
export function nearestTown(road: MeasuredRoad, atKm: number): Waypoint & { town: string } {
  let best: (Waypoint & { town: string }) | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  road.road.points.forEach((point, i) => {
    if (point.town === undefined) return;
    const d = Math.abs(road.km[i]! - atKm);
    if (d < bestDistance) {
      bestDistance = d;
      best = { ...point, town: point.town };
    }
  });
  if (!best) throw new Error(`road ${road.road.ref} has no towns`);
  return best;
}
