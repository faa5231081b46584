import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { afterEach, describe } from "vitest";
import { SqliteAccountStore } from "../../../../src/platform/store/accountStore.js";
import { SqliteAlertStore } from "../../../../src/platform/store/alertStore.js";
import { SqliteAuditStore } from "../../../../src/platform/store/auditStore.js";
import type {
  AccountRepository,
  AlertRepository,
  AuditRepository,
  InstallationRepository,
  LearnedLimitsRepository,
  ScheduleRepository,
  SettingsRepository,
  TaskRepository,
  ZoneRepository,
} from "../../../../src/platform/store/contract/index.js";
import { type Db, openDatabase } from "../../../../src/platform/store/database.js";
import { SqliteInstallationStore } from "../../../../src/platform/store/installationStore.js";
import { SqliteLearnedLimitsStore } from "../../../../src/platform/store/learnedLimits.js";
import {
  type MigrationTarget,
  RedisMigrationTarget,
} from "../../../../src/platform/store/migrationTarget.js";
import { promised } from "../../../../src/platform/store/promised.js";
import { RedisAccountStore } from "../../../../src/platform/store/redis/accountStore.js";
import { RedisAlertStore } from "../../../../src/platform/store/redis/alertStore.js";
import { RedisAuditStore } from "../../../../src/platform/store/redis/auditStore.js";
import { RedisInstallationStore } from "../../../../src/platform/store/redis/installationStore.js";
import { RedisLearnedLimitsStore } from "../../../../src/platform/store/redis/learnedLimits.js";
import { RedisScheduleStore } from "../../../../src/platform/store/redis/scheduleStore.js";
import { RedisSettingsStore } from "../../../../src/platform/store/redis/settingsStore.js";
import { RedisTaskStore } from "../../../../src/platform/store/redis/taskStore.js";
import { RedisZoneStore } from "../../../../src/platform/store/redis/zoneStore.js";
import { SqliteScheduleStore } from "../../../../src/platform/store/scheduleStore.js";
import { SqliteSettingsStore } from "../../../../src/platform/store/settingsStore.js";
import { SqliteTaskStore } from "../../../../src/platform/store/taskStore.js";
import { SqliteZoneStore } from "../../../../src/platform/store/zoneStore.js";
import { type RedisServer, redisForTests, redisSkipReason } from "../../../helpers/redisServer.js";

/**
 * The store contract: one test body, run on SQLite (through `promised`, as main.ts wires it
 * without REDIS_URL) and on Redis (a real redis-server, one per test file, a fresh key prefix
 * per store set).
 */

export const NOW = Date.UTC(2026, 10, 3, 8, 0, 0);

export interface Stores {
  tasks: TaskRepository;
  accounts: AccountRepository;
  alerts: AlertRepository;
  limits: LearnedLimitsRepository;
  audit: AuditRepository;
  settings: SettingsRepository;
  installations: InstallationRepository;
  zones: ZoneRepository;
  schedules: ScheduleRepository;
}

export interface StoreSet extends Stores {
  /** The stores' clock (every store of the set, replicas included, reads it). */
  clock: { now: number };
  /** The same data through a second connection, as another replica (or process) sees it. */
  replica(options?: { key?: Buffer | undefined }): Stores;
  /** Whether the text appears anywhere in what the backend keeps (the file, or every key and value). */
  rawContains(text: string): Promise<boolean>;
  /** The migrator's writes into this backend (Redis only: `migrate --to-redis`). */
  migrationTarget?: MigrationTarget;
}

export interface OpenOptions {
  /** CREDENTIALS_KEY of the account store; a random one unless given (undefined: none). */
  key?: Buffer | undefined;
}

export interface Backend {
  open(options?: OpenOptions): Promise<StoreSet>;
  /** The redis-server (Redis backend only). */
  server(): RedisServer | undefined;
}

export const BACKEND_NAMES = ["sqlite", "redis"] as const;
export type BackendName = (typeof BACKEND_NAMES)[number];

function keyOf(options: OpenOptions): Buffer | undefined {
  return "key" in options ? options.key : randomBytes(32);
}

