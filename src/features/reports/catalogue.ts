/**
 * The vehicle reports, one entry each: what the command grammar, the help, the report
 * modal, the task handler and the renderer read (the help's words are the `help` section of
 * src/i18n, keyed by report name). Adding a report = one entry here, one
 * builder in src/features/reports, one view (src/features/reports/slack/views/, in REPORT_VIEWS) and its help
 * line (src/i18n/{en,ro}/help.ts, its example in `helpExample`), and its title and
 * modal label (src/i18n/{en,ro}/reports.ts, `title` and `modalLabel`).
 * No Slack and no words here: the Slack side (modal label, view) is keyed by the same names.
 */
import type { Language } from "../../i18n/language.js";
import type { FleetClient, FleetSession } from "../../platform/fleet/client.js";
import type { Vehicle } from "../../platform/fleet/schemas.js";
import type { CallContext, Priority } from "../../platform/fleet/seam.js";
import type { SplittableEndpoint } from "../../platform/fleet/split.js";
import type { VehicleLike, VehicleResolution } from "../../platform/vehicles/vehicleRefs.js";
import { fuelReport } from "./fuel.js";
import { positionReport, vehicleListReport } from "./positions.js";
import { refillsReport } from "./refills.js";
import { routeReport } from "./route.js";
import { stopsReport } from "./stops.js";
import { temperatureReport } from "./temperatures.js";
import type { ReportPeriod, ReportVehicle } from "./types.js";

/** Shortest stop, in minutes, when none is given (`min=`). */
export const DEFAULT_MIN_MINUTES = 5;
export const MAX_MIN_MINUTES = 1440;

/** What one report run has: the resolved vehicles, the period, and the session to fetch with. */
export interface ReportRun {
  session: FleetSession;
  call: CallContext;
  /** Resolved vehicles in the order asked; for a `filter` report, every vehicle of the account. */
  vehicles: Vehicle[];
  /** Present for a report whose period is `required`. */
  period: ReportPeriod | undefined;
  filter: string | undefined;
  minMinutes: number;
  nowMs: number;
  /** Fleet calls done so far (after the vehicle list). */
  onProgress(done: number, total?: number): void;
}

export interface ReportEntry<N extends string, R> {
  name: N;
  /** Words users try for this report: suggested, never run silently. */
  synonyms: readonly string[];
  /**
   * Its Romanian words, written with diacritics: they run it like its name, whatever the language
   * setting, with or without diacritics (`ș`/`ş`, `ț`/`ţ` alike). The first is the help's.
   */
  romanian: readonly string[];
  /** More Romanian words that run it (as dispatchers say it), not listed in the help. */
  romanianAlso?: readonly string[];
  /** The shortest arguments that show its use (examples of error messages). */
  example: string;
  /** The arguments of its help line's example, per language where the period words differ. */
  helpExample: string | Readonly<Record<Language, string>>;
  /** `one`: exactly one vehicle, not `all`; `several`: a list or `all`; `filter`: every vehicle, filtered by text. */
  vehicles: "one" | "several" | "filter";
  /** `none`: a snapshot of now; `required`: a period (today when none is typed). */
  period: "none" | "required";
  /** Takes `min=<minutes>`, the shortest stop. */
  minStop: boolean;
  priority: Priority;
  /** The split endpoint the report pages through (the planner counts its calls); none = the vehicle list only. */
  endpoint: SplittableEndpoint | undefined;
  /** Fetches (through the gate) and builds the report: JSON-safe, stored with the task. */
  build(run: ReportRun): Promise<R>;
}

/** A built report tagged with its name, as stored with the task (the renderer narrows on `kind`). */
export interface TaggedReport<N extends string, R> {
  kind: N;
  report: R;
}

/** An entry, plus `run`: its build tagged with its name. */
export type CatalogueEntry<N extends string, R> = ReportEntry<N, R> & {
  run(run: ReportRun): Promise<TaggedReport<N, R>>;
};

const entry = <const N extends string, R>(e: ReportEntry<N, R>): CatalogueEntry<N, R> => ({
  ...e,
  run: async (run) => ({ kind: e.name, report: await e.build(run) }),
});

/** The ReportVehicle of a fleet vehicle, `#id` standing in for a missing plate. */
export function reportVehicle(vehicle: Vehicle): ReportVehicle {
  const report: ReportVehicle = {
    vehicleId: vehicle.vehicleId,
    plate: vehicle.vehicleRegistrationNumber ?? `#${vehicle.vehicleId}`,
    name: vehicle.vehicleName ?? "",
  };
  // Private mode (src/features/reports/privacy.ts): the builders drop the vehicle's places.
  if (vehicle.isPrivate === true) report.isPrivate = true;
  return report;
}

