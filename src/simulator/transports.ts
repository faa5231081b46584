/**
 * e-Transport transports: the demo set, the life cycle and the transmission status drift.
 *
 * Life cycle (statusId): Pending(1) --start--> In Progress(2) --pause--> Paused(6)
 * --start--> In Progress; In Progress | Paused --end--> Completed(3); validity end passed
 * while 1, 2 or 6 --> Auto Completed(4) (evaluated lazily against the sim clock). Completed
 * and Auto Completed refuse every change. Error(5) holds transports the platform rejected;
 * they are never listed.
 */
import type { SimVehicle } from "./fleet.js";
import { guid, hash32, Rng, unit } from "./random.js";
import { HOUR, MINUTE } from "./time.js";

export const STATUS = {
  Pending: 1,
  InProgress: 2,
  Completed: 3,
  AutoCompleted: 4,
  Error: 5,
  Paused: 6,
} as const;

export type StatusId = (typeof STATUS)[keyof typeof STATUS];

export const STATUS_NAMES: Readonly<Record<number, string>> = {
  1: "Pending",
  2: "InProgress",
  3: "Completed",
  4: "AutoCompleted",
  5: "Error",
  6: "Paused",
};

export const TRANSMISSION_CODES = [
  "Active",
  "Finalized",
  "NotInRomania",
  "NotStarted",
  "Error",
  "MissingETransportConfiguration",
  "OldData",
  "NoGPSCoordinates",
  "WithoutTransmission",
] as const;
export type TransmissionCode = (typeof TRANSMISSION_CODES)[number];

export const CHANGE_REQUEST_CODES = [
  "RequestCreated",
  "RequestSent",
  "RequestErrorSent",
  "ResponseSuccess",
  "ResponseError",
] as const;
export type ChangeRequestCode = (typeof CHANGE_REQUEST_CODES)[number];

export interface ChangeRequest {
  message: string;
  statusCode: ChangeRequestCode;
  createdAt: number;
  date: number | null;
  authorityStatus: string | null;
  authorityMessage: string | null;
  authorityDate: number | null;
  /** A request made through update-transport advances by itself: sent after 1 min, answered after 5. */
  advances: boolean;
}

export interface TransportRecord {
  uId: string;
  codeUit: string;
  vehicleUId: string;
  carrierCode: string;
  carrierName: string;
  trailer1Code: string | null;
  trailer2Code: string | null;
  vatNumber: string;
  statusId: StatusId;
  startDate: number | null;
  endDate: number | null;
  validityStartDate: number;
  validityEndDate: number;
  notes: string | null;
  startLocation: string | null;
  endLocation: string | null;
  externalId: number;
  externalResponse: string | null;
  lastSyncDate: number;
  /** Set when paused; the time transmission stopped. */
  pausedAt: number | null;
  /** Every pause so far (the vehicle stands still meanwhile); the last may be open. */
  halts: Array<{ start: number; end: number | null }>;
  /** A transmission problem that stays until cleared (demo transports with a bad code). */
  pinnedTransmission: { code: TransmissionCode; description: string | null; since: number } | null;
  changeRequest: ChangeRequest | null;
  createdAt: number;
}

/** Fields the control endpoint can force; they win over drift until cleared. */
export interface TransportOverride {
  transmissionStatusCode?: TransmissionCode;
  changeRequestStatusCode?: ChangeRequestCode;
  lastGpsDate?: number;
  lastTransmissionDate?: number;
}

export interface TransmissionView {
  code: TransmissionCode;
  description: string | null;
  lastTransmissionDate: number | null;
  lastGpsDate: number | null;
}

/**
 * Drift: a believable rate of transmission faults. Each transport may start one episode an
 * hour (10 %), lasting 8–30 min, so a handful of running transports shows a fault every hour
 * or two, and each recovers. NotInRomania is not drift: it follows the vehicle's position.
 */
const DRIFT_WINDOW = HOUR;
const DRIFT_CHANCE = 0.1;
const DRIFT_MINUTES: readonly [number, number] = [8, 30];
/** Weighted: GPS gaps and stale data are the common faults, platform errors the rare ones. */
const DRIFT_CODES: readonly TransmissionCode[] = [
  "NoGPSCoordinates",
  "NoGPSCoordinates",
  "OldData",
  "OldData",
  "WithoutTransmission",
  "Error",
];
/** No drift episode starts within this long of the simulator's start (a fresh sandbox is calm). */
export const QUIET_START = 15 * MINUTE;
const DRIFT_DESCRIPTIONS: Readonly<Partial<Record<TransmissionCode, string>>> = {
  Error: "Platforma e-Transport nu a confirmat pozițiile transmise",
  NoGPSCoordinates: "Echipamentul GPS nu raportează coordonate",
  OldData: "Ultimele date GPS sunt mai vechi de 6 ore",
  NotInRomania: "Vehiculul se află în afara teritoriului României",
  WithoutTransmission: "Nu există transmisie GPS activă",
};

