import { z } from "zod";
import { LANGUAGES } from "../../i18n/language.js";
import type { Priority } from "../fleet/seam.js";
import type { WorkspaceKey } from "../workspaces/workspace.js";

/** Where the answer to a task goes: whatever Slack gave us when it was asked. */
export const replyTargetSchema = z.object({
  responseUrl: z.string().url().optional(),
  /** When the response_url was handed to us; it expires 30 minutes later. */
  responseUrlIssuedAt: z.number().optional(),
  responseUrlUses: z.number().int().nonnegative().optional(),
  channel: z.string().optional(),
  messageTs: z.string().optional(),
  threadTs: z.string().optional(),
  viewId: z.string().optional(),
  teamId: z.string().optional(),
  /**
   * Post the answer in `channel` for everyone (a created transport, a scheduled report), not only
   * to the user; its files then go to the channel too, under the post.
   */
  inChannel: z.boolean().optional(),
  /**
   * A line under the answer, already in the reply's language, written by whoever submitted the
   * task (a scheduled report's "scheduled by … · next run …").
   */
  footnote: z.string().max(500).optional(),
  /** Answer beside the clicked message instead of replacing it (a channel's alert stays as it is). */
  keepOriginal: z.boolean().optional(),
  /**
   * The clicked message is the user's list, which stays: no progress replaces it, only the
   * list re-rendered with the acted-on card in its new state (or an ending told above it).
   */
  listStays: z.boolean().optional(),
  /** Where the answer was posted with chat.postMessage: a card fleetbot can update later (an edit). */
  posted: z.object({ channel: z.string(), ts: z.string() }).optional(),
  /**
   * The clicked message is a card everyone in the channel sees: only the action's result
   * replaces it; progress, a failure or a cancel go to the clicking user beside it.
   */
  sharedCard: z.boolean().optional(),
  /**
   * The card in the list whose action this task runs (its actions block) and the action: while
   * it waits, the list is shown again with that card's place in the queue and estimate.
   */
  underWay: z.object({ blockId: z.string(), action: z.enum(["start", "pause", "end"]) }).optional(),
  /** Who cancelled the task: its waiting message then says so, with no button left. */
  cancelledBy: z.string().optional(),
  /** Times the answer was tried (counted before each try): a task is not re-sent for ever. */
  deliveryTries: z.number().int().nonnegative().optional(),
  /**
   * The language the asking user reads, resolved once when the task was asked: its progress,
   * answer and failure are rendered in it, even after a restart. Absent on tasks stored before
   * languages: the deployment's DEFAULT_LANGUAGE (RenderContext.defaultLanguage).
   */
  language: z.enum(LANGUAGES).optional(),
});
export type ReplyTarget = z.infer<typeof replyTargetSchema>;

export const TASK_STATES = ["queued", "running", "done", "failed", "cancelled"] as const;
export type TaskState = (typeof TASK_STATES)[number];

/**
 * What a failed task's error says, as a code and its parameters (never words: the reader's
 * language is known only when it is rendered, src/platform/slack/views/taskEnding.ts taskErrorText). Each
 * code's parameters:
 * - `etransport`: `errorCode` and `parameters` (string[]) of an e-Transport application failure;
 * - `credentials`: `username`, and `workspace: true` for the workspace's own account;
 * - `rule-max-vehicles`: `endpoint`, `max`, `given`; `rule-max-period`: `endpoint`, `days`;
 *   `rule`: `rule` (any other request rule), `endpoint`, and `subject` (RuleSubject) when it has one;
 * - `bad-request`, `application`: `reasons`, the service's codes and parameters as it sent them;
 * - the others none.
 */
export const TASK_ERROR_CODES = [
  "etransport",
  "internal",
  "credentials",
  "rule-max-vehicles",
  "rule-max-period",
  // Stored before rules carried a subject (now `rule` with subject `period` / `vehicles`): still read.
  "rule-period-order",
  "rule-empty-list",
  "rule-min-stationary-margin",
  "rule",
  "bad-request",
  "unauthorized-login",
  "unauthorized-password-changed",
  "unauthorized-expired",
  "unauthorized-vehicles",
  "unauthorized-access",
  "rate-limited",
  "application",
  "transport-timeout",
  "transport-network",
  "transport-http",
  "transport-malformed",
] as const;
export type TaskErrorCode = (typeof TASK_ERROR_CODES)[number];

