import type { LimitBookStorage } from "../../platform/fleet/limits.js";
import type { AcceptedPasswords } from "../../platform/fleet/passwords.js";
import type { SharedTokens } from "../../platform/fleet/tokens.js";
import type { FleetGateOptions } from "../../platform/gate/fleetGate.js";
import type { AccountGate } from "../../platform/gate/gate.js";
import type { Logger } from "../../platform/log.js";
import type { FleetbotMetrics } from "../../platform/metrics.js";
import type {
  AccountRepository,
  AlertRepository,
  AuditRepository,
  InstallationRepository,
  ScheduleRepository,
  SettingsRepository,
  TaskRepository,
  ZoneRepository,
} from "../../platform/store/contract/index.js";
import type { StoreHealth } from "../../platform/store/health.js";
import type { StoreRetention } from "../../platform/store/retention.js";
import type { SharedState } from "../../platform/store/sharedState.js";
import type { TaskDispatch } from "../../platform/tasks/runner.js";
import type { RenewalLock } from "../../platform/workspaces/registry.js";

/**
 * Where fleetbot keeps what it knows, and how its replicas share work: the one choice of the
 * composition root (app/start.ts). `sqlite.ts` is one process (SQLite in DATA_DIR, gate, queue
 * and schedule in memory); `redis.ts` is any number of replicas on one Redis (REDIS_URL). Every
 * part above this interface is the same in both.
 */
export interface Backend {
  tasks: TaskRepository;
  accounts: AccountRepository;
  alerts: AlertRepository;
  /** The audit trail of transport changes (AUDIT_RETENTION_DAYS). */
  audit: AuditRepository;
  /** Each user's language and each installed workspace's default language. */
  settings: SettingsRepository;
  /** Each workspace's named zones (vehicle watch's Zone alerts). */
  zones: ZoneRepository;
  /** Scheduled reports (`/fleet schedule`), each run claimed once across replicas. */
  schedules: ScheduleRepository;
  /** Slack installations (multi-workspace mode), tokens sealed with CREDENTIALS_KEY. */
  installations: InstallationRepository;
  /** One token renewal per workspace at a time (across replicas when shared). */
  renewalLock: RenewalLock;
  /** Learned call limits of one fleet service, read once (the client plans with them). */
  learnedLimits(service: string): Promise<LimitBookStorage>;
  health: Pick<StoreHealth, "failed" | "check" | "status" | "onRecovered"> & {
    readonly outage: "unwritable" | "unreachable";
  };
  retention: StoreRetention;
  /** Replicas: request-guard memory, login attempts, notices and response_url uses they share (absent: this process's memory, or the task's row). */
  sharedState?: SharedState;
  /** Replicas with CREDENTIALS_KEY: each fleet account's access token, shared. */
  sharedTokens?: SharedTokens;
  /** Replicas with CREDENTIALS_KEY: each account's accepted password (a change seen once cuts off everywhere). */
  acceptedPasswords?: AcceptedPasswords;
  /** The gate every fleet call waits in: one process's, or one for all replicas. */
  gate(options: FleetGateOptions): AccountGate;
  /** Replicas: a queue any replica's worker takes tasks from (absent: the runner's own waiting list). */
  taskQueue?(hooks: TaskQueueHooks): SharedTaskQueue;
  /** Replicas: one alert sweep per tick over all of them (absent: node-cron in this process). */
  alertSchedule?(hooks: AlertScheduleHooks): SharedAlertSchedule;
  /** What /healthz adds for this backend, and what /metrics reads of it on each scrape. */
  report: BackendReport;
  close(): Promise<void>;
}

/** The runner's side of a shared task queue. */
export interface TaskQueueHooks {
  run(taskId: string): Promise<void>;
  abortLocal(taskId: string): boolean;
  yieldLocal(taskId: string): void;
  /** Another replica (or this one) removed a workspace: let go of what nobody links any more. */
  workspaceRemoved(workspace: string): Promise<unknown>;
  retryDelayMs: number;
  logger: Logger;
}

export interface SharedTaskQueue extends TaskDispatch {
  /** This replica's workers take jobs from now on. */
  start(): Promise<void>;
  /** Tells every replica that a workspace was removed (they release what nobody links any more). */
  announceRemoval(workspace: string): Promise<void>;
  close(): Promise<void>;
}

export interface AlertScheduleHooks {
  cron: string;
  digestCron?: string;
  timeZone: string;
  /** One sweep; `signal` aborts when this replica loses the sweep. */
  sweep(signal: AbortSignal): Promise<unknown>;
  digest(): Promise<unknown>;
  logger: Logger;
}

export interface SharedAlertSchedule {
  start(): Promise<void>;
  /** The last sweep any replica completed. */
  lastSweepAt(): Promise<number | undefined>;
  close(): Promise<void>;
}

export interface BackendReport {
  /** Fields /healthz adds beside `store` (whether the shared server is reached, its unsafe settings). */
  healthFields(store: { ok: boolean; reason?: string }): Record<string, unknown>;
  /** Reasons /healthz lists under `degraded` (the server loses data on restart…). */
  degraded(): string[];
  /** Registers the backend's own gauges on /metrics. */
  observe(metrics: FleetbotMetrics): void;
}