function sqliteBackend(): Backend {
  const dirs: string[] = [];
  const dbs: Db[] = [];
  afterEach(() => {
    for (const db of dbs.splice(0)) db.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return {
    server: () => undefined,
    async open(options = {}) {
      const dir = mkdtempSync(join(tmpdir(), "fleetbot-contract-"));
      dirs.push(dir);
      const clock = { now: NOW };
      const now = () => clock.now;
      const storesOn = (db: Db, key: Buffer | undefined): Stores => ({
        tasks: promised(new SqliteTaskStore(db, now)),
        accounts: promised(new SqliteAccountStore(db, key, now)),
        alerts: promised(new SqliteAlertStore(db, now)),
        limits: promised(new SqliteLearnedLimitsStore(db, now)),
        audit: promised(new SqliteAuditStore(db)),
        settings: promised(new SqliteSettingsStore(db, now)),
        installations: new SqliteInstallationStore(db, key, now),
        zones: promised(new SqliteZoneStore(db, now)),
        schedules: promised(new SqliteScheduleStore(db, now)),
      });
      const db = openDatabase(dir);
      dbs.push(db);
      const key = keyOf(options);
      return {
        ...storesOn(db, key),
        clock,
        replica(replicaOptions = { key }) {
          const second = openDatabase(dir);
          dbs.push(second);
          return storesOn(second, keyOf(replicaOptions));
        },
        async rawContains(text) {
          db.pragma("wal_checkpoint(TRUNCATE)");
          return readFileSync(join(dir, "fleetbot.sqlite")).includes(Buffer.from(text));
        },
      };
    },
  };
}

function redisBackend(): Backend {
  const redisServer = redisForTests({ lazyConnect: false, maxRetriesPerRequest: 3 });
  let sets = 0;
  const connect = () => redisServer.connect();
  return {
    server: redisServer.server,
    async open(options = {}) {
      const prefix = `contract${++sets}:${randomBytes(4).toString("hex")}:`;
      const clock = { now: NOW };
      const now = () => clock.now;
      const storesOn = (redis: Redis, key: Buffer | undefined): Stores => ({
        tasks: new RedisTaskStore(redis, { prefix, now }),
        accounts: new RedisAccountStore(redis, { prefix, now, key }),
        alerts: new RedisAlertStore(redis, { prefix, now }),
        limits: new RedisLearnedLimitsStore(redis, { prefix, now }),
        audit: new RedisAuditStore(redis, { prefix, now }),
        settings: new RedisSettingsStore(redis, { prefix, now }),
        installations: new RedisInstallationStore(redis, { prefix, now, key }),
        zones: new RedisZoneStore(redis, { prefix, now }),
        schedules: new RedisScheduleStore(redis, { prefix, now }),
      });
      const redis = connect();
      const key = keyOf(options);
      return {
        ...storesOn(redis, key),
        clock,
        migrationTarget: new RedisMigrationTarget(redis, { prefix, now }),
        replica(replicaOptions = { key }) {
          return storesOn(connect(), keyOf(replicaOptions));
        },
        async rawContains(text) {
          const keys = await redis.keys(`${prefix}*`);
          for (const name of keys) {
            if (name.includes(text)) return true;
            const type = await redis.type(name);
            const values =
              type === "hash"
                ? Object.entries(await redis.hgetall(name)).flat()
                : type === "zset"
                  ? await redis.zrange(name, 0, -1)
                  : type === "set"
                    ? await redis.smembers(name)
                    : type === "string"
                      ? [(await redis.get(name)) ?? ""]
                      : [];
            if (values.some((value) => value.includes(text))) return true;
          }
          return false;
        },
      };
    },
  };
}

/**
 * Runs `body` once per backend. The Redis run is skipped (and says why) when redis-server is
 * not installed; under CI its absence fails (test/helpers/redisServer.ts).
 */
export function describeContract(title: string, body: (backend: Backend, name: BackendName) => void): void {
  describe.each(BACKEND_NAMES)(`${title} on %s`, (name) => {
    const skip = name === "redis" ? redisSkipReason : undefined;
    describe.skipIf(skip !== undefined)(skip ?? "contract", () => {
      body(name === "sqlite" ? sqliteBackend() : redisBackend(), name);
    });
  });
}