/**
 * Transmission problem of an In Progress transport at an instant, if any: each hour starts
 * an episode with probability 10 %, lasting 8–30 minutes; episodes that would begin before
 * `notBefore` (the transport's start, or the end of the simulator's quiet start) are skipped.
 * Pure in (seed, uId, time, notBefore).
 */
export function driftEpisode(
  seed: number,
  uId: string,
  at: number,
  notBefore = Number.NEGATIVE_INFINITY,
): { code: TransmissionCode; since: number } | undefined {
  const window = Math.floor(at / DRIFT_WINDOW);
  const [shortest, longest] = DRIFT_MINUTES;
  for (let w = window; w >= window - 1; w--) {
    if (unit("drift", seed, uId, w) >= DRIFT_CHANCE) continue;
    const since = w * DRIFT_WINDOW + Math.floor(unit("drift-start", seed, uId, w) * DRIFT_WINDOW);
    const minutes = shortest + Math.floor(unit("drift-length", seed, uId, w) * (longest - shortest + 1));
    const until = since + minutes * MINUTE;
    if (since >= notBefore && since <= at && at < until) {
      const code = DRIFT_CODES[hash32("drift-code", seed, uId, w) % DRIFT_CODES.length]!;
      return { code, since };
    }
  }
  return undefined;
}

/** What the service knows beyond the record (absent: no quiet start, vehicle in Romania). */
export interface TransmissionContext {
  /** The simulator's start: drift stays quiet for QUIET_START after it. */
  startedAt?: number;
  /** Since when the transport's vehicle is outside Romania, if it is at `now`. */
  abroadSince?: number | undefined;
}

/**
 * Transmission status, description and last dates of a transport as seen at `now`. The
 * service's own answer is `sim.control.transmission(codeUit)`; this pure form is for tools.
 */
export function transmissionAt(
  t: TransportRecord,
  now: number,
  seed: number,
  drift: boolean,
  override: TransportOverride | undefined,
  context: TransmissionContext = {},
): TransmissionView {
  const sentAt = now - (now % (2 * MINUTE));
  const gpsAt = now - (now % MINUTE) - (hash32("gps", t.uId, Math.floor(now / MINUTE)) % 40) * 1000;
  let view: TransmissionView;
  switch (t.statusId) {
    case STATUS.Pending:
      view = { code: "NotStarted", description: null, lastTransmissionDate: null, lastGpsDate: null };
      break;
    case STATUS.Paused:
      view = {
        code: "WithoutTransmission",
        description: null,
        lastTransmissionDate: t.pausedAt,
        lastGpsDate: gpsAt,
      };
      break;
    case STATUS.Completed:
    case STATUS.AutoCompleted:
      view = {
        code: "Finalized",
        description: null,
        lastTransmissionDate: t.endDate,
        lastGpsDate: t.endDate,
      };
      break;
    case STATUS.Error:
      view = {
        code: "Error",
        description: t.externalResponse,
        lastTransmissionDate: null,
        lastGpsDate: null,
      };
      break;
    default: {
      const notBefore = Math.max(
        context.startedAt === undefined ? Number.NEGATIVE_INFINITY : context.startedAt + QUIET_START,
        t.startDate ?? Number.NEGATIVE_INFINITY,
      );
      const abroad: { code: TransmissionCode; since: number } | undefined =
        context.abroadSince === undefined ? undefined : { code: "NotInRomania", since: context.abroadSince };
      const problem =
        t.pinnedTransmission ?? abroad ?? (drift ? driftEpisode(seed, t.uId, now, notBefore) : undefined);
      view = problem
        ? problemView(problem.code, problem.since, gpsAt)
        : { code: "Active", description: null, lastTransmissionDate: sentAt, lastGpsDate: gpsAt };
      if (t.pinnedTransmission?.description) view.description = t.pinnedTransmission.description;
    }
  }
  if (override?.transmissionStatusCode) {
    view = { ...view, code: override.transmissionStatusCode };
    view.description = DRIFT_DESCRIPTIONS[override.transmissionStatusCode] ?? null;
  }
  if (override?.lastGpsDate !== undefined) view = { ...view, lastGpsDate: override.lastGpsDate };
  if (override?.lastTransmissionDate !== undefined)
    view = { ...view, lastTransmissionDate: override.lastTransmissionDate };
  return view;
}

