import type { KnownBlock } from "@slack/types";
import { LogLevel, type Logger as SlackLogger, WebClient } from "@slack/web-api";
import type { Language } from "../../i18n/language.js";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../../platform/workspaces/workspace.js";
import type { IncidentRecord } from "./incidents.js";
import {
  type AlertDigest,
  type AlertGroupView,
  AlertPublishError,
  type AlertPublisher,
  type AlertsPausedNotice,
  type AlertTarget,
} from "./publisher.js";
import { groupedAlertMessage } from "./slack/views/alertGroups.js";
import { digestMessage } from "./slack/views/digest.js";
import { alertMessage } from "./slack/views/incidentMessage.js";
import type { AlertViewOptions } from "./slack/views/incidentText.js";
import { alertsPausedDirectMessage, alertsPausedMessage } from "./slack/views/paused.js";
import { resolvedAlertMessage, resolvedThreadReply } from "./slack/views/resolution.js";

export interface SlackAlertPublisherOptions {
  /**
   * The Web API client of the workspace an alert belongs to. Best made like createAlertWebClient:
   * it hands 429s back at once with their Retry-After, and the publisher waits them out itself
   * (bounded, and testable).
   */
  clientFor(workspace: WorkspaceKey): Promise<WebClient>;
  /** Zone of the date fallbacks in messages and digests (COMPANY_TIMEZONE); readers see their own. */
  timeZone?: string;
  /**
   * The language of a channel's alerts of a fleet account: the subscription's `lang=`, else the
   * workspace's default, else DEFAULT_LANGUAGE (main.ts). Asked once per post, edit or digest.
   * Default: English.
   */
  languageFor?: (post: AlertLanguageKey) => Language | Promise<Language>;
  /** A person's own language, for a direct message (their choice, their workspace's, …). Default: the channel's. */
  userLanguage?: (workspace: WorkspaceKey, userId: string) => Promise<Language>;
  now?: () => number;
  /** How a Retry-After is waited out (tests advance a virtual clock instead). */
  sleep?: (ms: number) => Promise<void>;
  /** Tries of one call while Slack answers 429 (default 6); past them the poll's rate limit applies. */
  rateLimitTries?: number;
  /** The longest Retry-After waited out (default 60 s); a longer one is left to the next poll. */
  maxRetryAfterMs?: number;
}

/**
 * Whether alerts can be posted in a channel; when not, Slack's error code (not_in_channel,
 * is_archived, channel_not_found, restricted_action, missing_scope): the Slack side words it
 * in the reader's language (views/alerts/subscriptionList.ts postFailureText).
 */
export type ChannelCheck = { ok: true } | { ok: false; code: string };

/** What names the subscription whose language a post is in. */
export interface AlertLanguageKey {
  workspace: WorkspaceKey;
  channel: string;
  /**
   * The fleet account of the incident (or digest): a channel has one subscription per account.
   * Absent for a post that names none (an empty group): the workspace's default then applies.
   */
  account?: string;
}

/**
 * A WebClient for alerts: a 429 comes back at once with its Retry-After (SlackAlertPublisher
 * waits and retries), other failures at once too (the poller retries next time). No retry of
 * a timeout: Slack may have posted it, and a post must never be repeated.
 */
export function createAlertWebClient(
  token: string,
  options: { slackApiUrl?: string; logger?: SlackLogger } = {},
): WebClient {
  return new WebClient(token, {
    ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
    ...(options.logger ? { logger: options.logger } : { logLevel: LogLevel.ERROR }),
    ...ALERT_CLIENT_OPTIONS,
  });
}

/** What makes a Web API client an alert client (createAlertWebClient; each workspace's alerts client). */
export const ALERT_CLIENT_OPTIONS = { rejectRateLimitedCalls: true, retryConfig: { retries: 0 } } as const;

/**
 * Slack's refusals that are the channel's (the bot not in it, archived, restricted): stored as
 * `channel:<code>` and worded for the reader by the Slack side
 * (views/alerts/subscriptionList.ts postFailureText).
 */
const CHANNEL_ERRORS: ReadonlySet<string> = new Set([
  "not_in_channel",
  "channel_not_found",
  "is_archived",
  "restricted_action",
  "missing_scope",
]);