/** A fleet vehicle as the name resolver reads it, with the vehicle itself. */
export type ResolvableVehicle = ReportVehicle & { vehicleUId?: string; vehicle: Vehicle };

const resolvableByList = new WeakMap<readonly Vehicle[], ResolvableVehicle[]>();

/**
 * The vehicles of a list as the resolver reads them, made once per list: an account's cached
 * list is resolved against on every command (twice: the ack's check and the task's plan), and
 * mapping it each time was a fifth of an ack's own work with 200 commands at once. A list is
 * never changed in place (the cache replaces it whole), so the list itself is the key.
 */
export function resolvableVehicles(vehicles: readonly Vehicle[]): readonly ResolvableVehicle[] {
  let resolvable = resolvableByList.get(vehicles);
  if (!resolvable) {
    resolvable = vehicles.map((vehicle) => ({
      ...reportVehicle(vehicle),
      ...(vehicle.vehicleUId !== undefined ? { vehicleUId: vehicle.vehicleUId } : {}),
      vehicle,
    }));
    resolvableByList.set(vehicles, resolvable);
  }
  return resolvable;
}

function periodOf(name: string, run: ReportRun): ReportPeriod {
  if (!run.period) throw new Error(`The ${name} report needs a period`);
  return run.period;
}

function oneVehicle(name: string, run: ReportRun): Vehicle {
  const vehicle = run.vehicles[0];
  if (!vehicle) throw new Error(`The ${name} report needs a vehicle`);
  return vehicle;
}

/** The request of a split endpoint: vehicles and the period as instants. */
function request(ids: number[], period: ReportPeriod) {
  return { vehicleIds: ids, from: new Date(period.fromMs), to: new Date(period.toMs) };
}

const ids = (vehicles: readonly Vehicle[]) => vehicles.map((v) => v.vehicleId);

export const REPORT_CATALOGUE = {
  vehicles: entry({
    name: "vehicles",
    synonyms: ["list"],
    romanian: ["vehicule"],
    romanianAlso: ["mașini", "camioane"],
    example: "",
    helpExample: "volvo",
    vehicles: "filter",
    period: "none",
    minStop: false,
    priority: "interactive",
    endpoint: undefined,
    build: async (run) => vehicleListReport(run.vehicles, run.filter, run.nowMs),
  }),
  where: entry({
    name: "where",
    synonyms: ["position", "location", "locate"],
    romanian: ["unde"],
    romanianAlso: ["poziție", "localizare"],
    example: "B-123-ABC",
    helpExample: "B-123-ABC",
    vehicles: "one",
    period: "none",
    minStop: false,
    priority: "interactive",
    endpoint: undefined,
    build: async (run) => positionReport(oneVehicle("where", run), run.nowMs),
  }),
  route: entry({
    name: "route",
    synonyms: ["track", "way", "trip"],
    romanian: ["traseu"],
    example: "B-123-ABC yesterday",
    helpExample: { en: "B-123-ABC yesterday", ro: "B-123-ABC ieri" },
    vehicles: "one",
    period: "required",
    minStop: false,
    priority: "report",
    endpoint: "way",
    build: async (run) => {
      const period = periodOf("route", run);
      const vehicle = oneVehicle("route", run);
      // A vehicle in private mode has no route (privacy.ts): its private track is not even fetched.
      if (vehicle.isPrivate === true) return routeReport([], reportVehicle(vehicle), period);
      const points = await run.session.wayAll(request([vehicle.vehicleId], period), run.call, run.onProgress);
      return routeReport(points, reportVehicle(vehicle), period);
    },
  }),
  stops: entry({
    name: "stops",
    synonyms: ["stop"],
    romanian: ["opriri"],
    romanianAlso: ["staționări"],
    example: "B-123-ABC last 3d min=10",
    helpExample: {
      en: "B-123-ABC, CJ-07-XYZ last 3d min=10",
      ro: "B-123-ABC, CJ-07-XYZ ultimele 3 zile min=10",
    },
    vehicles: "several",
    period: "required",
    minStop: true,
    priority: "report",
    endpoint: "stops",
    build: async (run) => {
      const period = periodOf("stops", run);
      const stops = await run.session.stopsAll(
        { ...request(ids(run.vehicles), period), stationaryMarginMinutes: run.minMinutes },
        run.call,
        run.onProgress,
      );
      return stopsReport(stops, run.vehicles.map(reportVehicle), period, run.minMinutes);
    },
  }),
  fuel: entry({
    name: "fuel",
    synonyms: ["consumption"],
    romanian: ["combustibil", "consum"],
    example: "all last week",
    helpExample: { en: "all last week", ro: "toate săptămâna trecută" },
    vehicles: "several",
    period: "required",
    minStop: false,
    priority: "report",
    endpoint: "consumption",
    build: async (run) => {
      const period = periodOf("fuel", run);
      const records = await run.session.consumptionAll(
        request(ids(run.vehicles), period),
        run.call,
        run.onProgress,
      );
      return fuelReport(records, run.vehicles.map(reportVehicle), period);
    },
  }),
  refills: entry({
    name: "refills",
    synonyms: ["refuel", "refuels", "refueling", "refuelling", "theft"],
    romanian: ["alimentări"],
    example: "B-123-ABC last 7d",
    helpExample: { en: "B-123-ABC last 7d", ro: "B-123-ABC ultimele 7 zile" },
    vehicles: "one",
    period: "required",
    minStop: false,
    priority: "report",
    endpoint: "refills",
    build: async (run) => {
      const period = periodOf("refills", run);
      const vehicle = oneVehicle("refills", run);
      const events = await run.session.refillsAll(
        request([vehicle.vehicleId], period),
        run.call,
        run.onProgress,
      );
      return refillsReport(
        events.flatMap((e) => e.events),
        reportVehicle(vehicle),
        period,
      );
    },
  }),
  temps: entry({
    name: "temps",
    synonyms: ["temp", "temperature", "temperatures", "humidity"],
    romanian: ["temperaturi"],
    example: "B-123-ABC today",
    helpExample: { en: "#1234 last 12h", ro: "#1234 ultimele 12 ore" },
    vehicles: "several",
    period: "required",
    minStop: false,
    priority: "report",
    endpoint: "temperatures",
    build: async (run) => {
      const period = periodOf("temps", run);
      const readings = await run.session.temperaturesAll(
        request(ids(run.vehicles), period),
        run.call,
        run.onProgress,
      );
      return temperatureReport(readings, run.vehicles.map(reportVehicle), period);
    },
  }),
};

