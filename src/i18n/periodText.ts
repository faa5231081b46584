/**
 * A period's label (src/commands/periodLabel.ts) in the reader's language: "last 3 days",
 * "ultimele 3 zile", "yesterday (Tue 24 Nov)". Dates in format.ts's one form; a legacy label (the
 * English words a task stored before labels were data) is shown as it is. Here, not in
 * the Slack views, so that report files (GPX, charts) can write it too.
 */

import type { PeriodLabel, PeriodLabelCode } from "../commands/periodLabel.js";
import { messages } from "./catalogue.js";
import { date, dateTime } from "./format.js";
import type { Language } from "./language.js";

export type { PeriodLabel, PeriodLabelCode };

/** Wall values are the user's clock written as UTC: formatted in UTC they read as the user's. */
const WALL_ZONE = "UTC";

/** A range of dates or times, the same in both languages. */
const range = (from: string, to: string) => `${from} – ${to}`;

export function periodText(label: PeriodLabel, language: Language): string {
  if (typeof label === "string") return label;
  const m = messages(language).grammar;
  // The year shows for a date of another year than the one the label was made in.
  const options = label.year === undefined ? {} : { nowMs: Date.UTC(label.year, 5, 15) };
  const day = (wall: number) => date(language, wall, WALL_ZONE, options);
  const at = (wall: number) => dateTime(language, wall, WALL_ZONE, options);
  const text = ((): string => {
    switch (label.kind) {
      case "today":
        return m.periodToday();
      case "yesterday":
        return m.periodYesterday({ date: day(label.day) });
      case "dayBeforeYesterday":
        return m.periodDayBeforeYesterday({ date: day(label.day) });
      case "lastHours":
        return m.periodLastHours(label.count);
      case "lastDays":
        return m.periodLastDays(label.count);
      case "thisWeek":
        return m.periodThisWeek({ since: day(label.monday) });
      case "lastWeek":
        return m.periodLastWeek({ from: day(label.monday), to: day(label.sunday) });
      case "thisMonth":
        return m.periodThisMonth({ since: day(label.first) });
      case "lastMonth":
        return m.periodLastMonth({ from: day(label.first), to: day(label.last) });
      case "date":
        return day(label.day);
      case "dates":
        return range(day(label.first), day(label.last));
      case "datetimes":
        return range(at(label.from), at(label.to));
    }
  })();
  return label.untilNow === true ? m.periodUntilNow({ period: text }) : text;
}