const taskErrorParam = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

export const taskErrorSchema = z.object({
  kind: z.string(),
  /** A TaskErrorCode; a string, so a row written by a later version still reads. */
  code: z.string().optional(),
  params: z.record(z.string(), taskErrorParam).optional(),
  /** The English words of a row stored before codes: shown as they are. */
  message: z.string().optional(),
  correlationId: z.string().optional(),
  detail: z.unknown().optional(),
});
export type TaskError = z.infer<typeof taskErrorSchema>;

/**
 * Why a finished task's result is not in the store: it was too large to keep, or its bulk was
 * dropped a day after its answer was delivered (the task itself stays until retention).
 */
export const resultNotKeptSchema = z.object({
  reason: z.enum(["too-large", "expired"]),
  /** Size of the result's JSON when it was dropped. */
  bytes: z.number().int().nonnegative(),
  /** The result's top-level facts (its kind, totals) kept beside the marker. */
  summary: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});
export type ResultNotKept = z.infer<typeof resultNotKeptSchema>;

/** A task as stored: what a user asked, as data (never a closure), so a restart loses nothing. */
export const taskRecordSchema = z.object({
  id: z.string(),
  kind: z.string(),
  params: z.unknown(),
  account: z.string(),
  /**
   * The workspace the task was asked in (its Slack ids mean nothing elsewhere): "" in
   * single-workspace mode and for every task stored before multi-workspace mode.
   */
  workspace: z.string().default(""),
  slackUser: z.string().optional(),
  reply: replyTargetSchema,
  priority: z.enum(["interactive", "report", "background"]),
  state: z.enum(TASK_STATES),
  dedupeKey: z.string().optional(),
  progressDone: z.number().int(),
  progressTotal: z.number().int(),
  result: z.unknown().optional(),
  error: taskErrorSchema.optional(),
  /** Set instead of `result` when the result is no longer kept (renderers say so). */
  resultNotKept: resultNotKeptSchema.optional(),
  attempts: z.number().int(),
  createdAt: z.number(),
  updatedAt: z.number(),
  finishedAt: z.number().optional(),
  deliveredAt: z.number().optional(),
});
export type TaskRecord = z.infer<typeof taskRecordSchema>;

export interface NewTask {
  kind: string;
  params: unknown;
  account: string;
  /** The workspace it was asked in; absent: the single workspace (ONLY_WORKSPACE). */
  workspace?: WorkspaceKey;
  slackUser?: string;
  reply: ReplyTarget;
  priority: Priority;
  /** Two submissions with the same key while one is pending run once (double clicks, retries). */
  dedupeKey?: string;
}

/** What the Slack side shows while a task waits or runs. */
export interface TaskProgress {
  taskId: string;
  state: TaskState;
  /** Place of the task's next call in its account's queue (0 = next); undefined when not waiting. */
  position?: number;
  done: number;
  total: number;
  /** Estimated finish (epoch ms), from the gate's schedule. */
  expectedFinishAt?: number;
  /** The account's spacing between two calls (FLEET_MIN_INTERVAL_MS plus margin), for the wording. */
  slotMs?: number;
}

const parsedBySchema = new WeakMap<z.ZodType, WeakMap<object, z.ZodSafeParseResult<unknown>>>();

/**
 * A stored task's parameters through its kind's schema, parsed once per parameters object: one
 * record is read as its kind several times on the way to an ack (its plan, its description in
 * the progress message) and again at each progress update. Records are never changed in place.
 */
export function parseParams<T>(schema: z.ZodType<T>, params: unknown): z.ZodSafeParseResult<T> {
  if (typeof params !== "object" || params === null) return schema.safeParse(params);
  let parsed = parsedBySchema.get(schema);
  if (!parsed) {
    parsed = new WeakMap();
    parsedBySchema.set(schema, parsed);
  }
  const known = parsed.get(params);
  // Stored under this schema's key only, so the result is this schema's.
  if (known) return known as z.ZodSafeParseResult<T>;
  const result = schema.safeParse(params);
  parsed.set(params, result);
  return result;
}
