import type { AccountRepository } from "./accounts.js";
import type { AlertRepository } from "./alerts.js";
import type { AuditRepository } from "./audit.js";
import type { SettingsRepository } from "./settings.js";
import type { TaskRepository } from "./tasks.js";

/**
 * The store contract: what the rest of fleetbot may ask of a store, written out once per
 * repository with its records. Two implementations of each: SQLite (the embedded default,
 * src/platform/store/*Store.ts, Sqlite*) and Redis (REDIS_URL, several replicas, src/platform/store/redis/, Redis*).
 * Redis can only answer asynchronously, so every operation returns a promise; better-sqlite3 is
 * synchronous, so the SQLite stores implement `Synchronous<…Repository>` and reach callers
 * through `promised` (src/platform/store/promised.ts). The compiler holds both to these interfaces, and
 * test/platform/store/contract/ runs the same cases on both.
 *
 * Import records and interfaces from here, never from an implementation's file.
 */

export * from "./accounts.js";
export * from "./alerts.js";
export * from "./audit.js";
export * from "./installations.js";
export * from "./learnedLimits.js";
export * from "./schedules.js";
export * from "./settings.js";
export * from "./synchronous.js";
export * from "./tasks.js";
export * from "./vehicleFacts.js";
export * from "./zones.js";

/** The repositories every backend gives (installations and learned limits come beside them). */
export interface Repositories {
  tasks: TaskRepository;
  accounts: AccountRepository;
  alerts: AlertRepository;
  audit: AuditRepository;
  settings: SettingsRepository;
}
