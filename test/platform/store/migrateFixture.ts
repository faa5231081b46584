import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Installation } from "@slack/bolt";
import type { Redis } from "ioredis";
import type { IncidentChange } from "../../../src/features/alerts/incidents.js";
import { SqliteAccountStore } from "../../../src/platform/store/accountStore.js";
import { SqliteAlertStore } from "../../../src/platform/store/alertStore.js";
import { SqliteAuditStore } from "../../../src/platform/store/auditStore.js";
import { openDatabase } from "../../../src/platform/store/database.js";
import { SqliteInstallationStore } from "../../../src/platform/store/installationStore.js";
import { SqliteLearnedLimitsStore } from "../../../src/platform/store/learnedLimits.js";
import { SqliteTaskStore } from "../../../src/platform/store/taskStore.js";
import type { NewTask } from "../../../src/platform/tasks/task.js";

/** A single instance's DATA_DIR with something of every kind, live and finished. */

export const NOW = Date.UTC(2026, 10, 3, 8, 0, 0);
export const PASSWORDS = { U1: "Parola-Unu-11", U2: "Parola-Doi-22" } as const;

const open = (transportUId: string, state: "open" | "pending", at: number): IncidentChange => ({
  type: "open",
  account: "demo",
  transportUId,
  codeUit: `UIT-${transportUId}`.padEnd(16, "0"),
  kind: "transmission",
  code: "Error",
  at,
  state,
  facts: { uId: transportUId, codeUit: `UIT-${transportUId}`.padEnd(16, "0"), statusId: 2 },
});

const newTask = (overrides: Partial<NewTask> = {}): NewTask => ({
  kind: "vehicle-report",
  params: { report: "stops" },
  account: "demo",
  slackUser: "U1",
  reply: { channel: "C1", responseUrl: "https://hooks.slack.test/r/1" },
  priority: "report",
  ...overrides,
});

export interface Fixture {
  dataDir: string;
  key: Buffer;
  ids: {
    openIncident: string;
    pendingIncident: string;
    resolvedDone: string;
    resolvedOwed: string;
    resolvedNeverPosted: string;
    queued: string;
    running: string;
    finishedDelivered: string;
    finishedUndelivered: string;
  };
}

/** `start`: the fixture's clock (the CLI runs on the real one, so its mutes must still be in force). */
export function makeDataDir(start = NOW): Fixture {
  const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-migrate-"));
  const key = randomBytes(32);
  const db = openDatabase(dataDir);
  let now = start;
  const clock = () => now;
  const accounts = new SqliteAccountStore(db, key, clock);
  const alerts = new SqliteAlertStore(db, clock);
  const tasks = new SqliteTaskStore(db, clock);
  const limits = new SqliteLearnedLimitsStore(db, clock);
  const audit = new SqliteAuditStore(db);

  accounts.link("", "U1", "one@example.ro", PASSWORDS.U1);
  accounts.link("", "U2", "two@example.ro", PASSWORDS.U2);

  alerts.upsertSubscription({ channel: "C1", account: "demo", createdBy: "U1", codes: ["Error"] });
  now += 1;
  alerts.upsertSubscription({ channel: "C2", account: "demo", minDurationMinutes: 5 });

  const [openIncident, pendingIncident, resolvedDone, resolvedOwed, resolvedNeverPosted] =
    alerts.applyChanges([
      open("t-open", "open", start),
      open("t-pending", "pending", start + 5),
      open("t-done", "open", start - 50),
      open("t-owed", "open", start - 40),
      open("t-never", "open", start - 30),
    ]);
  const id = (incident: { id: string } | undefined) => incident!.id;
  alerts.ensurePost(id(openIncident), "C1");
  alerts.recordPosted(id(openIncident), "C1", "100.1");
  alerts.ensurePost(id(openIncident), "C2");
  alerts.recordFailure(id(openIncident), "C2", "not_in_channel");
  for (const incident of [resolvedDone, resolvedOwed, resolvedNeverPosted])
    alerts.ensurePost(id(incident), "C1");
  alerts.recordPosted(id(resolvedDone), "C1", "101.1");
  alerts.recordPosted(id(resolvedOwed), "C1", "102.1");
  alerts.applyChanges(
    [resolvedDone, resolvedOwed, resolvedNeverPosted].map((incident) => ({
      type: "resolve" as const,
      id: id(incident),
      at: start + 10,
      reason: "recovered" as const,
      wasOpen: true,
    })),
  );
  alerts.recordResolvedUpdate(id(resolvedDone), "C1");
  alerts.recordResolutionDone(id(resolvedDone), "C1");
  alerts.recordResolvedUpdate(id(resolvedOwed), "C1");

  alerts.mute("C1", "MUTEDUIT00000000", start + 3_600_000);
  alerts.mute("C1", "ENDEDUIT00000000", start - 1);

  const queued = tasks.create(newTask({ dedupeKey: "stops:U1" })).task.id;
  now += 1;
  const running = tasks.create(
    newTask({
      kind: "transport-start",
      params: { uit: "U9" },
      priority: "interactive",
      dedupeKey: "start:U9",
    }),
  ).task.id;
  tasks.markRunning(running);
  tasks.markStepSending(running, "start:U9");
  tasks.markStepDone(running, "load:U9", { found: true, at: start });
  tasks.setProgress(running, 1, 3);
  const finishedDelivered = tasks.create(newTask()).task.id;
  tasks.markStepDone(finishedDelivered, "add:X", { uit: "X" });
  tasks.finish(finishedDelivered, "done", { result: { rows: 1 } });
  tasks.markDelivered(finishedDelivered);
  const finishedUndelivered = tasks.create(newTask({ slackUser: "U2" })).task.id;
  tasks.finish(finishedUndelivered, "failed", { error: { kind: "fleet", message: "500" } });

  limits.save("https://fleet.example", "stops", { maxDays: 7, maxVehicles: 4 });
  limits.save("https://fleet.example", "way", {});

  // The audit trail goes whole, older than any task kept.
  audit.record([
    {
      id: "t0:start:AB12CD34EF56GH78",
      at: start - 200 * 86_400_000,
      account: "demo",
      slackUser: "U1",
      uit: "AB12CD34EF56GH78",
      action: "start",
      outcome: "success",
      taskId: "t0",
    },
    {
      id: "t1:end:AB12CD34EF56GH78",
      at: start - 1,
      account: "demo",
      uit: "AB12CD34EF56GH78",
      action: "end",
      outcome: "failure",
      code: "TransportNotStarted",
      message: "TransportNotStarted (AB12CD34EF56GH78)",
    },
  ]);

  db.close();
  return {
    dataDir,
    key,
    ids: {
      openIncident: id(openIncident),
      pendingIncident: id(pendingIncident),
      resolvedDone: id(resolvedDone),
      resolvedOwed: id(resolvedOwed),
      resolvedNeverPosted: id(resolvedNeverPosted),
      queued,
      running,
      finishedDelivered,
      finishedUndelivered,
    },
  };
}

