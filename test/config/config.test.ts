import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";

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

  it("refuses the contract's multi-workspace settings in one line (not in this version), never echoing the secret", () => {
    const problems = problemsOf({
      SLACK_BOT_TOKEN: "xoxb-1",
      SLACK_SIGNING_SECRET: "s",
      SLACK_CLIENT_ID: "123.456",
      SLACK_CLIENT_SECRET: "client-secret-value",
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^SLACK_CLIENT_ID, SLACK_CLIENT_SECRET: multi-workspace mode/);
    expect(problems.join("\n")).not.toContain("client-secret-value");
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
