/** Refuelling and possible fuel theft events of one vehicle, with the service's totals. */
import { isKnownRefillEventKind, type RefillEvent } from "../../platform/fleet/schemas.js";
import { round } from "./format.js";
import { refillsWithoutPrivatePlaces } from "./privacy.js";
import type { ReportPeriod, ReportVehicle } from "./types.js";

export type { RefillItem, RefillsReport, RefillTotals } from "./records.js";

import type { RefillItem, RefillsReport, RefillTotals } from "./records.js";

const SUFFIX = "SecondarySource";

type TotalKey = keyof RefillTotals;
const TOTAL_KINDS: Record<string, TotalKey> = {
  FuelStart: "start",
  TotalRefill: "refilled",
  TotalPossibleTheft: "possibleTheft",
  RemainingFuel: "remaining",
  TotalFuelConsumption: "consumed",
};

/**
 * Events of several consecutive period spans may be concatenated (FleetSession.refillsAll
 * asks per 31-day span): then FuelStart is the first span's, RemainingFuel the last span's,
 * and TotalRefill / TotalPossibleTheft / TotalFuelConsumption are the sums of the spans'
 * totals. With one span this is exactly what the service said.
 */
function addTotal(totals: RefillTotals, key: TotalKey, value: number | undefined): void {
  if (value === undefined) return;
  if (key === "start") totals.start ??= value;
  else if (key === "remaining") totals.remaining = value;
  else totals[key] = round((totals[key] ?? 0) + value, 2);
}

export function refillsReport(
  events: RefillEvent[],
  vehicle: ReportVehicle,
  period: ReportPeriod,
): RefillsReport {
  const items: RefillItem[] = [];
  const primary: RefillTotals = {};
  const secondary: RefillTotals = {};
  let sawSecondary = false;
  for (const e of events) {
    const kind = String(e.event).trim();
    const isSecondary = kind.endsWith(SUFFIX);
    const base = isSecondary ? kind.slice(0, -SUFFIX.length) : kind;
    const totalKey = TOTAL_KINDS[base];
    if (isSecondary) sawSecondary = true;
    if (totalKey && isKnownRefillEventKind(kind)) {
      addTotal(isSecondary ? secondary : primary, totalKey, e.estimation);
      continue;
    }
    const item: RefillItem = {
      dateText: e.dateText,
      kind,
      location: e.location?.trim() ?? "",
      isPrivate: e.isPrivate ?? false,
      secondary: isSecondary,
      theft: /theft/i.test(base),
    };
    if (e.date) item.atMs = e.date.getTime();
    if (e.estimation !== undefined) item.litres = e.estimation;
    if (!isKnownRefillEventKind(kind)) item.unknownKind = true;
    items.push(item);
  }
  const report: RefillsReport = {
    vehicle,
    period,
    events: items,
    totals: { primary },
    refillCount: items.filter((i) => !i.theft && !i.unknownKind).length,
    theftCount: items.filter((i) => i.theft).length,
  };
  if (sawSecondary) report.totals.secondary = secondary;
  // A private refuelling, and every one of a vehicle in private mode, without its place.
  return refillsWithoutPrivatePlaces(report);
}