/** The fixture's installations' secrets (not token-shaped: the fake Slack accepts any string). */
export const INSTALL_SECRETS = {
  north: "bot:T0NORTH-bot-token-0001",
  northRefresh: "refresh:T0NORTH-refresh-0001",
  northWebhook: "https://hooks.slack.test/services/T0NORTH/B0HOOK/webhook-secret-0001",
  org: "bot:E0CARRIER-org-token-0001",
  orgUser: "user:E0CARRIER-user-token-0001",
} as const;

/** A workspace install (with token rotation and an incoming webhook), as InstallProvider stores it. */
export const northInstall: Installation<"v2", false> = {
  team: { id: "T0NORTH", name: "Carrier North" },
  enterprise: undefined,
  user: { id: "U0INSTALLER", token: undefined, scopes: undefined },
  bot: {
    id: "B0NORTH",
    userId: "U0NORTHBOT",
    scopes: ["commands", "chat:write"],
    token: INSTALL_SECRETS.north,
    refreshToken: INSTALL_SECRETS.northRefresh,
    expiresAt: 1_800_000_000,
  },
  incomingWebhook: {
    url: INSTALL_SECRETS.northWebhook,
    channel: "#fleet",
    channelId: "C0FLEET",
    configurationUrl: "https://carrier-north.slack.test/services/B0HOOK",
  },
  tokenType: "bot",
  isEnterpriseInstall: false,
  appId: "A0FLEETBOT",
  authVersion: "v2",
};

/** An org-wide (Enterprise Grid) install: it serves every workspace of E0CARRIER. */
export const orgInstall: Installation<"v2", true> = {
  team: undefined,
  enterprise: { id: "E0CARRIER", name: "Carrier Group" },
  user: { id: "U0ORGADMIN", token: INSTALL_SECRETS.orgUser, scopes: ["identify"] },
  bot: { id: "B0CARRIER", userId: "U0CARRIERBOT", scopes: ["commands"], token: INSTALL_SECRETS.org },
  tokenType: "bot",
  isEnterpriseInstall: true,
  enterpriseUrl: "https://carrier-group.enterprise.slack.test/",
  appId: "A0FLEETBOT",
  authVersion: "v2",
};

/** Adds multi-workspace mode's installations to a fixture's store: T:T0NORTH and the org-wide E:E0CARRIER. */
export async function addInstallations(fixture: Fixture, at = NOW): Promise<void> {
  const db = openDatabase(fixture.dataDir);
  try {
    const store = new SqliteInstallationStore(db, fixture.key, () => at);
    await store.storeInstallation(northInstall);
    await store.storeInstallation(orgInstall);
  } finally {
    db.close();
  }
}

/** Every key of a prefix with its type and content, sorted: two equal dumps are equal Redis contents. */
export async function dumpRedis(redis: Redis, prefix: string): Promise<[string, string, unknown][]> {
  const keys = (await redis.keys(`${prefix}*`)).sort();
  const dump: [string, string, unknown][] = [];
  for (const name of keys) {
    const type = await redis.type(name);
    const content =
      type === "hash"
        ? Object.entries(await redis.hgetall(name)).sort()
        : type === "zset"
          ? await redis.zrange(name, 0, -1, "WITHSCORES")
          : type === "set"
            ? (await redis.smembers(name)).sort()
            : type === "string"
              ? await redis.get(name)
              : `unexpected type ${type}`;
    dump.push([name, type, content]);
  }
  return dump;
}
