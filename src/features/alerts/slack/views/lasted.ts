/** How long a resolved incident lasted, in words: one figure, or the span the alert checks allow. */
import { duration, type Language, messages } from "../../../../i18n/index.js";
import { faultDurationSpan } from "../../duration.js";
import type { AlertIncident } from "./incidentText.js";

/**
 * From the fault's start (the service's evidence, else the first poll that saw it) to its end:
 * one figure when the service's dates pin the end, else the span the alert checks allow
 * ("2–6 min": it ended between the last check that saw it and the first that did not).
 */
export function lasted(incident: AlertIncident, lang: Language): string {
  const { shortestMs, longestMs } = faultDurationSpan(incident);
  const shortest = duration(lang, shortestMs);
  const longest = duration(lang, longestMs);
  if (shortest === longest) return longest;
  return /^\d+ min$/.test(shortest) && /^\d+ min$/.test(longest)
    ? `${shortest.replace(" min", "")}–${longest}`
    : `${shortest} – ${longest}`;
}

/** Said beside a span of durations: why it is not one figure. */
export function lastedNote(incident: AlertIncident, lang: Language): string {
  const { shortestMs, longestMs } = faultDurationSpan(incident);
  return duration(lang, shortestMs) === duration(lang, longestMs)
    ? ""
    : messages(lang).alerts.betweenChecks();
}
