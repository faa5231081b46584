import { parseFleetCommand } from "../../commands/index.js";
import type { ReportCommand } from "../../commands/types.js";
import type { Language } from "../../i18n/language.js";
import type {
  ReportSchedule,
  SchedulePause,
  ScheduleRepository,
} from "../../platform/store/contract/schedules.js";
import type { TaskRecord } from "../../platform/tasks/task.js";
import type { WorkspaceKey } from "../../platform/workspaces/workspace.js";
import { reportTaskParams } from "../reports/index.js";
import type { NewTaskOf } from "../taskKinds.js";
import type { ClaimedRun } from "./scheduleTicker.js";

/** Failed runs in a row that pause a schedule (the author is told). */
export const FAILURES_TO_PAUSE = 3;

/** A run is submitted at most this long before its time, however long its calls are estimated to take. */
export const MAX_LEAD_MS = 30 * 60_000;

/** The key of a scheduled run's task: one task per run, and how its ending finds its schedule. */
const RUN_KEY = /^schedule-run:([^:]+):(\d+)$/;

export function runKeyOf(scheduleId: string, at: number): string {
  return `schedule-run:${scheduleId}:${at}`;
}

/** The schedule id of a task a run submitted (its dedupe key), if it is one. */
export function scheduleIdOfTask(task: Pick<TaskRecord, "dedupeKey">): string | undefined {
  return task.dedupeKey ? RUN_KEY.exec(task.dedupeKey)?.[1] : undefined;
}

/** Why a schedule cannot run now, found before its task is submitted. */
export type RunRefusal = Exclude<SchedulePause, "user" | "failures">;

/** What the Slack side of the feature writes (the words, the direct message): the domain has none. */
export interface ScheduleWords {
  /** The line under a run's post (who scheduled it, the next run, late or missed runs). */
  footnote(
    schedule: ReportSchedule,
    run: { late: boolean; scheduledAt: number; skipped: number; nextRunAt?: number; runNowBy?: string },
    language: Language,
  ): string;
  /** Tells the author their schedule paused by itself, why, and how to resume it. */
  tellPaused(schedule: ReportSchedule, because: SchedulePause): Promise<void>;
}

export interface ScheduleRunDeps {
  store: Pick<ScheduleRepository, "recordOutcome" | "setState">;
  /** Submits a report task (the runner's, any workspace). */
  submit(task: NewTaskOf<"vehicle-report">): Promise<{ task: TaskRecord; created: boolean }>;
  /** How long the task takes once its first call may start (TaskRunner.durationOf). */
  durationOf(task: Pick<TaskRecord, "kind" | "params" | "account">): number;
  /** The fleet account the author acts as: their own link, else the workspace's. */
  accountOf(userId: string, workspace: WorkspaceKey): Promise<{ username: string } | undefined>;
  /** Can the bot post in the channel? `unknown`: Slack could not tell (the run goes ahead). */
  canPost(channel: string, workspace: WorkspaceKey): Promise<{ ok: true } | { ok: false; code: string }>;
  /** Is the author a member of the channel? undefined when Slack could not tell. */
  isMember(channel: string, userId: string, workspace: WorkspaceKey): Promise<boolean | undefined>;
  /** The language of the post: the channel's alert subscription's, else the schedule's, else the author's. */
  languageOf(schedule: ReportSchedule, account: string): Promise<Language>;
  words: ScheduleWords;
  now(): number;
  logger: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/** The report a schedule runs, read at `at` in the schedule's zone; undefined when it no longer reads. */
export function scheduledReport(schedule: ReportSchedule, at: number): ReportCommand | undefined {
  const parsed = parseFleetCommand(schedule.command, { timeZone: schedule.timeZone, now: new Date(at) });
  return parsed.ok && parsed.kind === "report" ? parsed : undefined;
}

/**
 * Makes a schedule's runs: the checks a run needs (the author's account, the channel), then its
 * report task at background priority, posted in the channel with the schedule's footnote; and
 * what a run's ending means for the schedule (3 failures in a row pause it).
 */
export class ScheduleRuns {
  constructor(private readonly deps: ScheduleRunDeps) {}

  /**
   * How long before its time a schedule's run is submitted: its own calls one slot apart and the
   * last answer (the learned durations), at most MAX_LEAD_MS. Runs of one account at the same time
   * run one after another (the runner starts one background task of an account at a time, in one
   * process); each is then late by at most the calls of the runs ahead of it.
   */
  async leadMs(schedule: ReportSchedule): Promise<number> {
    const account = await this.deps.accountOf(schedule.createdBy, schedule.workspace);
    const report = scheduledReport(schedule, schedule.nextRunAt);
    if (!account || !report) return 0;
    const params = reportTaskParams(report, schedule.timeZone);
    const ms = this.deps.durationOf({ kind: "vehicle-report", params, account: account.username });
    return Math.min(MAX_LEAD_MS, Math.max(0, ms));
  }

