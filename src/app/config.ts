import { randomBytes } from "node:crypto";
import cron from "node-cron";
import { z } from "zod";
import { isTimeZone } from "../platform/time/zone.js";

/**
 * fleetbot's configuration: every variable of CONTRACT.md (and a few tuning knobs the
 * README documents), parsed once at start. An invalid setting stops the start with one
 * line per problem; the lines name the variable, never echo a secret's value.
 */

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const blankToUndefined = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

const optionalString = z.preprocess(blankToUndefined, z.string().trim().optional());

const integer = (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: "must be a whole number" })
      .int({ error: "must be a whole number" })
      .min(min, { error: `must be at least ${min}` })
      .max(max, { error: `must be at most ${max}` })
      .default(fallback),
  );

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

const envSchema = z.object({
  SLACK_BOT_TOKEN: optionalString.refine((v) => v === undefined || /^xoxb-/.test(v), {
    error: "must be a bot token starting with xoxb-",
  }),
  SLACK_SIGNING_SECRET: optionalString,
  SLACK_CLIENT_ID: optionalString,
  SLACK_CLIENT_SECRET: optionalString,
  SLACK_STATE_SECRET: optionalString,
  SUPPORT_URL: optionalString.refine((v) => v === undefined || /^(https?:\/\/|mailto:)\S+$/.test(v), {
    error: "must be an https:// (or http://) address or a mailto: link",
  }),
  SLACK_APP_TOKEN: optionalString.refine((v) => v === undefined || /^xapp-/.test(v), {
    error: "must be an app-level token starting with xapp-",
  }),
  SLACK_API_URL: z.preprocess(
    blankToUndefined,
    httpUrl.default("https://slack.com/api/").transform((u) => (u.endsWith("/") ? u : `${u}/`)),
  ),
  PORT: integer(3000, 0, 65535),
  FLEET_API_URL: z.preprocess(blankToUndefined, httpUrl.transform((u) => u.replace(/\/+$/, "")).optional()),
  FLEET_API_VERSION: z.preprocess(blankToUndefined, z.string().trim().default("2.0")),
  FLEET_USERNAME: optionalString,
  FLEET_PASSWORD: z.preprocess(blankToUndefined, z.string().optional()),
  FLEET_MIN_INTERVAL_MS: integer(30_000, 0),
  /** Added to every interval so clock skew between us and the service never yields a 429. */
  FLEET_SAFETY_MARGIN_MS: integer(250, 0),
  FLEET_TIMEOUT_MS: integer(30_000, 100),
  VEHICLE_CACHE_TTL_MS: integer(15 * 60_000, 0),
  /** Failed link attempts (wrong passwords) per fleet user name, all workspaces together, per window. */
  LINK_FAILURE_LIMIT: integer(5, 1, 1000),
  LINK_FAILURE_WINDOW_MS: integer(15 * 60_000, 1),
  COMPANY_TIMEZONE: z.preprocess(
    blankToUndefined,
    z
      .string()
      .default("Europe/Bucharest")
      .refine(isTimeZone, { error: "must be an IANA time zone such as Europe/Bucharest" }),
  ),
  ALERTS_CRON: z.preprocess(
    blankToUndefined,
    z
      .string()
      .default("*/5 * * * *")
      .refine((expr) => cron.validate(expr), {
        error: "must be a cron expression such as */5 * * * * (a seconds field is allowed)",
      }),
  ),
  /** Optional daily digest per subscribed channel (off when unset), e.g. "0 8 * * 1-5". */
  ALERTS_DIGEST_CRON: z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine((expr) => cron.validate(expr), { error: "must be a cron expression such as 0 8 * * 1-5" })
      .optional(),
  ),
  ALERTS_CHANNEL: optionalString.refine((v) => v === undefined || /^[CG][A-Z0-9]{6,}$/.test(v), {
    error: "must be a channel id such as C0123456789 (not a #name)",
  }),
  /** More alerts than this for one channel in one sweep are posted as one grouped alert. */
  ALERTS_GROUP_OVER: integer(5, 1, 1000),
  DATA_DIR: z.preprocess(blankToUndefined, z.string().default("./data")),
  /** Finished tasks (and their results) are deleted after this many days. */
  TASK_RETENTION_DAYS: integer(14, 1, 3650),
  /** The audit trail of transport changes is deleted after this many days. */
  AUDIT_RETENTION_DAYS: integer(400, 1, 36500),
  REDIS_URL: z.preprocess(
    blankToUndefined,
    z.url({ protocol: /^rediss?$/, error: "must be a redis:// or rediss:// URL" }).optional(),
  ),
  CREDENTIALS_KEY: optionalString.refine(
    (v) => v === undefined || (/^[A-Za-z0-9+/]+={0,2}$/.test(v) && Buffer.from(v, "base64").length === 32),
    { error: "must be 32 bytes in base64 (for example: openssl rand -base64 32)" },
  ),
  /** The sandbox page: (auto) with no Slack on the embedded simulator, 1 also on a real FLEET_API_URL, 0 never. */
  SANDBOX: z.preprocess(
    blankToUndefined,
    z
      .enum(["0", "1"], { error: "must be 1 (run the sandbox page) or 0 (never); unset: automatic" })
      .optional(),
  ),
  LOG_LEVEL: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toLowerCase() || undefined : v),
    z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
  ),
  DEFAULT_LANGUAGE: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toLowerCase() || undefined : v),
    z.enum(["en", "ro"], { error: "must be en or ro" }).default("en"),
  ),
});

