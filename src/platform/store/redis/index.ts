import type { Redis } from "ioredis";
import type {
  InstallationRepository,
  LearnedLimitsRepository,
  Repositories,
  ScheduleRepository,
  ZoneRepository,
} from "../contract/index.js";
import { RedisAccountStore } from "./accountStore.js";
import { RedisAlertStore } from "./alertStore.js";
import { RedisAuditStore } from "./auditStore.js";
import { RedisInstallationStore } from "./installationStore.js";
import { RedisLearnedLimitsStore } from "./learnedLimits.js";
import type { RedisStoreOptions } from "./lua.js";
import { RedisScheduleStore } from "./scheduleStore.js";
import { RedisSettingsStore } from "./settingsStore.js";
import { RedisTaskStore } from "./taskStore.js";
import { RedisZoneStore } from "./zoneStore.js";

export { RedisAccountStore, type SealedAccount } from "./accountStore.js";
export { RedisAlertStore } from "./alertStore.js";
export { RedisAuditStore } from "./auditStore.js";
export { RedisInstallationStore } from "./installationStore.js";
export { RedisLearnedLimitsStore } from "./learnedLimits.js";
export { DEFAULT_PREFIX, type RedisStoreOptions } from "./lua.js";
export { RedisScheduleStore } from "./scheduleStore.js";
export { RedisSettingsStore } from "./settingsStore.js";
export { RedisTaskStore } from "./taskStore.js";
export { RedisZoneStore } from "./zoneStore.js";

/** Every store of the Redis mode over one client (without keyPrefix) and one key prefix. */
export function createRedisRepositories(
  redis: Redis,
  options: RedisStoreOptions & { key: Buffer | undefined },
): Repositories & {
  limits: LearnedLimitsRepository;
  installations: InstallationRepository;
  zones: ZoneRepository;
  schedules: ScheduleRepository;
} {
  return {
    tasks: new RedisTaskStore(redis, options),
    accounts: new RedisAccountStore(redis, options),
    alerts: new RedisAlertStore(redis, options),
    audit: new RedisAuditStore(redis, options),
    settings: new RedisSettingsStore(redis, options),
    limits: new RedisLearnedLimitsStore(redis, options),
    installations: new RedisInstallationStore(redis, options),
    zones: new RedisZoneStore(redis, options),
    schedules: new RedisScheduleStore(redis, options),
  };
}
