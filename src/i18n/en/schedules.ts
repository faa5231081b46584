/**
 * English, scheduled reports (`/fleet schedule`): what is wrong with a schedule command. Values
 * are inserted as given: escape user text for mrkdwn before passing it.
 */
export const schedules = {
  time: ({ given }: { given: string }) =>
    `Say when it runs, at the end: \`at 07:30\` (24-hour clock)${given ? `, not ${given}` : ""}.`,
  recurrence: ({ given }: { given: string }) =>
    `How often? Before the time: \`every day\`, \`every weekday\`, \`every monday\` or \`every month on 1\`${given ? ` (not ${given})` : ""}.`,
  day: ({ given }: { given: string }) =>
    `${given} is not a day of the month: 1 to 31 (a shorter month runs on its last day).`,
  report: () =>
    "Which report? Put the report command first, as you would type it after `/fleet`: `fuel all yesterday`.",
  notAReport: ({ given }: { given: string }) =>
    `${given} is not a report: only a report can be scheduled (fuel, stops, route, refills, temps, where, vehicles), with its vehicles.`,
  id: ({ given }: { given: string }) =>
    `Give the schedule's id, as \`/fleet schedules\` shows it${given ? `, not ${given}` : ""}.`,
};
