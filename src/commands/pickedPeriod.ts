/** The label of a period picked in a form (its words: periodText of src/i18n/periodText.ts). */

import { instantToWall } from "../platform/time/zone.js";
import type { PeriodLabelCode } from "./periodLabel.js";

/** The label of a period picked in a form (two instants): a range of times in the user's zone. */
export function pickedPeriodLabel(
  fromMs: number,
  toMs: number,
  zone: string,
  nowMs: number,
): PeriodLabelCode {
  const year = new Date(instantToWall(new Date(nowMs), zone)).getUTCFullYear();
  return {
    kind: "datetimes",
    from: instantToWall(new Date(fromMs), zone),
    to: instantToWall(new Date(toMs), zone),
    year,
  };
}
