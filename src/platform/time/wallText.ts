import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";

/** Wall time in `timeZone`, for plain-text fallbacks: "2026-11-03 14:05". */
export function wallText(ms: number, timeZone: string, pattern = "yyyy-MM-dd HH:mm"): string {
  return format(new TZDate(ms, timeZone), pattern);
}
