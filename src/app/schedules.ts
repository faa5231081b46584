import { reportTaskParams } from "../features/reports/index.js";
import {
  MAX_LEAD_MS,
  pausedMessage,
  ScheduleRuns,
  ScheduleTicker,
  scheduledReport,
  scheduleFootnote,
} from "../features/schedules/index.js";
import { resolveLanguage } from "../i18n/resolve.js";
import type { FleetSession } from "../platform/fleet/client.js";
import type { AccountGate } from "../platform/gate/gate.js";
import type { Logger } from "../platform/log.js";
import { isChannelMember } from "../platform/slack/listeners/channelMembership.js";
import type { People } from "../platform/slack/people.js";
import type { TaskRunner } from "../platform/tasks/runner.js";
import { type Workspaces, workspaceClient } from "../platform/workspaces/registry.js";
import type { AlertParts } from "./alerts.js";
import type { Backend } from "./backend/backend.js";
import type { Config } from "./config.js";

/** How often a replica looks for runs to claim (the store's compare-and-set makes each once). */
export const SCHEDULE_TICK_MS = 20_000;

/** Most schedules one tick claims, and the most the account limit reads. */
const TICK_BATCH = 200;
const ALL_SCHEDULES = 10_000;

export type ScheduleParts = ReturnType<typeof scheduleParts>;

/**
 * Scheduled reports: their runs (checks, the report task, outcomes), the ticker that claims them
 * (every replica ticks; the store's claim makes each run once), and the per-account limit's reading.
 */
export function scheduleParts(
  config: Config,
  parts: {
    stores: Backend;
    runner: TaskRunner<FleetSession>;
    gate: Pick<AccountGate, "slotMs">;
    people: Pick<People, "accountOf">;
    alerts: AlertParts;
    workspaces: Workspaces;
    logger: Logger;
    now?: () => number;
  },
) {
  const { stores, runner, people, workspaces } = parts;
  const now = parts.now ?? Date.now;
  const logger = parts.logger.child({ module: "schedules" });
  const runs = new ScheduleRuns({
    store: stores.schedules,
    submit: (task) => runner.submit(task),
    durationOf: (task) => runner.durationOf(task),
    accountOf: (userId, workspace) => people.accountOf(userId, workspace),
    canPost: (channel, workspace) => parts.alerts.publisher.checkChannel(channel, workspace),
    isMember: async (channel, userId, workspace) =>
      isChannelMember(await workspaceClient(workspaces, workspace), channel, userId),
    // The channel's alert subscription's language, else the author's when they made it.
    languageOf: async (schedule, account) =>
      (await stores.alerts.subscription(schedule.channel, account, schedule.workspace))?.language ??
      schedule.language ??
      config.defaultLanguage,
    words: {
      footnote: scheduleFootnote,
      tellPaused: async (schedule, because) => {
        try {
          const language = resolveLanguage({
            user: await stores.settings.userLanguage(schedule.workspace, schedule.createdBy),
            workspace: await stores.settings.workspaceLanguage(schedule.workspace),
            configured: config.defaultLanguage,
          });
          const client = await workspaceClient(workspaces, schedule.workspace);
          const dm = (await client.conversations.open({ users: schedule.createdBy })).channel?.id;
          if (!dm) return;
          const message = pausedMessage(schedule, because, language);
          await client.chat.postMessage({ channel: dm, text: message.text, blocks: message.blocks });
        } catch (error) {
          logger.warn(
            { err: error, schedule: schedule.id },
            "could not tell the author their schedule paused",
          );
        }
      },
    },
    now,
    logger,
  });
  // A run's ending is its schedule's last outcome (3 failures in a row pause it).
  runner.on({
    finished: (task) => {
      runs
        .finished(task)
        .catch((error: unknown) => logger.error({ err: error }, "schedule outcome not recorded"));
    },
  });
  const ticker = new ScheduleTicker(
    stores.schedules,
    (run) => runs.start(run),
    now,
    TICK_BATCH,
    { leadMs: (schedule) => runs.leadMs(schedule), maxLeadMs: MAX_LEAD_MS },
    (error, schedule) => logger.error({ err: error, schedule: schedule.id }, "a claimed run could not start"),
  );
  /** The calls per run of the active schedules run as `account`, in every workspace. */
  const accountCalls = async (account: string): Promise<number[]> => {
    const calls: number[] = [];
    for (const schedule of await stores.schedules.due(Number.MAX_SAFE_INTEGER, ALL_SCHEDULES)) {
      const actsAs = await people.accountOf(schedule.createdBy, schedule.workspace);
      const report = actsAs?.username === account ? scheduledReport(schedule, now()) : undefined;
      if (report)
        calls.push(
          runner.plannedCalls({
            kind: "vehicle-report",
            params: reportTaskParams(report, schedule.timeZone),
            account,
          }),
        );
    }
    return calls;
  };
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<unknown> | undefined;
  const tick = async () => {
    // One tick at a time in this process; across replicas the claims decide.
    if (ticking) return [];
    ticking = ticker.tick();
    try {
      return (await ticking) as Awaited<ReturnType<ScheduleTicker["tick"]>>;
    } finally {
      ticking = undefined;
    }
  };
  return {
    runs,
    tick,
    now,
    accountCalls,
    slotMs: (account: string) => parts.gate.slotMs(account),
    start(everyMs = SCHEDULE_TICK_MS) {
      timer = setInterval(() => {
        tick().catch((error: unknown) => logger.error({ err: error }, "schedule tick failed"));
      }, everyMs);
      timer.unref();
      void tick().catch((error: unknown) => logger.error({ err: error }, "schedule tick failed"));
    },
    async stop() {
      if (timer) clearInterval(timer);
      await ticking?.catch(() => undefined);
    },
  };
}
