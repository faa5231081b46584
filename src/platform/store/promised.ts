import type { SqliteAccountStore } from "./accountStore.js";
import type { SqliteAlertStore } from "./alertStore.js";
import type { SqliteAuditStore } from "./auditStore.js";
import type {
  AccountRepository,
  AlertRepository,
  AuditRepository,
  LearnedLimitsRepository,
  ScheduleRepository,
  SettingsRepository,
  TaskRepository,
  ZoneRepository,
} from "./contract/index.js";
import type { SqliteLearnedLimitsStore } from "./learnedLimits.js";
import type { SqliteScheduleStore } from "./scheduleStore.js";
import type { SqliteSettingsStore } from "./settingsStore.js";
import type { SqliteTaskStore } from "./taskStore.js";
import type { SqliteZoneStore } from "./zoneStore.js";

/**
 * The SQLite stores as the contract's repositories.
 *
 * Why the SQLite stores stay synchronous behind one wrapper rather than each being written async:
 * better-sqlite3 answers synchronously, so a store method that is one transaction cannot be split
 * by an await; the migration reads its snapshot through them inside one SQLite transaction; and
 * tests drive them directly. One generic wrapper also keeps a single copy of every signature (a
 * hand-written async adapter per store would be a third copy to keep in step with the interface
 * and the class). The compiler still holds them to the written interfaces: each class
 * `implements Synchronous<XRepository>` (contract/synchronous.ts: the interface with each
 * promise's value returned directly), and `promised` returns the interface itself, not a type
 * derived from the class.
 */

/** The SQLite stores promised() turns into repositories. */
export type SqliteStore =
  | SqliteTaskStore
  | SqliteAccountStore
  | SqliteAlertStore
  | SqliteAuditStore
  | SqliteSettingsStore
  | SqliteLearnedLimitsStore
  | SqliteZoneStore
  | SqliteScheduleStore;

/** The contract interface a SQLite store implements synchronously. */
export type RepositoryOf<S extends SqliteStore> = S extends SqliteTaskStore
  ? TaskRepository
  : S extends SqliteAccountStore
    ? AccountRepository
    : S extends SqliteAlertStore
      ? AlertRepository
      : S extends SqliteAuditStore
        ? AuditRepository
        : S extends SqliteSettingsStore
          ? SettingsRepository
          : S extends SqliteLearnedLimitsStore
            ? LearnedLimitsRepository
            : S extends SqliteZoneStore
              ? ZoneRepository
              : S extends SqliteScheduleStore
                ? ScheduleRepository
                : never;

/**
 * A synchronous SQLite store as its repository. A throw becomes a rejected promise, so callers
 * handle a full disk the same way in both modes.
 */
export function promised<S extends SqliteStore>(target: S): RepositoryOf<S> {
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
  // Each method's result becomes a promise of it: what Synchronous<R>, which the class implements, undoes.
  return wrapped as unknown as RepositoryOf<S>;
}
