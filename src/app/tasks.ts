import { parsePeriodCore } from "../commands/period.js";
import { accountLinkHandler } from "../features/account/handlers/accountLink.js";
import { LINK_FAILURE_LIMITS, LinkFailures } from "../features/account/handlers/linkFailures.js";
import {
  rezonePeriod,
  settlingUserZone,
  type UserZoneDeps,
  withZone,
} from "../features/account/handlers/userZone.js";
import { transportActionHandler } from "../features/etransport/handlers/transportActions.js";
import {
  transportFindHandler,
  transportListHandler,
  transportRemoveHandler,
  transportSaveHandler,
} from "../features/etransport/handlers/transports.js";
import { describeTask, type RenderContext, relatedTaskIds, renderTask } from "../features/renderers.js";
import { staleAnswerRefresh, underWayMessage } from "../features/renderRegistry.js";
import { vehicleReportHandler } from "../features/reports/handler.js";
import type { FleetAccounts } from "../platform/accounts/fleetAccounts.js";
import type { FleetClient, FleetSession } from "../platform/fleet/client.js";
import { isUpstreamTransportError } from "../platform/fleet/errors.js";
import type { AccountGate } from "../platform/gate/gate.js";
import type { Logger } from "../platform/log.js";
import { TaskDelivery } from "../platform/slack/delivery.js";
import type { TaskRepository } from "../platform/store/contract/index.js";
import { MemorySharedState } from "../platform/store/sharedState.js";
import { type CallDurations, TaskOverhead } from "../platform/tasks/callDurations.js";
import { describeTaskError } from "../platform/tasks/failures.js";
import { TaskRunner } from "../platform/tasks/runner.js";
import type { TaskRecord } from "../platform/tasks/task.js";
import type { WorkspaceEvents } from "../platform/workspaces/events.js";
import type { Workspaces } from "../platform/workspaces/registry.js";
import { workspaceClient } from "../platform/workspaces/registry.js";
import type { Backend, SharedTaskQueue } from "./backend/backend.js";
import type { Config } from "./config.js";
import type { StartOptions } from "./fleetbot.js";

export function taskRunner(
  config: Config,
  parts: {
    stores: Backend;
    gate: AccountGate;
    client: FleetClient;
    fleet: FleetAccounts;
    zones: UserZoneDeps;
    logger: Logger;
    callDurations: CallDurations;
    beforeWork: (task: TaskRecord) => Promise<void>;
    events: WorkspaceEvents;
  },
): { runner: TaskRunner<FleetSession>; queue?: SharedTaskQueue } {
  const { stores, gate, client, fleet, zones, logger, callDurations, beforeWork } = parts;
  // Redis mode: tasks are BullMQ jobs any replica may run (the queue calls back into this runner).
  const queue = stores.taskQueue?.({
    run: (taskId) => runner.runJob(taskId),
    abortLocal: (taskId) => runner.abortLocal(taskId),
    yieldLocal: (taskId) => runner.yieldLocal(taskId),
    // Another replica removed a workspace: what this one keeps of accounts nobody links goes too.
    workspaceRemoved: () => fleet.releaseUnused(),
    retryDelayMs: Math.max(1_000, config.fleet.minIntervalMs),
    logger: logger.child({ module: "queue" }),
  });
  const runner: TaskRunner<FleetSession> = new TaskRunner<FleetSession>({
    store: stores.tasks,
    audit: stores.audit,
    gate,
    beforeWork,
    ...(queue ? { dispatch: queue } : {}),
    handlers: taskHandlers(config, { stores, client, fleet, zones }),
    sessionFor: async (task) => fleet.sessionFor(task),
    loginCalls: (account) => client.loginCalls(account),
    typicalCallMs: (account) => callDurations.typicalMs(account),
    overhead: new TaskOverhead(),
    onStoreFailure: (error) => stores.health.failed(error),
    isStoreFailure: (error) => stores.health.failed(error),
    describeError: describeTaskError,
    isRetryable: (error) => isUpstreamTransportError(error),
    logger: logger.child({ module: "tasks" }),
  });
  // A removed workspace's queued and running tasks go first: nothing more is answered there.
  parts.events.onRemoved({
    name: "tasks",
    stage: "work",
    deleteWorkspace: (key) => runner.forgetWorkspace(key),
  });
  parts.events.onRemoved({
    // Once its links are gone: the fleet accounts nobody links any more make no call again (their
    // sessions, tokens, lists, upkeep, waiting calls), on this replica and, announced, on every other.
    name: "fleet accounts",
    stage: "accounts",
    deleteWorkspace: async (key) => {
      const released = await fleet.releaseUnused();
      await queue?.announceRemoval(key);
      return released.length;
    },
  });
  return queue ? { runner, queue } : { runner };
}