function problemView(code: TransmissionCode, since: number, gpsAt: number): TransmissionView {
  const description = DRIFT_DESCRIPTIONS[code] ?? null;
  switch (code) {
    case "NoGPSCoordinates":
    case "WithoutTransmission":
      return { code, description, lastTransmissionDate: since, lastGpsDate: since };
    case "OldData":
      return { code, description, lastTransmissionDate: since, lastGpsDate: since - 6 * HOUR - 10 * MINUTE };
    default:
      return { code, description, lastTransmissionDate: since, lastGpsDate: Math.max(since, gpsAt) };
  }
}

/** Pending, In Progress or Paused transports whose UIT validity has ended become Auto Completed. */
export function settleExpiry(t: TransportRecord, now: number): void {
  const open =
    t.statusId === STATUS.Pending || t.statusId === STATUS.InProgress || t.statusId === STATUS.Paused;
  if (open && t.validityEndDate <= now) {
    t.statusId = STATUS.AutoCompleted;
    t.endDate = t.validityEndDate;
    t.pinnedTransmission = null;
    closeHalt(t, t.validityEndDate);
  }
}

/** Ends the open pause of a transport, if any (resumed, ended or expired at `at`). */
export function closeHalt(t: TransportRecord, at: number): void {
  const last = t.halts[t.halts.length - 1];
  if (last && last.end === null) last.end = Math.max(last.start, at);
}

/** A change request made by update-transport is sent after a minute and answered after five. */
export function settleChangeRequest(t: TransportRecord, now: number): void {
  const cr = t.changeRequest;
  if (!cr?.advances) return;
  if (cr.statusCode === "RequestCreated" && now >= cr.createdAt + MINUTE) {
    cr.statusCode = "RequestSent";
    cr.date = cr.createdAt + MINUTE;
    cr.message = "Cererea de modificare a fost trimisă";
  }
  if (cr.statusCode === "RequestSent" && now >= cr.createdAt + 5 * MINUTE) {
    cr.statusCode = "ResponseSuccess";
    cr.authorityStatus = "OK";
    cr.authorityMessage = "Modificare procesată cu succes";
    cr.authorityDate = cr.createdAt + 5 * MINUTE;
    cr.advances = false;
  }
}

const UIT_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

export function uitCode(rng: Rng): string {
  return Array.from({ length: 16 }, () => rng.pick([...UIT_CHARS])).join("");
}

/** UIT codes the simulator accepts as issued by the platform: 16 uppercase letters or digits. */
export function looksLikeUit(code: string): boolean {
  return /^[A-Z0-9]{16}$/.test(code);
}

const PLACES = [
  "București, Depou Militari",
  "Constanța, Port Constanța Sud Agigea",
  "Pitești, Str. Depozitelor 14",
  "Sibiu, Zona Industrială Vest",
  "Brașov, Str. Zizinului 110",
  "Ploiești, DN1 km 58",
  "Cluj-Napoca, Tetarom I",
  "Timișoara, Calea Aradului 92",
  "Iași, Șos. Păcurari 138",
  "Craiova, Str. Caracal 175",
  "Arad, Zona Industrială Sud",
  "Nădlac II, punct de trecere a frontierei",
  "Budapesta, Ungaria, Depozit Soroksár",
];
const GOODS = [
  "Fructe și legume proaspete, 18 t",
  "Produse lactate refrigerate",
  "Materiale de construcții, 22 paleți",
  "Băuturi alcoolice, 24 t",
  "Carne congelată, 12 t",
  "Îmbrăcăminte și încălțăminte",
  "Ulei comestibil, 20 t",
  "Zahăr, 24 t",
];

interface DemoSpec {
  vehicleIndex: number;
  statusId: StatusId;
  /** Hours relative to the simulator's start. */
  validityFrom: number;
  validityTo: number;
  startedAt?: number;
  endedAt?: number;
  pausedAt?: number;
  pinned?: { code: TransmissionCode; description: string };
  changeRequest?: Omit<ChangeRequest, "createdAt" | "date" | "authorityDate" | "advances"> & {
    atHours: number;
  };
  trailer?: boolean;
  externalResponse?: string;
  from: number;
  to: number;
  goods: number;
}

