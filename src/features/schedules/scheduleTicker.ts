import type { ReportSchedule, ScheduleRepository } from "../../platform/store/contract/schedules.js";
import { decideRun, type RunDecision } from "./runPlan.js";

/**
 * Claims the scheduled runs that are due, once each, across restarts and replicas: every tick
 * reads the due schedules, decides each one's run (runPlan.ts) and claims it with the store's
 * compare-and-set on its next run; only the claim that wins hands the run on (`start`, which
 * submits the report task at background priority). A replica that loses a claim does nothing.
 */
export interface ClaimedRun {
  schedule: ReportSchedule;
  scheduledAt: number;
  late: boolean;
  /** Older missed runs not made (said in the post). */
  skipped: number;
}

export class ScheduleTicker {
  constructor(
    private readonly store: Pick<ScheduleRepository, "due" | "claimRun" | "recordOutcome">,
    private readonly start: (run: ClaimedRun) => Promise<void>,
    private readonly now: () => number = Date.now,
    private readonly batch = 100,
  ) {}

  /** One tick: the runs this caller claimed (and started), in order. */
  async tick(): Promise<ClaimedRun[]> {
    const nowMs = this.now();
    const claimed: ClaimedRun[] = [];
    for (const schedule of await this.store.due(nowMs, this.batch)) {
      const decision: RunDecision = decideRun(schedule, nowMs);
      // A recurrence that cannot be read has no next run: it is left due, and never claimed.
      if (decision.nextRunAt === undefined) continue;
      const won = await this.store.claimRun(schedule.workspace, schedule.id, schedule.nextRunAt, {
        nextRunAt: decision.nextRunAt,
        madeAt: nowMs,
      });
      if (!won) continue;
      if (!decision.run) {
        // Every missed run was too old to make: said in the next post.
        await this.store.recordOutcome(schedule.workspace, schedule.id, { result: "skipped" });
        continue;
      }
      const run: ClaimedRun = {
        schedule,
        scheduledAt: decision.run.scheduledAt,
        late: decision.run.late,
        skipped: decision.skipped,
      };
      claimed.push(run);
      await this.start(run);
    }
    return claimed;
  }
}