/** Every task kind's handler; a kind that reads times settles its user's zone first. */
function taskHandlers(
  config: Config,
  parts: { stores: Backend; client: FleetClient; fleet: FleetAccounts; zones: UserZoneDeps },
) {
  const { stores, client, fleet, zones } = parts;
  return [
    settlingUserZone(
      vehicleReportHandler({ client, vehicles: fleet.vehicles, intervalMs: config.fleet.minIntervalMs }),
      zones,
      rezonePeriod(readTypedPeriod),
    ),
    settlingUserZone(transportActionHandler, zones, withZone),
    settlingUserZone(transportListHandler, zones, withZone),
    settlingUserZone(transportFindHandler, zones, withZone),
    settlingUserZone(transportSaveHandler, zones, withZone),
    transportRemoveHandler,
    accountLinkHandler({
      client,
      accounts: stores.accounts,
      key: config.credentialsKey,
      // Failed link attempts per fleet user name: one count for every workspace (and replica).
      failures: new LinkFailures(stores.sharedState ?? new MemorySharedState(), {
        ...LINK_FAILURE_LIMITS,
        perAccount: config.fleet.linkFailures,
      }),
    }),
  ];
}

/** The command grammar's period reader, for tasks that read a typed period again in the user's settled zone. */
export function readTypedPeriod(text: string, timeZone: string, now: Date) {
  const parsed = parsePeriodCore(text, { timeZone, now });
  return parsed.ok
    ? { fromMs: parsed.period.from.getTime(), toMs: parsed.period.to.getTime(), label: parsed.period.label }
    : undefined;
}

/** Progress and answers of tasks, to Slack (attached to the runner's events). */
export function taskDelivery(
  config: Config,
  parts: {
    stores: Backend;
    runner: TaskRunner<FleetSession>;
    workspaces: Workspaces;
    slackApiUrl: string;
    options: StartOptions;
    logger: Logger;
  },
): TaskDelivery {
  const { stores, runner, logger } = parts;
  const delivery = new TaskDelivery({
    clientFor: (key) => workspaceClient(parts.workspaces, key),
    store: stores.tasks,
    runner,
    render: async (task) => renderTask(task, await renderContext(config, stores.tasks, task)),
    describe: describeTask,
    underWayMessage,
    staleAnswerRefresh,
    defaultLanguage: config.defaultLanguage,
    logger: logger.child({ module: "delivery" }),
    progressEveryMs: parts.options.progressEveryMs,
    // Redis mode: each use of a response_url is also counted across the replicas.
    ...(stores.sharedState ? { responseUrlUses: stores.sharedState, ackMarks: stores.sharedState } : {}),
    slackApiUrl: parts.slackApiUrl,
  });
  delivery.attach();
  return delivery;
}

/** The renderers are pure: the stored tasks a task's answer may show (the list an action was clicked in) are read first. */
export async function renderContext(
  config: Config,
  tasks: TaskRepository,
  task: TaskRecord,
): Promise<RenderContext> {
  const related = new Map<string, TaskRecord>();
  for (const id of relatedTaskIds(task)) {
    const record = await tasks.get(id);
    if (record) related.set(id, record);
  }
  return {
    now: () => Date.now(),
    companyTimeZone: config.companyTimeZone,
    defaultLanguage: config.defaultLanguage,
    task: (id: string) => related.get(id),
  };
}