/**
 * A Slack Web API error as an AlertPublishError: its failure and Slack's code are what is stored
 * (publisher.ts storedFailure); its message is for the log, never shown to a user.
 */
export function toPublishError(error: unknown): AlertPublishError {
  if (error instanceof AlertPublishError) return error;
  const e = error as { code?: string; data?: { error?: string }; retryAfter?: number; message?: string };
  if (e.code === "slack_webapi_rate_limited_error") {
    return new AlertPublishError(
      "ratelimited",
      `Slack rate limit (retry after ${e.retryAfter ?? "?"} s): retried on the next poll.`,
      "ratelimited",
      { cause: error },
    );
  }
  if (e.code === "slack_webapi_platform_error") {
    const code = e.data?.error ?? "unknown_error";
    if (code === "ratelimited") {
      return new AlertPublishError("ratelimited", "Slack rate limit: retried on the next poll.", code, {
        cause: error,
      });
    }
    if (CHANNEL_ERRORS.has(code)) {
      return new AlertPublishError("channel", `Slack refused the channel (${code}).`, code, { cause: error });
    }
    if (code === "message_not_found" || code === "cant_update_message") {
      return new AlertPublishError("message_gone", "The alert message was deleted.", code, { cause: error });
    }
    return new AlertPublishError("other", `Slack refused the message (${code}).`, code, { cause: error });
  }
  if (e.code === "slack_webapi_request_error" || e.code === "slack_webapi_http_error") {
    return new AlertPublishError("other", `Slack could not be reached (${e.message ?? e.code}).`, e.code, {
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new AlertPublishError("other", `Posting failed: ${message}`, undefined, { cause: error });
}

/**
 * Alerts in Slack: chat.postMessage, chat.update to resolved, and a thread reply; grouped
 * alerts (one message and a reply per member). Every call waits out Slack's Retry-After.
 */
export class SlackAlertPublisher implements AlertPublisher {
  private readonly timeZone: string | undefined;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly rateLimitTries: number;
  private readonly maxRetryAfterMs: number;

  private readonly clientFor: (workspace: WorkspaceKey) => Promise<WebClient>;
  private readonly languageFor: (post: AlertLanguageKey) => Language | Promise<Language>;
  private readonly userLanguage: SlackAlertPublisherOptions["userLanguage"];

  constructor(options: SlackAlertPublisherOptions) {
    this.clientFor = options.clientFor;
    this.userLanguage = options.userLanguage;
    this.languageFor = options.languageFor ?? (() => "en");
    this.timeZone = options.timeZone;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.rateLimitTries = Math.max(1, options.rateLimitTries ?? 6);
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  }

  /**
   * One Web API call, sent again after each 429's Retry-After (Slack allows about one message
   * per second per channel): a storm's posts all land, each once. A 429 means Slack took
   * nothing, so the retry cannot duplicate. Bounded: then the error goes to the poller.
   */
  private async send<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        const e = error as { code?: string; retryAfter?: number };
        const waitMs = Math.max(1, e.retryAfter ?? 1) * 1000;
        const retry =
          e.code === "slack_webapi_rate_limited_error" &&
          attempt < this.rateLimitTries &&
          waitMs <= this.maxRetryAfterMs;
        if (!retry) throw toPublishError(error);
        await this.sleep(waitMs);
      }
    }
  }

  /** The options of one post's views: its language resolved once, here. */
  private async viewOptions(target: AlertTarget, account: string | undefined): Promise<AlertViewOptions> {
    const language = await this.languageFor({
      workspace: target.workspace,
      channel: target.channel,
      ...(account === undefined ? {} : { account }),
    });
    const opts: AlertViewOptions = { nowMs: this.now(), language };
    if (this.timeZone !== undefined) opts.timeZone = this.timeZone;
    return opts;
  }

  /**
   * The Web API client of a workspace: every call goes through here, so choosing a client per
   * workspace (multi-workspace mode) changes this method only.
   */
  private async clientOf(workspace: WorkspaceKey): Promise<WebClient> {
    return this.clientFor(workspace);
  }

  async post(target: AlertTarget, incident: IncidentRecord): Promise<{ ts: string }> {
    const message = alertMessage(incident, target.channel, await this.viewOptions(target, incident.account));
    return this.postMessage(target, message);
  }

  async markResolved(target: AlertTarget, ts: string, incident: IncidentRecord): Promise<void> {
    const message = resolvedAlertMessage(incident, await this.viewOptions(target, incident.account));
    await this.update(target, ts, message);
  }

  async postGroup(target: AlertTarget, group: AlertGroupView): Promise<{ ts: string }> {
    const opts = await this.viewOptions(target, group.incidents[0]?.account);
    return this.postMessage(target, groupedAlertMessage(group, opts));
  }

  async updateGroup(target: AlertTarget, ts: string, group: AlertGroupView): Promise<void> {
    const opts = await this.viewOptions(target, group.incidents[0]?.account);
    await this.update(target, ts, groupedAlertMessage(group, opts));
  }

  /** A member's alert, buttons and all, as a reply in the group's thread. */
  async postInThread(
    target: AlertTarget,
    threadTs: string,
    incident: IncidentRecord,
  ): Promise<{ ts: string }> {
    const opts = await this.viewOptions(target, incident.account);
    return this.postMessage(target, alertMessage(incident, target.channel, opts), threadTs);
  }

  private async update(
    target: AlertTarget,
    ts: string,
    message: { text: string; blocks: readonly unknown[] },
  ): Promise<void> {
    const client = await this.clientOf(target.workspace);
    await this.send(() =>
      client.chat.update({
        channel: target.channel,
        ts,
        text: message.text,
        blocks: message.blocks as KnownBlock[],
      }),
    );
  }

  async replyResolved(
    target: AlertTarget,
    threadTs: string,
    incident: IncidentRecord,
  ): Promise<{ ts: string }> {
    const message = resolvedThreadReply(incident, await this.viewOptions(target, incident.account));
    return this.postMessage(target, message, threadTs);
  }

  async postDigest(target: AlertTarget, digest: AlertDigest): Promise<{ ts: string }> {
    const opts = await this.viewOptions(target, digest.account);
    return this.postMessage(
      target,
      digestMessage({
        ...digest,
        ...(opts.timeZone === undefined ? {} : { timeZone: opts.timeZone }),
        language: opts.language,
      }),
    );
  }

  async postPaused(target: AlertTarget, notice: AlertsPausedNotice): Promise<void> {
    const opts = await this.viewOptions(target, notice.account);
    await this.postMessage(target, alertsPausedMessage(notice, opts.language));
    if (notice.subscriber === undefined) return;
    const language = (await this.userLanguage?.(target.workspace, notice.subscriber)) ?? opts.language;
    // A direct message: posting to the user's id opens the bot's conversation with them.
    await this.postMessage(
      { workspace: target.workspace, channel: notice.subscriber },
      alertsPausedDirectMessage({ account: notice.account, channel: target.channel }, language),
    );
  }

  async postMessage(
    target: AlertTarget,
    message: { text: string; blocks: readonly unknown[] },
    threadTs?: string,
  ): Promise<{ ts: string }> {
    const client = await this.clientOf(target.workspace);
    const answer = await this.send(() =>
      client.chat.postMessage({
        channel: target.channel,
        text: message.text,
        // Our views build valid Block Kit (checked against Slack's limits in tests).
        blocks: message.blocks as KnownBlock[],
        unfurl_links: false,
        unfurl_media: false,
        ...(threadTs ? { thread_ts: threadTs } : {}),
      }),
    );
    if (!answer.ts) throw new AlertPublishError("other", "Slack answered without a message ts.");
    return { ts: answer.ts };
  }

  /**
   * Whether alerts can be posted in a channel (for `/fleet alerts subscribe`): public
   * channels work without joining (chat:write.public); private ones need an invitation.
   */
  async checkChannel(channel: string, workspace: WorkspaceKey = ONLY_WORKSPACE): Promise<ChannelCheck> {
    try {
      const client = await this.clientOf(workspace);
      const info = await client.conversations.info({ channel });
      const c = info.channel;
      if (c?.is_archived) return { ok: false, code: "is_archived" };
      if (c?.is_private && !c.is_member) return { ok: false, code: "not_in_channel" };
      return { ok: true };
    } catch (error) {
      const e = toPublishError(error);
      if (e.failure === "channel") return { ok: false, code: e.code ?? "channel_not_found" };
      // Cannot tell (rate limit, network): let the subscription through; failures show in `list`.
      return { ok: true };
    }
  }
}