/** Each entry sits under its own name (the compiler checks the key against `name`). */
REPORT_CATALOGUE satisfies { [N in keyof typeof REPORT_CATALOGUE]: ReportEntry<N, unknown> };

type Catalogue = typeof REPORT_CATALOGUE;
export type VehicleReportName = keyof Catalogue;
export type AnyReportEntry = Catalogue[VehicleReportName];

/** Every report, in the order of the help and the report modal. */
export const REPORT_ENTRIES: readonly AnyReportEntry[] = Object.values(REPORT_CATALOGUE);
export const VEHICLE_REPORTS: readonly VehicleReportName[] = REPORT_ENTRIES.map((e) => e.name);

export function isVehicleReportName(word: string): word is VehicleReportName {
  return VEHICLE_REPORTS.some((name) => name === word);
}

/** What each report's builder returns, by name. */
export type ReportOf<N extends VehicleReportName> = Awaited<ReturnType<Catalogue[N]["build"]>>;

/**
 * Why a report found no vehicles to run on, as data (the Slack side writes it in the reader's
 * language): a reference that did not resolve (its candidates and suggestions slimmed to plate
 * and name), or `no-vehicle` when a one-vehicle report was given none. A string is the English
 * sentence a task stored before problems were data, shown as it is.
 */
export type StoredResolutionProblem =
  | Exclude<VehicleResolution<VehicleLike>, { kind: "found" | "all" }>
  | { kind: "no-vehicle" }
  | string;

/** A resolution problem to store: the vehicles it names slimmed to id, plate and name. */
export function storedResolutionProblem(
  r: Exclude<VehicleResolution<VehicleLike>, { kind: "found" | "all" }>,
): StoredResolutionProblem {
  const slim = (v: VehicleLike): VehicleLike => ({ vehicleId: v.vehicleId, plate: v.plate, name: v.name });
  switch (r.kind) {
    case "ambiguous":
      return { kind: "ambiguous", ref: r.ref, candidates: r.candidates.map(slim) };
    case "unknown":
      return { kind: "unknown", ref: r.ref, suggestions: r.suggestions.map(slim) };
    case "not-visible":
      return { kind: "not-visible", ref: r.ref, vehicleId: r.vehicleId };
  }
}

/** What a vehicle-report task leaves for the Slack side to render (JSON-safe: stored in SQLite). */
export type VehicleReportResult =
  | { kind: "resolution"; problems: StoredResolutionProblem[] }
  | Awaited<ReturnType<AnyReportEntry["run"]>>;

/** Fleet calls a report needs after the vehicle list, from its endpoint's split plan. */
export function plannedCalls(
  client: Pick<FleetClient, "plan">,
  report: AnyReportEntry,
  vehicleIds: readonly number[],
  period: { fromMs: number; toMs: number } | undefined,
): number {
  if (!report.endpoint || !period) return 0;
  return client.plan(report.endpoint, {
    vehicleIds: vehicleIds.length > 0 ? [...vehicleIds] : [0],
    from: new Date(period.fromMs),
    to: new Date(period.toMs),
  }).length;
}
