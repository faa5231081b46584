import { createFleetGate } from "../../platform/gate/fleetGate.js";
import type { Logger } from "../../platform/log.js";
import { SqliteAccountStore } from "../../platform/store/accountStore.js";
import { SqliteAlertStore } from "../../platform/store/alertStore.js";
import { SqliteAuditStore } from "../../platform/store/auditStore.js";
import { openDatabase } from "../../platform/store/database.js";
import { StoreHealth } from "../../platform/store/health.js";
import { SqliteInstallationStore } from "../../platform/store/installationStore.js";
import { SqliteLearnedLimitsStore } from "../../platform/store/learnedLimits.js";
import { promised } from "../../platform/store/promised.js";
import { SqliteScheduleStore } from "../../platform/store/scheduleStore.js";
import { SqliteSettingsStore } from "../../platform/store/settingsStore.js";
import { SqliteTaskStore } from "../../platform/store/taskStore.js";
import { SqliteZoneStore } from "../../platform/store/zoneStore.js";
import { LocalRenewalLock } from "../../platform/workspaces/registry.js";
import type { Config } from "../config.js";
import type { Backend } from "./backend.js";
import { retentionOf, warnUnreadable } from "./retention.js";

/**
 * One process: SQLite in DATA_DIR (a corrupt store stops the start, a read-only one is named),
 * the gate, the task queue and the alert schedule in memory. A changed key is told once.
 */
export function openSqliteBackend(config: Config, logger: Logger): Backend {
  const db = openDatabase(config.dataDir);
  const tasks = promised(new SqliteTaskStore(db));
  const accounts = promised(new SqliteAccountStore(db, config.credentialsKey));
  const alerts = promised(new SqliteAlertStore(db));
  const audit = promised(new SqliteAuditStore(db));
  const settings = promised(new SqliteSettingsStore(db));
  const zones = promised(new SqliteZoneStore(db));
  const schedules = promised(new SqliteScheduleStore(db));
  warnUnreadable(config, accounts, logger).catch((error: unknown) =>
    logger.warn({ err: error }, "linked accounts could not be checked against CREDENTIALS_KEY"),
  );
  const limits = new SqliteLearnedLimitsStore(db);
  return {
    tasks,
    accounts,
    alerts,
    audit,
    settings,
    zones,
    schedules,
    installations: new SqliteInstallationStore(db, config.credentialsKey),
    renewalLock: new LocalRenewalLock(),
    learnedLimits: async () => limits,
    health: new StoreHealth(db),
    retention: retentionOf(config, { tasks, alerts, audit }, logger),
    gate: (options) => createFleetGate(options),
    report: { healthFields: () => ({}), degraded: () => [], observe: () => {} },
    close: async () => {
      db.close();
    },
  };
}
