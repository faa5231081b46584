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
  /** The run after this one, as claimed (its post names it). */
  nextRunAt: number;
}

export class ScheduleTicker {
  constructor(
    private readonly store: Pick<ScheduleRepository, "due" | "claimRun" | "recordOutcome">,
    private readonly start: (run: ClaimedRun) => Promise<unknown>,
    private readonly now: () => number = Date.now,
    private readonly batch = 100,
    /**
     * How long before its time a run is claimed and started (its report's calls take time, and the
     * post should land at the set time), at most `maxLeadMs`. Default: none, claimed when due.
     */
    private readonly lead: { leadMs(schedule: ReportSchedule): Promise<number>; maxLeadMs: number } = {
      leadMs: async () => 0,
      maxLeadMs: 0,
    },
    /** A claimed run that could not be started (logged by the caller). */
    private readonly onError?: (error: unknown, schedule: ReportSchedule) => void,
  ) {}

  /** One tick: the runs this caller claimed (and started), in order. */
  async tick(): Promise<ClaimedRun[]> {
    const nowMs = this.now();
    const claimed: ClaimedRun[] = [];
    for (const schedule of await this.store.due(nowMs + this.lead.maxLeadMs, this.batch)) {
      // Not yet within its own lead: a later tick claims it.
      if (schedule.nextRunAt > nowMs) {
        const lead = Math.min(this.lead.maxLeadMs, await this.lead.leadMs(schedule));
        if (schedule.nextRunAt - lead > nowMs) continue;
      }
      // A run started early is read at its own time (on time); one already due, at now.
      const decision: RunDecision = decideRun(schedule, Math.max(nowMs, schedule.nextRunAt));
      // A recurrence that cannot be read has no next run: it is left due, and never claimed.
      if (decision.nextRunAt === undefined) continue;
      const won = await this.store.claimRun(schedule.workspace, schedule.id, schedule.nextRunAt, {
        nextRunAt: decision.nextRunAt,
        madeAt: nowMs,
      });
      if (!won) continue;
      if (!decision.run) {
        // Every missed run was too old to make: said in the next post.
        await this.store.recordOutcome(schedule.workspace, schedule.id, {
          result: "skipped",
          skipped: decision.skipped,
        });
        continue;
      }
      const run: ClaimedRun = {
        schedule,
        scheduledAt: decision.run.scheduledAt,
        late: decision.run.late,
        // Runs skipped by earlier ticks that made nothing are said in this post too (a schedule
        // stored before the count was kept says at least one).
        skipped: decision.skipped + (schedule.skippedRuns ?? (schedule.lastOutcome === "skipped" ? 1 : 0)),
        nextRunAt: decision.nextRunAt,
      };
      claimed.push(run);
      try {
        await this.start(run);
      } catch (error) {
        // The run is claimed: it fails as a run (3 in a row pause the schedule), and the other
        // due schedules of this tick still run.
        await this.store
          .recordOutcome(schedule.workspace, schedule.id, { result: "failed" })
          .catch(() => undefined);
        this.onError?.(error, schedule);
      }
    }
    return claimed;
  }
}
