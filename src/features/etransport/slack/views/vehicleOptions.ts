/** The transport form's vehicle: its options as the user types (block_suggestion) and its initial option. */
import type { PlainTextOption } from "@slack/types";
import type { Language } from "../../../../i18n/language.js";
import { plain } from "../../../../platform/slack/views/blocks.js";
import type { TransportView } from "../../types.js";
import { cut } from "./transportText.js";
import { words } from "./words.js";

/** One of the account's vehicles, as the form offers it. */
export interface TransportModalVehicle {
  vehicleUId: string;
  plate: string;
  name: string;
}

function vehicleOptionText(v: { plate: string; name: string }, language: Language): string {
  const plate = v.plate.trim();
  const name = v.name.trim();
  const text =
    plate && name && name !== plate
      ? `${plate} — ${name}`
      : plate || name || words(language).unnamedVehicle();
  return cut(text, 75);
}

export function initialVehicleOption(
  initial: TransportView | undefined,
  vehicles: readonly TransportModalVehicle[] | undefined,
  language: Language,
): PlainTextOption | undefined {
  const uid = initial?.carrierUId;
  if (!uid || uid.length > 75) return undefined;
  const known = vehicles?.find((v) => v.vehicleUId === uid);
  const text = known
    ? vehicleOptionText(known, language)
    : vehicleOptionText({ plate: initial.carrierCode ?? "", name: initial.carrierName ?? "" }, language);
  return { text: plain(text), value: uid };
}

const fold = (text: string): string => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
const compactPlate = (text: string): string => fold(text).replace(/[\s\-–—_.]/g, "");

/**
 * Options for the vehicle external select: a query matches the plate ignoring case, spaces
 * and dashes, or the name ignoring case and diacritics. Plates starting with the query come
 * first; at most 100 options.
 */
export function vehicleOptions(
  query: string,
  vehicles: readonly TransportModalVehicle[],
  language: Language,
): { options: PlainTextOption[] } {
  const q = query.trim();
  const qPlate = compactPlate(q);
  const qName = fold(q).replace(/\s+/g, " ");
  const scored: { v: TransportModalVehicle; rank: number }[] = [];
  for (const v of vehicles) {
    if (v.vehicleUId.length === 0 || v.vehicleUId.length > 75) continue;
    const plate = compactPlate(v.plate);
    const name = fold(v.name).replace(/\s+/g, " ");
    let rank: number | undefined;
    if (q === "") rank = 2;
    else if (qPlate !== "" && plate.startsWith(qPlate)) rank = 0;
    else if (qPlate !== "" && plate.includes(qPlate)) rank = 1;
    else if (qName !== "" && name.includes(qName)) rank = 2;
    if (rank !== undefined) scored.push({ v, rank });
  }
  scored.sort(
    (a, b) =>
      a.rank - b.rank ||
      compactPlate(a.v.plate).localeCompare(compactPlate(b.v.plate), "en", { numeric: true }),
  );
  return {
    options: scored
      .slice(0, 100)
      .map(({ v }) => ({ text: plain(vehicleOptionText(v, language)), value: v.vehicleUId })),
  };
}
