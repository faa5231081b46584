/**
 * Scheduled reports, as other features, the composition root and the tests see them: the `/fleet
 * schedule…` entries and buttons, the runs (checks, task, outcome), the ticker that claims them
 * once across replicas, the limits, and the recurrence arithmetic.
 */
export {
  checkScheduleLimits,
  dailySlots,
  MAX_SCHEDULES_PER_WORKSPACE,
  type ScheduleLimit,
} from "./limits.js";
export { LATE_RUN_WITHIN_MS, nextRunAfter } from "./recurrence.js";
export {
  FAILURES_TO_PAUSE,
  MAX_LEAD_MS,
  type RunRefusal,
  type ScheduleRunDeps,
  ScheduleRuns,
  type ScheduleWords,
  scheduledReport,
  scheduleIdOfTask,
} from "./scheduleRuns.js";
export { type ClaimedRun, ScheduleTicker } from "./scheduleTicker.js";
export {
  addSchedule,
  listSchedules,
  removeSchedule,
  type ScheduleCommandArgs,
} from "./slack/listeners.js";
export { schedulesListeners } from "./slack/registration.js";
export { pausedMessage, scheduleFootnote } from "./slack/views/scheduleText.js";