export type Env = z.infer<typeof envSchema>;

/** Settings that are valid alone but not together; checked on the raw values so every problem is listed at once. */
function combinationProblems(env: NodeJS.ProcessEnv): string[] {
  const isSet = (name: string) => (env[name]?.trim() ?? "") !== "";
  const problems: string[] = [];
  if (isSet("FLEET_USERNAME") !== isSet("FLEET_PASSWORD")) {
    const missing = isSet("FLEET_USERNAME") ? "FLEET_PASSWORD" : "FLEET_USERNAME";
    problems.push(`${missing}: FLEET_USERNAME and FLEET_PASSWORD go together: set both or neither`);
  }
  if (isSet("SLACK_BOT_TOKEN") && !isSet("SLACK_APP_TOKEN") && !isSet("SLACK_SIGNING_SECRET")) {
    problems.push(
      "SLACK_SIGNING_SECRET: is required in HTTP mode (SLACK_BOT_TOKEN set, SLACK_APP_TOKEN not set)",
    );
  }
  if (isSet("SLACK_APP_TOKEN") && !isSet("SLACK_BOT_TOKEN")) {
    problems.push("SLACK_BOT_TOKEN: is required with SLACK_APP_TOKEN (Socket Mode needs both tokens)");
  }
  problems.push(...multiWorkspaceProblems(isSet));
  problems.push(...sandboxProblems(env, isSet));
  return problems;
}

/**
 * Multi-workspace mode (SLACK_CLIENT_ID): workspaces install fleetbot through OAuth, each sets its
 * own fleet account and channels inside Slack, and their tokens and passwords are sealed at rest.
 */
function multiWorkspaceProblems(isSet: (name: string) => boolean): string[] {
  const oauth = ["SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET", "SLACK_STATE_SECRET"];
  if (!oauth.some(isSet)) return [];
  const problems = [...oauth, "SLACK_SIGNING_SECRET", "CREDENTIALS_KEY"]
    .filter((name) => !isSet(name))
    .map((name) =>
      name === "CREDENTIALS_KEY"
        ? "CREDENTIALS_KEY: is required in multi-workspace mode (SLACK_CLIENT_ID set): installations' tokens and fleet passwords are sealed with it"
        : `${name}: is required in multi-workspace mode (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET and SLACK_SIGNING_SECRET go together)`,
    );
  for (const token of ["SLACK_BOT_TOKEN", "SLACK_APP_TOKEN"].filter(isSet)) {
    problems.push(
      `${token}: set together with SLACK_CLIENT_ID: choose one mode, a bot token for one workspace or the client id for "Add to Slack" installs`,
    );
  }
  const perWorkspace: Record<string, string> = {
    FLEET_USERNAME: "each workspace sets its own fleet account in Slack with /fleet login workspace",
    FLEET_PASSWORD: "each workspace sets its own fleet account in Slack with /fleet login workspace",
    ALERTS_CHANNEL: "each workspace subscribes its own channels with /fleet alerts subscribe",
  };
  for (const [name, why] of Object.entries(perWorkspace))
    if (isSet(name))
      problems.push(`${name}: is a single-workspace setting, refused in multi-workspace mode: ${why}`);
  return problems;
}