/** The hand-made demo transports; hours are relative to the simulator's start. */
const DEMO: readonly DemoSpec[] = [
  { vehicleIndex: 4, statusId: 1, validityFrom: -1, validityTo: 5 * 24, from: 0, to: 1, goods: 2 },
  {
    vehicleIndex: 5,
    statusId: 2,
    validityFrom: -20,
    validityTo: 4 * 24,
    startedAt: -1.5,
    from: 0,
    to: 3,
    goods: 0,
  },
  {
    vehicleIndex: 12,
    statusId: 2,
    validityFrom: -4,
    validityTo: 5 * 24,
    startedAt: -3,
    from: 5,
    to: 6,
    goods: 6,
  },
  {
    vehicleIndex: 6,
    statusId: 2,
    validityFrom: -30,
    validityTo: 3 * 24,
    startedAt: -1,
    pinned: { code: "Error", description: "Numărul de înmatriculare nu corespunde cu cel declarat în UIT" },
    from: 2,
    to: 0,
    goods: 3,
  },
  {
    vehicleIndex: 0,
    statusId: 2,
    validityFrom: -4 * 24,
    validityTo: 8,
    startedAt: -2,
    from: 0,
    to: 9,
    goods: 1,
    trailer: true,
  },
  {
    vehicleIndex: 7,
    statusId: 6,
    validityFrom: -10,
    validityTo: 4 * 24,
    startedAt: -3,
    pausedAt: -2,
    from: 7,
    to: 3,
    goods: 5,
  },
  {
    vehicleIndex: 8,
    statusId: 3,
    validityFrom: -3 * 24,
    validityTo: 2 * 24,
    startedAt: -3 * 24 + 2,
    endedAt: -24,
    from: 0,
    to: 7,
    goods: 7,
    changeRequest: {
      atHours: -40,
      message: "Cererea de modificare a fost trimisă",
      statusCode: "ResponseSuccess",
      authorityStatus: "OK",
      authorityMessage: "Modificare procesată cu succes",
    },
  },
  {
    vehicleIndex: 13,
    statusId: 4,
    validityFrom: -7 * 24,
    validityTo: -2 * 24,
    startedAt: -7 * 24 + 3,
    from: 6,
    to: 10,
    goods: 4,
  },
  {
    vehicleIndex: 9,
    statusId: 2,
    validityFrom: -12,
    validityTo: 4 * 24,
    startedAt: -1,
    from: 0,
    to: 4,
    goods: 2,
    trailer: true,
    changeRequest: {
      atHours: -3,
      message: "Cererea de modificare a fost trimisă",
      statusCode: "ResponseError",
      authorityStatus: "ERROR",
      authorityMessage: "Numărul de înmatriculare indicat nu este valid pentru acest UIT",
    },
  },
  {
    vehicleIndex: 10,
    statusId: 1,
    validityFrom: 20,
    validityTo: 20 + 5 * 24,
    from: 8,
    to: 9,
    goods: 7,
    trailer: true,
  },
  {
    vehicleIndex: 11,
    statusId: 5,
    validityFrom: -2,
    validityTo: 5 * 24,
    from: 0,
    to: 2,
    goods: 0,
    externalResponse: "UIT respins: codul nu există în sistemul RO e-Transport",
  },
  {
    vehicleIndex: 14,
    statusId: 2,
    validityFrom: -2 * 24,
    validityTo: 13 * 24,
    // Timișoara → Budapesta: across the border at Nădlac II about 1.5 h after the start.
    startedAt: -3,
    from: 7,
    to: 12,
    goods: 5,
  },
];

function trailerPlate(rng: Rng, county: string): string {
  const letters = "ABCDEFGHJKLMNPRSTUVWXYZ";
  return `${county}-${String(rng.int(10, 99))}-${Array.from({ length: 3 }, () => rng.pick([...letters])).join("")}`;
}

