/** The transport form's errors and warnings in words. */

import { duration } from "../../../../i18n/format.js";
import type { Language } from "../../../../i18n/language.js";
import type { TransportFormError, TransportFormWarning } from "../../form.js";
import { dateText } from "./transportText.js";
import { words } from "./words.js";

/** One warning in `language`, dates in `zone` (plain text). */
export function transportFormWarningText(
  w: TransportFormWarning,
  language: Language,
  zone: string,
  nowMs?: number,
): string {
  const m = words(language);
  const when = (ms: number): string => dateText(ms, zone, language, nowMs);
  switch (w.warning) {
    case "overMaxSpan":
      return m.warningOverMaxSpan({ span: duration(language, w.spanMs), maxDays: w.maxDays });
    case "overHighRiskSpan":
      return m.warningOverHighRiskSpan({ span: duration(language, w.spanMs), days: w.days });
    case "farAhead":
      return m.warningFarAhead({
        span: duration(language, w.inMs),
        start: when(w.startMs),
        maxDays: w.maxDays,
      });
    case "startInPast":
      return m.warningStartInPast({ start: when(w.startMs) });
    case "expired":
      return m.warningExpired({ end: when(w.endMs) });
  }
}

/** The form's warnings in `language`, dates in `zone` (plain text). */
export function transportFormWarningTexts(
  warnings: readonly TransportFormWarning[],
  language: Language,
  zone: string,
  nowMs?: number,
): string[] {
  return warnings.map((w) => transportFormWarningText(w, language, zone, nowMs));
}

/** One field's error in `language` (plain text), dates in `zone`. */
export function transportFormErrorText(
  error: TransportFormError,
  language: Language,
  zone: string,
  nowMs?: number,
): string {
  const m = words(language);
  const when = (ms: number): string => dateText(ms, zone, language, nowMs);
  switch (error.problem) {
    case "vehicleMissing":
      return m.errorVehicleMissing({ example: error.example });
    case "uitMissing":
      return m.errorUitMissing({ example: error.example });
    case "uitLength":
      return m.errorUitLength({ expected: error.expected, length: error.length, example: error.example });
    case "uitCharacters":
      return m.errorUitCharacters({ example: error.example });
    case "vat":
      return m.errorVat(error.vat);
    case "validityMissing":
      return error.end === "start" ? m.errorValidityStartMissing() : m.errorValidityEndMissing();
    case "notADate":
      return m.errorNotADate(error.hint);
    case "validityEndBeforeStart":
      return m.errorValidityEndBeforeStart({ start: when(error.startMs), example: when(error.exampleMs) });
    case "validityExpired":
      return m.errorValidityExpired({ end: when(error.endMs) });
    case "outsideValidity": {
      const bound = when(error.boundMs);
      if (error.which === "start") {
        return error.side === "before"
          ? m.errorTransmissionStartBefore({ bound })
          : m.errorTransmissionStartAfter({ bound });
      }
      return error.side === "before"
        ? m.errorTransmissionEndBefore({ bound })
        : m.errorTransmissionEndAfter({ bound });
    }
    case "transmissionEndBeforeStart":
      return m.errorTransmissionEndBeforeStart({ start: when(error.startMs) });
    case "tooLong":
      return m.errorTooLong(error.what, error.length, error.max);
    case "notAPlate":
      return m.errorNotAPlate({ n: error.trailer, text: error.text });
    case "vehiclePlate":
      return m.errorVehiclePlate({ n: error.trailer, example: error.example });
    case "sameTrailer":
      return m.errorSameTrailer();
  }
}