/**
 * The sandbox page drives the fleet account with no Slack sign-in, so it runs on a real fleet
 * service only when asked for by name (SANDBOX=1), and never beside a real Slack.
 */
function sandboxProblems(env: NodeJS.ProcessEnv, isSet: (name: string) => boolean): string[] {
  const sandbox = env.SANDBOX?.trim();
  const slack = isSet("SLACK_BOT_TOKEN") || isSet("SLACK_APP_TOKEN") || isSet("SLACK_CLIENT_ID");
  if (slack && sandbox === "1") {
    return ["SANDBOX: =1 runs the local sandbox page instead of Slack: unset SANDBOX or the SLACK_* tokens"];
  }
  if (slack) return [];
  if (sandbox === "0") {
    return [
      "SANDBOX: is 0 and no Slack is configured: set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (or SLACK_BOT_TOKEN and SLACK_APP_TOKEN for Socket Mode)",
    ];
  }
  if (sandbox !== "1" && isSet("FLEET_API_URL")) {
    return [
      "SANDBOX: no Slack is configured and FLEET_API_URL is a real fleet service: set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (or SLACK_APP_TOKEN) to connect Slack, or SANDBOX=1 to run the local sandbox page against it (127.0.0.1 only)",
    ];
  }
  return [];
}

/** `multi`: HTTP, workspaces install through OAuth ("Add to Slack"); `http`/`socket`: one workspace's bot token. */
export type SlackMode = "socket" | "http" | "multi" | "sandbox";

export interface Config {
  slack: {
    mode: SlackMode;
    botToken?: string;
    signingSecret?: string;
    appToken?: string;
    apiUrl: string;
    /** Where users get help (the public pages, the App Home, the install DM); optional. */
    supportUrl?: string;
    /** Multi-workspace mode: the app's OAuth credentials (installs through /slack/install). */
    oauth?: { clientId: string; clientSecret: string; stateSecret: string };
  };
  port: number;
  fleet: {
    /** Undefined: the embedded simulator stands in for the fleet service. */
    apiUrl?: string;
    apiVersion: string;
    workspaceAccount?: { username: string; password: string };
    minIntervalMs: number;
    safetyMarginMs: number;
    timeoutMs: number;
    vehicleCacheTtlMs: number;
    /**
     * Failed link logins allowed per fleet user name across all workspaces in `windowMs`
     * (LINK_FAILURE_LIMIT, LINK_FAILURE_WINDOW_MS; see LinkFailures for why 5 in 15 minutes).
     */
    linkFailures: { limit: number; windowMs: number };
  };
  companyTimeZone: string;
  /** groupOver: more alerts than this for one channel in one sweep are one grouped alert. */
  alerts: { cron: string; digestCron?: string; channel?: string; groupOver: number };
  dataDir: string;
  /** Scale-out mode: shared state, queue and gate in Redis (several replicas). */
  redisUrl?: string;
  /** Days a finished task (and its result) is kept; resolved incidents are kept 30 days. */
  taskRetentionDays: number;
  /** Days an audit entry (who changed which transport, when, the service's answer) is kept. */
  auditRetentionDays: number;
  /** 32-byte key for AES-256-GCM of stored fleet passwords. */
  credentialsKey?: Buffer;
  /**
   * The sandbox (no Slack) made `credentialsKey` up for this run because CREDENTIALS_KEY is not set,
   * so linking can be tried there; accounts linked with it cannot be read after a restart.
   */
  credentialsKeyThrowaway: boolean;
  logLevel: (typeof LOG_LEVELS)[number];
  /** DEFAULT_LANGUAGE; this version answers in English only (main.ts warns when `ro` is asked). */
  defaultLanguage: "en" | "ro";
}

/**
 * Sweep slots per sandbox alert check: one load-transports (the demo fleet is one page) every
 * other FLEET_MIN_INTERVAL_MS slot. Alerts outrank reports in the gate, so a sweep in every
 * slot would leave none for the user's own reports.
 */
export const SANDBOX_SWEEP_SLOTS = 2;

