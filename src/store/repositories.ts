import type { AccountStore } from "./accountStore.js";
import type { AlertStore } from "./alertStore.js";
import type { AuditStore } from "./auditStore.js";
import type { LearnedLimitsStore } from "./learnedLimits.js";
import type { SettingsStore } from "./settingsStore.js";
import type { TaskStore } from "./taskStore.js";

/**
 * The store interfaces the rest of fleetbot uses. Two implementations: SQLite (the embedded
 * default; better-sqlite3 is synchronous, so its classes stay synchronous and every
 * multi-statement write stays one transaction) and Redis (REDIS_URL, several replicas).
 * Redis can only answer asynchronously, so every operation here returns a promise.
 *
 * The interfaces are derived from the SQLite classes' public methods rather than written
 * twice: one list of operations, and the compiler holds the Redis classes to it.
 */
export type Promised<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : T[K];
};

export type TaskRepository = Promised<TaskStore>;
export type AccountRepository = Promised<AccountStore>;
export type AlertRepository = Promised<AlertStore>;
export type LearnedLimitsRepo = Promised<LearnedLimitsStore>;
/** The audit trail of transport changes (kept AUDIT_RETENTION_DAYS). */
export type AuditRepository = Promised<AuditStore>;
/** Each user's settings (their language) and each installed workspace's default language. */
export type SettingsRepository = Promised<SettingsStore>;
/** Slack installations (multi-workspace mode): SqliteInstallationStore or RedisInstallationStore. */
export type { InstallationRepository } from "./installationStore.js";

/** The repositories of one mode, as main.ts wires them. */
export interface Repositories {
  tasks: TaskRepository;
  accounts: AccountRepository;
  alerts: AlertRepository;
  audit: AuditRepository;
  settings: SettingsRepository;
}

/**
 * A synchronous SQLite store seen through its promised interface. A throw becomes a
 * rejected promise, so callers handle a full disk the same way in both modes.
 */
export function promised<T extends object>(target: T): Promised<T> {
  const wrapped = new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        try {
          return Promise.resolve(value.apply(object, args));
        } catch (error) {
          return Promise.reject(error);
        }
      };
    },
  });
  // The proxy turns each method's result into a promise, which is what Promised<T> states.
  return wrapped as unknown as Promised<T>;
}
