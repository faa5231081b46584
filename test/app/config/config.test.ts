import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/app/config.js";

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("loadConfig", () => {
  it("runs with no configuration at all: sandbox Slack, embedded simulator", () => {
    const config = loadConfig({});
    expect(config.slack.mode).toBe("sandbox");
    expect(config.fleet.apiUrl).toBeUndefined();
    expect(config.fleet.apiVersion).toBe("2.0");
    expect(config.fleet.minIntervalMs).toBe(30_000);
    expect(config.port).toBe(3000);
    expect(config.companyTimeZone).toBe("Europe/Bucharest");
    // The sandbox checks alerts every other 30 s slot, not on the production */5.
    expect(config.alerts.cron).toBe("0 * * * * *");
    expect(config.slack.apiUrl).toBe("https://slack.com/api/");
    expect(config.dataDir).toBe("./data");
    expect(config.logLevel).toBe("info");
    expect(config.taskRetentionDays).toBe(14);
  });

  it("reads TASK_RETENTION_DAYS as whole days, at least one", () => {
    expect(loadConfig({ TASK_RETENTION_DAYS: "30" }).taskRetentionDays).toBe(30);
    expect(problemsOf({ TASK_RETENTION_DAYS: "0" })).toEqual(["TASK_RETENTION_DAYS: must be at least 1"]);
    expect(problemsOf({ TASK_RETENTION_DAYS: "two weeks" })).toEqual([
      "TASK_RETENTION_DAYS: must be a whole number",
    ]);
  });

  it("reads AUDIT_RETENTION_DAYS as whole days (400 unless set), one clear line when invalid", () => {
    expect(loadConfig({}).auditRetentionDays).toBe(400);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: "3650" }).auditRetentionDays).toBe(3650);
    expect(problemsOf({ AUDIT_RETENTION_DAYS: "0" })).toEqual(["AUDIT_RETENTION_DAYS: must be at least 1"]);
    expect(problemsOf({ AUDIT_RETENTION_DAYS: "-5" })).toEqual(["AUDIT_RETENTION_DAYS: must be at least 1"]);
    expect(problemsOf({ AUDIT_RETENTION_DAYS: "a year" })).toEqual([
      "AUDIT_RETENTION_DAYS: must be a whole number",
    ]);
  });

  it("chooses multi-workspace mode with the OAuth settings, the signing secret and CREDENTIALS_KEY", () => {
    const config = loadConfig({
      SLACK_CLIENT_ID: "123.456",
      SLACK_CLIENT_SECRET: "client-secret-value",
      SLACK_STATE_SECRET: "state-secret-value",
      SLACK_SIGNING_SECRET: "s",
      CREDENTIALS_KEY: Buffer.alloc(32, 1).toString("base64"),
      SUPPORT_URL: "https://support.example.ro/fleetbot",
    });
    expect(config.slack.mode).toBe("multi");
    expect(config.slack.oauth?.clientId).toBe("123.456");
    expect(config.slack.supportUrl).toBe("https://support.example.ro/fleetbot");
    expect(config.slack.botToken).toBeUndefined();
  });

  it("refuses a bot token beside a client id, a missing multi-workspace setting, and the single-workspace settings, one line each, never echoing a secret", () => {
    const both = problemsOf({
      SLACK_BOT_TOKEN: "xoxb-1",
      SLACK_SIGNING_SECRET: "s",
      SLACK_CLIENT_ID: "123.456",
      SLACK_CLIENT_SECRET: "client-secret-value",
      SLACK_STATE_SECRET: "state-secret-value",
      CREDENTIALS_KEY: Buffer.alloc(32, 1).toString("base64"),
    });
    expect(both).toEqual([
      'SLACK_BOT_TOKEN: set together with SLACK_CLIENT_ID: choose one mode, a bot token for one workspace or the client id for "Add to Slack" installs',
    ]);
    const missing = problemsOf({ SLACK_CLIENT_ID: "123.456", SLACK_CLIENT_SECRET: "client-secret-value" });
    expect(missing).toEqual([
      "SLACK_STATE_SECRET: is required in multi-workspace mode (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET and SLACK_SIGNING_SECRET go together)",
      "SLACK_SIGNING_SECRET: is required in multi-workspace mode (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET and SLACK_SIGNING_SECRET go together)",
      "CREDENTIALS_KEY: is required in multi-workspace mode (SLACK_CLIENT_ID set): installations' tokens and fleet passwords are sealed with it",
    ]);
    const single = problemsOf({
      SLACK_CLIENT_ID: "123.456",
      SLACK_CLIENT_SECRET: "client-secret-value",
      SLACK_STATE_SECRET: "state-secret-value",
      SLACK_SIGNING_SECRET: "s",
      CREDENTIALS_KEY: Buffer.alloc(32, 1).toString("base64"),
      FLEET_USERNAME: "demo",
      FLEET_PASSWORD: "fleet-password-value",
      ALERTS_CHANNEL: "C0ALERTS",
      SANDBOX: "1",
    });
    expect(single.map((p) => p.split(":")[0])).toEqual([
      "FLEET_USERNAME",
      "FLEET_PASSWORD",
      "ALERTS_CHANNEL",
      "SANDBOX",
    ]);
    expect(single[0]).toContain("/fleet login workspace");
    const all = [...both, ...missing, ...single].join("\n");
    for (const secret of ["client-secret-value", "state-secret-value", "fleet-password-value"])
      expect(all).not.toContain(secret);
  });

  it("reads DEFAULT_LANGUAGE as en (default) or ro, one clear line otherwise", () => {
    expect(loadConfig({}).defaultLanguage).toBe("en");
    expect(loadConfig({ DEFAULT_LANGUAGE: " RO " }).defaultLanguage).toBe("ro");
    expect(problemsOf({ DEFAULT_LANGUAGE: "de" })).toEqual(["DEFAULT_LANGUAGE: must be en or ro"]);
  });

  it("chooses HTTP mode with a bot token and Socket Mode with an app token", () => {
    expect(loadConfig({ SLACK_BOT_TOKEN: "xoxb-1", SLACK_SIGNING_SECRET: "s" }).slack.mode).toBe("http");
    expect(loadConfig({ SLACK_BOT_TOKEN: "xoxb-1", SLACK_APP_TOKEN: "xapp-1" }).slack.mode).toBe("socket");
  });

  it("normalises URLs and decodes the credentials key", () => {
    const key = Buffer.alloc(32, 7).toString("base64");
    const config = loadConfig({
      SANDBOX: "1", // a real FLEET_API_URL with no Slack runs the sandbox only when asked for
      FLEET_API_URL: "https://fleet.example/",
      SLACK_API_URL: "http://127.0.0.1:9999/api",
      CREDENTIALS_KEY: key,
      FLEET_USERNAME: "ops",
      FLEET_PASSWORD: "pw",
    });
    expect(config.fleet.apiUrl).toBe("https://fleet.example");
    expect(config.slack.apiUrl).toBe("http://127.0.0.1:9999/api/");
    expect(config.credentialsKey?.length).toBe(32);
    expect(config.fleet.workspaceAccount).toEqual({ username: "ops", password: "pw" });
  });

  it("reports one line per problem and never echoes a secret", () => {
    const secret = "xoxp-user";
    const problems = problemsOf({
      SLACK_BOT_TOKEN: secret,
      PORT: "http",
      FLEET_MIN_INTERVAL_MS: "-5",
      COMPANY_TIMEZONE: "Mars/Olympus",
      ALERTS_CRON: "every five minutes",
      CREDENTIALS_KEY: "c2hvcnQ=",
      FLEET_USERNAME: "ops",
      LOG_LEVEL: "loud",
      ALERTS_CHANNEL: "#alerts",
      REDIS_URL: "http://redis",
    });
    const variables = problems.map((p) => p.split(":")[0]);
    expect(variables).toEqual(
      expect.arrayContaining([
        "SLACK_BOT_TOKEN",
        "PORT",
        "FLEET_MIN_INTERVAL_MS",
        "COMPANY_TIMEZONE",
        "ALERTS_CRON",
        "CREDENTIALS_KEY",
        "FLEET_PASSWORD",
        "LOG_LEVEL",
        "ALERTS_CHANNEL",
        "REDIS_URL",
      ]),
    );
    expect(problems.join("\n")).not.toContain(secret);
    expect(problems.join("\n")).not.toContain("c2hvcnQ=");
    expect(new Set(variables).size).toBe(variables.length);
  });

  it("accepts a redis:// or rediss:// REDIS_URL (the scale-out mode) and keeps it", () => {
    expect(problemsOf({ REDIS_URL: "redis://127.0.0.1:6379" })).toEqual([]);
    expect(loadConfig({ REDIS_URL: "rediss://cache.example:6380/2" }).redisUrl).toBe(
      "rediss://cache.example:6380/2",
    );
    expect(loadConfig({}).redisUrl).toBeUndefined();
  });

  it("needs a signing secret in HTTP mode and a bot token in Socket Mode", () => {
    expect(problemsOf({ SLACK_BOT_TOKEN: "xoxb-1" })).toEqual([
      "SLACK_SIGNING_SECRET: is required in HTTP mode (SLACK_BOT_TOKEN set, SLACK_APP_TOKEN not set)",
    ]);
    expect(problemsOf({ SLACK_APP_TOKEN: "xapp-1" })[0]).toMatch(/^SLACK_BOT_TOKEN:/);
  });
});