/**
 * ALERTS_CRON of the sandbox when it is not set: every SANDBOX_SWEEP_SLOTS intervals (60 s at
 * the default 30 s), rounded up to a step that divides the minute or the hour so ticks stay even.
 */
export function sandboxAlertsCron(minIntervalMs: number): string {
  const seconds = Math.max(1, Math.ceil((SANDBOX_SWEEP_SLOTS * minIntervalMs) / 1000));
  const evenStep = (wanted: number) => [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60].find((d) => d >= wanted);
  const secondStep = evenStep(seconds);
  if (secondStep === 1) return "* * * * * *";
  if (secondStep !== undefined && secondStep < 60) return `*/${secondStep} * * * * *`;
  const minuteStep = evenStep(Math.ceil(seconds / 60));
  if (minuteStep === 1) return "0 * * * * *";
  return minuteStep === undefined || minuteStep === 60 ? "0 0 * * * *" : `0 */${minuteStep} * * * *`;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Parses the environment; throws ConfigError with one line per problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  // One line per problem, naming the variable; the messages never contain the value.
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join(".") || "environment"}: ${issue.message}`);
  problems.push(...combinationProblems(env));
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const mode: SlackMode = e.SLACK_APP_TOKEN
    ? "socket"
    : e.SLACK_BOT_TOKEN
      ? "http"
      : e.SLACK_CLIENT_ID
        ? "multi"
        : "sandbox";
  return {
    slack: {
      mode,
      botToken: e.SLACK_BOT_TOKEN,
      signingSecret: e.SLACK_SIGNING_SECRET,
      appToken: e.SLACK_APP_TOKEN,
      apiUrl: e.SLACK_API_URL,
      ...(e.SUPPORT_URL ? { supportUrl: e.SUPPORT_URL } : {}),
      ...(e.SLACK_CLIENT_ID && e.SLACK_CLIENT_SECRET && e.SLACK_STATE_SECRET
        ? {
            oauth: {
              clientId: e.SLACK_CLIENT_ID,
              clientSecret: e.SLACK_CLIENT_SECRET,
              stateSecret: e.SLACK_STATE_SECRET,
            },
          }
        : {}),
    },
    port: e.PORT,
    fleet: {
      apiUrl: e.FLEET_API_URL,
      apiVersion: e.FLEET_API_VERSION,
      workspaceAccount:
        e.FLEET_USERNAME !== undefined && e.FLEET_PASSWORD !== undefined
          ? { username: e.FLEET_USERNAME, password: e.FLEET_PASSWORD }
          : undefined,
      minIntervalMs: e.FLEET_MIN_INTERVAL_MS,
      safetyMarginMs: e.FLEET_SAFETY_MARGIN_MS,
      timeoutMs: e.FLEET_TIMEOUT_MS,
      vehicleCacheTtlMs: e.VEHICLE_CACHE_TTL_MS,
      linkFailures: { limit: e.LINK_FAILURE_LIMIT, windowMs: e.LINK_FAILURE_WINDOW_MS },
    },
    companyTimeZone: e.COMPANY_TIMEZONE,
    alerts: {
      // The sandbox on the embedded simulator checks as often as the service allows, unless told otherwise.
      cron:
        mode === "sandbox" && !e.FLEET_API_URL && !env.ALERTS_CRON?.trim()
          ? sandboxAlertsCron(e.FLEET_MIN_INTERVAL_MS)
          : e.ALERTS_CRON,
      digestCron: e.ALERTS_DIGEST_CRON,
      channel: e.ALERTS_CHANNEL,
      groupOver: e.ALERTS_GROUP_OVER,
    },
    dataDir: e.DATA_DIR,
    ...(e.REDIS_URL ? { redisUrl: e.REDIS_URL } : {}),
    taskRetentionDays: e.TASK_RETENTION_DAYS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    credentialsKey: e.CREDENTIALS_KEY
      ? Buffer.from(e.CREDENTIALS_KEY, "base64")
      : mode === "sandbox"
        ? randomBytes(32)
        : undefined,
    credentialsKeyThrowaway: !e.CREDENTIALS_KEY && mode === "sandbox",
    logLevel: e.LOG_LEVEL,
    defaultLanguage: e.DEFAULT_LANGUAGE,
  };
}