  /** A claimed run (ScheduleTicker): checked, then submitted; a failed check pauses the schedule. */
  async start(run: ClaimedRun): Promise<TaskRecord | undefined> {
    const { schedule } = run;
    const checked = await this.check(schedule);
    if (!checked.ok) {
      await this.pause(schedule, checked.refusal);
      return undefined;
    }
    return this.submit(schedule, checked.account, run.scheduledAt, {
      priority: "background",
      key: runKeyOf(schedule.id, run.scheduledAt),
      footnote: {
        late: run.late,
        scheduledAt: run.scheduledAt,
        skipped: run.skipped,
        nextRunAt: run.nextRunAt,
      },
    });
  }

  /**
   * Run now (a button): the same checks, told to whoever pressed it instead of pausing; the report
   * at report priority (a person waits for it), its period read at this moment.
   */
  async runNow(
    schedule: ReportSchedule,
    byUser: string,
  ): Promise<{ ok: true; task: TaskRecord } | { ok: false; refusal: RunRefusal | "unreadable" }> {
    const checked = await this.check(schedule);
    if (!checked.ok) return { ok: false, refusal: checked.refusal };
    const at = this.deps.now();
    const task = await this.submit(schedule, checked.account, at, {
      priority: "report",
      key: `schedule-now:${schedule.id}:${at}`,
      footnote: { late: false, scheduledAt: at, skipped: 0, runNowBy: byUser },
    });
    return task ? { ok: true, task } : { ok: false, refusal: "unreadable" };
  }

  /** A task ended: if a scheduled run submitted it, its outcome is the schedule's last one. */
  async finished(task: TaskRecord): Promise<void> {
    const id = scheduleIdOfTask(task);
    if (id === undefined || (task.state !== "done" && task.state !== "failed")) return;
    const result = task.state === "done" ? "ok" : "failed";
    const schedule = await this.deps.store.recordOutcome(task.workspace, id, { taskId: task.id, result });
    if (
      schedule &&
      result === "failed" &&
      schedule.failuresInRow >= FAILURES_TO_PAUSE &&
      schedule.state === "active"
    )
      await this.pause(schedule, "failures");
  }

  private async check(
    schedule: ReportSchedule,
  ): Promise<{ ok: true; account: string } | { ok: false; refusal: RunRefusal }> {
    const { workspace, channel, createdBy } = schedule;
    const account = await this.deps.accountOf(createdBy, workspace);
    if (!account) return { ok: false, refusal: "unlinked" };
    const [canPost, member] = await Promise.all([
      this.deps.canPost(channel, workspace),
      this.deps.isMember(channel, createdBy, workspace),
    ]);
    if (!canPost.ok) return { ok: false, refusal: "bot-not-in-channel" };
    // Slack could not tell (undefined): the run goes ahead; only a certain "no" pauses.
    if (member === false) return { ok: false, refusal: "left-channel" };
    return { ok: true, account: account.username };
  }

  private async submit(
    schedule: ReportSchedule,
    account: string,
    at: number,
    how: {
      priority: "background" | "report";
      key: string;
      footnote: Parameters<ScheduleWords["footnote"]>[1];
    },
  ): Promise<TaskRecord | undefined> {
    const report = scheduledReport(schedule, at);
    if (!report) {
      this.deps.logger.warn({ schedule: schedule.id }, "a schedule's command no longer reads as a report");
      await this.deps.store.recordOutcome(schedule.workspace, schedule.id, { result: "failed" });
      return undefined;
    }
    const language = await this.deps.languageOf(schedule, account);
    const { task } = await this.deps.submit({
      kind: "vehicle-report",
      params: reportTaskParams(report, schedule.timeZone),
      account,
      workspace: schedule.workspace,
      slackUser: schedule.createdBy,
      reply: {
        channel: schedule.channel,
        inChannel: true,
        language,
        footnote: this.deps.words.footnote(schedule, how.footnote, language),
      },
      priority: how.priority,
      dedupeKey: how.key,
    });
    this.deps.logger.info(
      { schedule: schedule.id, taskId: task.id, at: new Date(at).toISOString() },
      "scheduled report submitted",
    );
    return task;
  }

  private async pause(schedule: ReportSchedule, because: SchedulePause): Promise<void> {
    const paused = await this.deps.store.setState(schedule.workspace, schedule.id, {
      state: "paused",
      because,
    });
    this.deps.logger.info({ schedule: schedule.id, because }, "schedule paused");
    if (paused) await this.deps.words.tellPaused(paused, because);
  }
}