function fromSpec(
  seed: number,
  index: number,
  spec: DemoSpec,
  vehicle: SimVehicle,
  t0: number,
): TransportRecord {
  const rng = new Rng("transport", seed, index);
  const h = (hours: number) => t0 + Math.round(hours * HOUR);
  const cr = spec.changeRequest;
  return {
    uId: guid("transport", seed, index),
    codeUit: uitCode(rng),
    vehicleUId: vehicle.vehicleUId,
    carrierCode: vehicle.plate,
    carrierName: vehicle.name,
    trailer1Code: spec.trailer ? trailerPlate(rng, vehicle.depot.county) : null,
    trailer2Code: null,
    vatNumber: "RO16341004",
    statusId: spec.statusId,
    startDate: spec.startedAt === undefined ? null : h(spec.startedAt),
    endDate:
      spec.endedAt === undefined
        ? spec.statusId === STATUS.AutoCompleted
          ? h(spec.validityTo)
          : null
        : h(spec.endedAt),
    validityStartDate: h(spec.validityFrom),
    validityEndDate: h(spec.validityTo),
    notes: GOODS[spec.goods % GOODS.length] ?? null,
    startLocation: PLACES[spec.from % PLACES.length] ?? null,
    endLocation: PLACES[spec.to % PLACES.length] ?? null,
    externalId: 4_100_000 + (hash32("external", seed, index) % 900_000),
    externalResponse: spec.externalResponse ?? "Transport înregistrat cu succes",
    lastSyncDate: Math.min(h(spec.validityFrom), h(-1)) + 2 * MINUTE,
    pausedAt: spec.pausedAt === undefined ? null : h(spec.pausedAt),
    halts: spec.pausedAt === undefined ? [] : [{ start: h(spec.pausedAt), end: null }],
    pinnedTransmission: spec.pinned ? { ...spec.pinned, since: h(-1.5) } : null,
    changeRequest: cr
      ? {
          message: cr.message,
          statusCode: cr.statusCode,
          createdAt: h(cr.atHours),
          date: h(cr.atHours) + MINUTE,
          authorityStatus: cr.authorityStatus,
          authorityMessage: cr.authorityMessage,
          authorityDate: h(cr.atHours) + 6 * MINUTE,
          advances: false,
        }
      : null,
    // A UIT may be requested days ahead; it reached the service before the simulator started.
    createdAt: Math.min(h(spec.validityFrom), h(-1)),
  };
}

/** A UIT whose validity ends sooner than this after the start would raise an expiry alert (12 h lead). */
const CALM_VALIDITY_HOURS = 30;

/**
 * A demo transport without its problem: transmission fine, its change request answered OK, its
 * validity ending a day and more away. What is expected stays (a vehicle abroad on an
 * international route, an informational alert at most).
 */
function calmSpec(spec: DemoSpec): DemoSpec {
  const { pinned: _pinned, ...calm } = spec;
  if (calm.changeRequest && calm.changeRequest.statusCode !== "ResponseSuccess") {
    calm.changeRequest = {
      ...calm.changeRequest,
      statusCode: "ResponseSuccess",
      authorityStatus: "OK",
      authorityMessage: "Modificare procesată cu succes",
    };
  }
  if (calm.validityTo > 0 && calm.validityTo < CALM_VALIDITY_HOURS) calm.validityTo = CALM_VALIDITY_HOURS;
  return calm;
}

/**
 * Demo transports plus `extra` generated ones, all relative to the simulator's start t0.
 * `problems: false` starts the demo ones calm (calmSpec).
 */
export function initialTransports(
  seed: number,
  fleet: readonly SimVehicle[],
  t0: number,
  extra: number,
  demo: { problems?: boolean } = {},
): TransportRecord[] {
  const specs = demo.problems === false ? DEMO.map(calmSpec) : DEMO;
  const records = specs.map((spec, i) =>
    fromSpec(seed, i, spec, fleet[spec.vehicleIndex % fleet.length]!, t0),
  );
  const statuses: StatusId[] = [1, 1, 1, 2, 2, 2, 2, 3, 3, 4, 6, 5];
  for (let i = 0; i < extra; i++) {
    const rng = new Rng("extra-transport", seed, i);
    const statusId = rng.pick(statuses);
    const validityFrom = statusId === STATUS.AutoCompleted ? -rng.int(6, 20) * 24 : -rng.int(1, 72);
    const validityTo = statusId === STATUS.AutoCompleted ? validityFrom + 5 * 24 : rng.int(12, 14 * 24);
    const spec: DemoSpec = {
      vehicleIndex: rng.int(0, fleet.length - 1),
      statusId,
      validityFrom,
      validityTo,
      ...(statusId === STATUS.InProgress || statusId === STATUS.Paused || statusId === STATUS.Completed
        ? { startedAt: validityFrom + 1 }
        : {}),
      ...(statusId === STATUS.Completed ? { endedAt: Math.min(-1, validityFrom + 20) } : {}),
      ...(statusId === STATUS.Paused ? { pausedAt: -1 } : {}),
      ...(statusId === STATUS.Error ? { externalResponse: "UIT respins de platformă" } : {}),
      trailer: rng.chance(0.5),
      from: rng.int(0, PLACES.length - 1),
      to: rng.int(0, PLACES.length - 1),
      goods: rng.int(0, GOODS.length - 1),
    };
    records.push(fromSpec(seed, 1000 + i, spec, fleet[spec.vehicleIndex]!, t0));
  }
  return records;
}
