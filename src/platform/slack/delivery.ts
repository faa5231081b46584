import { createHash } from "node:crypto";
import type { View } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import { request } from "undici";
import { messages } from "../../i18n/catalogue.js";
import type { Language } from "../../i18n/language.js";
import type { TaskRepository } from "../store/contract/index.js";
import type { SharedState } from "../store/sharedState.js";
import type { TaskRunner } from "../tasks/runner.js";
import type { ReplyTarget, TaskProgress, TaskRecord } from "../tasks/task.js";
import { zoneWasGuessed } from "../tasks/zoneNote.js";
import { withTimeout } from "../time/withTimeout.js";
import { WorkspaceGoneError, type WorkspaceKey } from "../workspaces/workspace.js";
import type { OutgoingFile, Rendered } from "./rendered.js";
import { taskLanguage } from "./rendering/renderContext.js";
import type { StaleAnswerRefresh, StoredAnswers, UnderWay } from "./rendering/storedAnswers.js";
import { responseUrlAllowed } from "./responseUrlPolicy.js";
import { RESPONSE_URL_USES, takeResponseUrlUse } from "./responseUrlUses.js";
import type { SlackMessage } from "./views/message.js";
import { progressMessage, progressPhrase } from "./views/progress.js";
import { statusModal } from "./views/statusModal.js";

/** How many of the account's last tasks a change looks through for earlier answers it made stale. */
const RECENT_TASKS_FOR_CARDS = 200;

/** Tries of one answer (across restarts) before it is given up and marked delivered. */
const MAX_DELIVERY_TRIES = 3;

/**
 * Slack errors that the same payload will get again at every try (chat.postMessage,
 * files.*, response_url): the answer is replaced once by a plain short message instead.
 */
const PERMANENT_SLACK_ERRORS = new Set([
  "invalid_blocks",
  "invalid_blocks_format",
  "invalid_attachments",
  "msg_too_long",
  "msg_blocks_too_long",
  "too_many_attachments",
  "no_text",
  "invalid_arguments",
  "invalid_payload",
  "channel_not_found",
  "not_in_channel",
  "is_archived",
  "restricted_action",
  "restricted_action_read_only_channel",
  "restricted_action_thread_only_channel",
  "restricted_action_non_threadable_channel",
  "cannot_dm_bot",
  "user_not_found",
  "user_disabled",
  "account_inactive",
  "file_uploads_disabled",
  "file_upload_size_restricted",
]);

/** The Slack error code of a Web API failure (`error.data.error`), if it is one. */
function slackErrorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("data" in error)) return undefined;
  const data = error.data;
  if (typeof data !== "object" || data === null || !("error" in data)) return undefined;
  return typeof data.error === "string" ? data.error : undefined;
}

/** A delivery Slack refused for good (the payload, the channel or the user), with Slack's code. */
export class PermanentDeliveryError extends Error {
  constructor(
    readonly code: string,
    readonly stage: "answer" | "files",
  ) {
    super(`Slack refused the ${stage}: ${code}`);
    this.name = "PermanentDeliveryError";
  }
}

/** Slack's limit of blocks in one message. */
const MAX_BLOCKS = 50;

/**
 * The task's zone note (its times are in the company zone because Slack did not say the
 * user's, tasks/handlers/userZone.ts) under the answer, in the task's language.
 */
function withZoneNote(rendered: Rendered, task: TaskRecord, language: Language): Rendered {
  if (!zoneWasGuessed(task.params)) return rendered;
  const { timeZone, zoneNote } = task.params as { timeZone?: unknown; zoneNote?: unknown };
  // Worded in the reader's language; an old row without its zone keeps the words it stored.
  const note =
    typeof timeZone === "string"
      ? messages(language).common.zoneGuessed({ zone: timeZone })
      : String(zoneNote);
  const { message } = rendered;
  if (message.blocks.length === 0 || message.blocks.length >= MAX_BLOCKS)
    return { ...rendered, message: { ...message, text: `${message.text}\n_${note}_` } };
  return {
    ...rendered,
    message: {
      ...message,
      blocks: [...message.blocks, { type: "context", elements: [{ type: "mrkdwn", text: `_${note}_` }] }],
    },
  };
}

/** The submitter's footnote (ReplyTarget.footnote) under the answer, as a context line. */
function withFootnote(rendered: Rendered, task: TaskRecord): Rendered {
  const note = task.reply.footnote;
  if (!note) return rendered;
  const { message } = rendered;
  if (message.blocks.length === 0 || message.blocks.length >= MAX_BLOCKS)
    return { ...rendered, message: { ...message, text: `${message.text}\n${note}` } };
  return {
    ...rendered,
    message: {
      ...message,
      blocks: [...message.blocks, { type: "context", elements: [{ type: "mrkdwn", text: note }] }],
    },
  };
}

/**
 * Whether the answer replaces the message the task's response_url belongs to. A failure is told
 * to the user alone: it never replaces a card others see; in the user's own list it is told above
 * the list re-rendered. A cancel replaces the waiting message (its Cancel button goes with it),
 * never a card others see.
 */
function replacesOriginal(task: TaskRecord): boolean {
  if (task.reply.keepOriginal) return false;
  switch (task.state) {
    case "done":
      return true;
    case "cancelled":
      return task.reply.sharedCard !== true;
    case "failed":
      return task.reply.listStays === true;
    default:
      return false;
  }
}

function permanentRefusal(error: unknown): PermanentDeliveryError | undefined {
  return error instanceof PermanentDeliveryError ? error : undefined;
}

/** Slack's response_url lives 30 minutes (we stop a minute early); its five uses: see responseUrlUses.ts. */
const RESPONSE_URL_LIFETIME_MS = 29 * 60_000;

export interface TaskDeliveryOptions {
  /**
   * The Web API client of the workspace a task belongs to (its installation's token in
   * multi-workspace mode). Rejects when the workspace is gone: the answer is then given up.
   */
  clientFor(workspace: WorkspaceKey): Promise<WebClient>;
  store: TaskRepository;
  runner: Pick<TaskRunner<unknown>, "on" | "markDelivered">;
  render(task: TaskRecord): Promise<Rendered>;
  /**
   * A kind's hooks (src/features/renderRegistry.ts), so that delivery names no kind: the message
   * to show while a task waits with a card under way, and how a done task's answer refreshes the
   * earlier answers it changed. Undefined from either: nothing beyond the usual.
   */
  underWayMessage(
    task: TaskRecord,
    underWay: UnderWay,
    phrase: () => string,
    language: Language,
    answers: StoredAnswers,
  ): Promise<SlackMessage | undefined>;
  staleAnswerRefresh(task: TaskRecord): StaleAnswerRefresh | undefined;
  /** A task's one-line description in `language` (describeTask). */
  describe(task: TaskRecord, language: Language): string;
  /**
   * DEFAULT_LANGUAGE: the language of a task stored before languages (its reply names none).
   * Progress, refusal notices and the status modal are in the task's language (taskLanguage).
   */
  defaultLanguage: Language;
  logger: Pick<Logger, "warn" | "info" | "debug" | "error">;
  now?: () => number;
  /** Least time between two progress updates of one message. */
  progressEveryMs?: number;
  /** How long an answer waits for the listener's ack before going out anyway. */
  ackWaitMs?: number;
  /** Redis mode: response_url uses counted across replicas (the task's own count still applies). */
  responseUrlUses?: SharedState;
  /** SLACK_API_URL: its host may serve response URLs (besides Slack's own; see responseUrlPolicy). */
  slackApiUrl?: string;
  /**
   * Redis mode: where a pending ack is marked, so that the replica that runs a task (maybe not
   * the one that acknowledged it) holds its answer back too.
   */
  ackMarks?: SharedState;
}

/** A held answer: released once the listener's ack is sent. */
export interface AckHold {
  /** `taskId`: the task the ack was for (its ack counts as the task's first progress update). */
  release(taskId?: string): void;
}

/** Progress bookkeeping beyond this many tasks is dropped, oldest first (see rememberProgress). */
const MAX_PROGRESS_ENTRIES = 10_000;

/**
 * Where an ack and a later answer would collide: the response_url (a command, a button) or the
 * modal (a form). Known before the task is stored, so the hold is in place before any replica
 * can start the task. Answers with neither (a DM) cannot be overwritten by the ack.
 */
export function ackPlaceOf(reply: ReplyTarget): string | undefined {
  const place = reply.responseUrl ?? (reply.viewId ? `view:${reply.viewId}` : undefined);
  return place === undefined ? undefined : `pending-ack:${createHash("sha256").update(place).digest("hex")}`;
}

/**
 * Gets every task's progress and answer to where the user asked: the response_url while
 * it lasts (replacing the "queued" message in place), else a direct message. Progress
 * updates are spaced and keep one response_url use for the answer.
 */
export class TaskDelivery {
  private readonly now: () => number;
  private readonly lastProgress = new Map<string, { at: number; key: string }>();
  /** Progress posts under way per task: the answer waits for them (same response_url, replace_original). */
  private readonly progressPosts = new Map<string, Promise<unknown>>();
  /** Acks not yet sent in this process, by ackPlaceOf. */
  private readonly acks = new Map<string, { promise: Promise<void>; release: () => void }>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private detach?: () => void;

  constructor(private readonly options: TaskDeliveryOptions) {
    this.now = options.now ?? Date.now;
  }

  attach(): void {
    this.detach = this.options.runner.on({
      progress: (progress, task) => {
        // Remembered until sent: the answer waits for it, so a late progress post cannot overwrite the answer.
        const post = this.onProgress(progress, task);
        const pending = Promise.allSettled([this.progressPosts.get(task.id), post]);
        this.progressPosts.set(task.id, pending);
        void pending.finally(() => {
          if (this.progressPosts.get(task.id) === pending) this.progressPosts.delete(task.id);
        });
        this.track(post);
      },
      finished: (task) => this.track(this.onFinished(task)),
    });
  }

  stop(): void {
    this.detach?.();
  }

  /** Resolves when every update under way has been sent (tests). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Holds the answer to `reply`'s place until the listener has acknowledged Slack: an answer
   * sent through the response_url (or a views.update) before the ack would be overwritten by
   * the ack's message. Taken before the task is stored; in Redis mode the mark is shared (for
   * at most ackWaitMs), so a task run by another replica waits for this replica's ack too.
   */
  async holdUntilAck(reply: ReplyTarget): Promise<AckHold> {
    const place = ackPlaceOf(reply);
    if (place === undefined) return { release: (taskId) => taskId && this.ackCountsAsProgress(taskId) };
    let release = () => {};
    const promise = new Promise<void>((resolve) => {
      release = resolve;
    });
    const local = { promise, release };
    this.acks.set(place, local);
    const shared = this.options.ackMarks;
    // Unreachable Redis: the store is on it too, so the submit fails and the user is told.
    if (shared) await shared.mark(place, this.ackWaitMs()).catch(() => undefined);
    return {
      release: (taskId) => {
        local.release();
        if (this.acks.get(place) === local) this.acks.delete(place);
        if (shared) void shared.unmark(place).catch(() => undefined);
        if (taskId) this.ackCountsAsProgress(taskId);
      },
    };
  }

  /**
   * The ack showed the task's place and estimate: it counts as the first progress update, so the
   * next one waits progressEveryMs instead of repeating it at once (one response_url use less).
   */
  private ackCountsAsProgress(taskId: string): void {
    if (!this.lastProgress.has(taskId)) this.rememberProgress(taskId, { at: this.now(), key: "ack" });
  }

  /**
   * Bounded: a task finished by another replica never clears its entry here, and an entry is of
   * no use once its response_url has expired; past the bound the oldest go first.
   */
  private rememberProgress(taskId: string, entry: { at: number; key: string }): void {
    this.lastProgress.delete(taskId);
    this.lastProgress.set(taskId, entry);
    if (this.lastProgress.size <= MAX_PROGRESS_ENTRIES) return;
    const expired = this.now() - RESPONSE_URL_LIFETIME_MS;
    for (const [id, { at }] of this.lastProgress) {
      if (this.lastProgress.size <= MAX_PROGRESS_ENTRIES && at >= expired) break;
      this.lastProgress.delete(id);
    }
  }

  /** Progress entries kept (tests of the bound). */
  get progressEntries(): number {
    return this.lastProgress.size;
  }

  private ackWaitMs(): number {
    return this.options.ackWaitMs ?? 3_000;
  }

  /**
   * Whether an ack to `reply`'s place is still on its way, here or (Redis mode) on another
   * replica. The mark is taken just before the task is stored and lives at most ackWaitMs, so
   * a task older than that (plus a second for clocks) asks Redis nothing.
   */
  private async ackPending(reply: ReplyTarget, createdAt: number): Promise<boolean> {
    const place = ackPlaceOf(reply);
    if (place === undefined) return false;
    if (this.acks.has(place)) return true;
    if (this.now() - createdAt > this.ackWaitMs() + 1_000) return false;
    return (await this.options.ackMarks?.isMarked(place).catch(() => false)) ?? false;
  }

  /** Waits until the ack to `reply`'s place is out, at most ackWaitMs. */
  private async waitForAck(reply: ReplyTarget, createdAt: number): Promise<void> {
    const place = ackPlaceOf(reply);
    if (place === undefined) return;
    const local = this.acks.get(place);
    if (local) {
      await withTimeout(local.promise, this.ackWaitMs(), undefined);
      return;
    }
    // Another replica's ack: its mark goes when the ack is sent (or lapses with ackWaitMs).
    const deadline = this.now() + this.ackWaitMs();
    while (this.now() < deadline && (await this.ackPending(reply, createdAt))) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Sends a message to where the task was asked; `replace` replaces the message the response_url belongs to. */
  async send(
    task: TaskRecord,
    message: SlackMessage,
    replace = true,
  ): Promise<"response_url" | "dm" | "channel"> {
    const reply = (await this.options.store.get(task.id))?.reply ?? task.reply;
    if (this.canUseResponseUrl(reply)) {
      const ok = await this.postResponseUrl(
        task.id,
        reply,
        { ...message, replace_original: replace, response_type: "ephemeral" },
        RESPONSE_URL_USES,
      );
      if (ok) return "response_url";
    }
    return this.sendDirect(task, message);
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) =>
      this.options.logger.error({ err: error }, "delivery failed"),
    );
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }

  private canUseResponseUrl(reply: ReplyTarget, keepForAnswer = 0): boolean {
    if (!reply.responseUrl) return false;
    const issuedAt = reply.responseUrlIssuedAt ?? 0;
    const uses = reply.responseUrlUses ?? 0;
    return this.now() - issuedAt < RESPONSE_URL_LIFETIME_MS && uses < RESPONSE_URL_USES - keepForAnswer;
  }

  private async postResponseUrl(
    taskId: string,
    reply: ReplyTarget,
    body: Record<string, unknown>,
    /** Uses this post may bring the URL to (one less for progress: the answer keeps one). */
    limit: number,
  ): Promise<boolean> {
    if (!reply.responseUrl) return false;
    if (!responseUrlAllowed(reply.responseUrl, this.options.slackApiUrl)) {
      this.options.logger.warn({ taskId }, "response_url is not on Slack's hosts; not posted to");
      return false;
    }
    // Another replica may have used the URL since this task's count was read.
    const shared = this.options.responseUrlUses;
    // Redis unreachable: the task's own count still holds (the answer is not held back for it).
    if (shared && !(await takeResponseUrlUse(shared, reply.responseUrl, limit).catch(() => true)))
      return false;
    // Counted before sending: a use that failed midway still counts at Slack.
    const counted = { ...reply, responseUrlUses: (reply.responseUrlUses ?? 0) + 1 };
    await this.options.store.setReply(taskId, counted);
    try {
      // undici's request, not fetch: a third of the CPU per post (no WHATWG streams or Request objects).
      const response = await request(reply.responseUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      await response.body.dump();
      const status = response.statusCode;
      if (status >= 200 && status < 300) return true;
      this.options.logger.warn({ taskId, status }, "response_url refused; falling back");
      if (status === 404)
        await this.options.store.setReply(taskId, { ...counted, responseUrlUses: RESPONSE_URL_USES });
      return false;
    } catch (error) {
      this.options.logger.warn({ taskId, err: error }, "response_url unreachable; falling back");
      return false;
    }
  }

  /** The answer in the channel it was asked in (when asked so), else as a direct message to the user. */
  private async sendDirect(task: TaskRecord, message: SlackMessage): Promise<"dm" | "channel"> {
    // Only a success goes to the channel for everyone; a failure is the user's business.
    if (task.reply.inChannel && task.reply.channel && task.state === "done") {
      try {
        const posted = await (await this.clientOf(task)).chat.postMessage({
          channel: task.reply.channel,
          text: message.text,
          blocks: message.blocks,
        });
        await this.rememberPosted(task.id, posted);
        return "channel";
      } catch (error) {
        this.options.logger.warn(
          { err: error, taskId: task.id },
          "could not post in the channel; sending a direct message",
        );
      }
    }
    const channel = task.slackUser ?? task.reply.channel;
    if (!channel) throw new PermanentDeliveryError("no_channel", "answer");
    try {
      const posted = await (await this.clientOf(task)).chat.postMessage({
        channel,
        text: message.text,
        ...(message.blocks.length > 0 ? { blocks: message.blocks } : {}),
      });
      if (task.state === "done") await this.rememberPosted(task.id, posted);
    } catch (error) {
      const code = slackErrorCode(error);
      throw code && PERMANENT_SLACK_ERRORS.has(code) ? new PermanentDeliveryError(code, "answer") : error;
    }
    return task.slackUser ? "dm" : "channel";
  }

  /** The task's workspace's client; a workspace uninstalled since is an answer Slack will never take. */
  private async clientOf(task: Pick<TaskRecord, "workspace">): Promise<WebClient> {
    try {
      return await this.options.clientFor(task.workspace);
    } catch (error) {
      if (error instanceof WorkspaceGoneError)
        throw new PermanentDeliveryError("workspace_uninstalled", "answer");
      throw error;
    }
  }

  /** A posted answer's place, kept in the task's reply so an edit can update the card there. */
  private async rememberPosted(taskId: string, posted: { channel?: string; ts?: string }): Promise<void> {
    if (!posted.channel || !posted.ts) return;
    const reply = (await this.options.store.get(taskId))?.reply;
    if (reply)
      await this.options.store.setReply(taskId, {
        ...reply,
        posted: { channel: posted.channel, ts: posted.ts },
      });
  }

  /**
   * After a task that changed what earlier answers show (an edited transport: the cards its
   * earlier saves posted, the lists that show it), each of them fleetbot can still update, as
   * its kind's renderer says (staleAnswerRefresh). Looked for among the account's last tasks
   * (bounded); returns where.
   */
  private async refreshStaleAnswers(task: TaskRecord): Promise<string[]> {
    const refresh = task.state === "done" ? this.options.staleAnswerRefresh(task) : undefined;
    if (!refresh) return [];
    const places: string[] = [];
    for (const earlier of await this.options.store.recent(
      task.account,
      RECENT_TASKS_FOR_CARDS,
      task.workspace,
    )) {
      if (earlier.id === task.id || earlier.state !== "done") continue;
      try {
        const place = await refresh(earlier, this.answers, this.languageOf(task));
        if (place) places.push(place);
      } catch (error) {
        this.options.logger.debug({ err: error, taskId: earlier.id }, "earlier card not updated");
      }
    }
    return places;
  }

  /** Stored answers as a kind's delivery hooks reach them (KindRenderer): reads, writes and Slack calls. */
  private readonly answers: StoredAnswers = {
    get: (taskId) => this.options.store.get(taskId),
    updateResult: (taskId, result) => this.options.store.updateResult(taskId, result),
    render: (task) => this.options.render(task),
    updatePosted: async (task, posted, message) => {
      await (await this.clientOf(task)).chat.update({
        channel: posted.channel,
        ts: posted.ts,
        text: message.text,
        blocks: message.blocks,
      });
    },
    responseUrlOpen: (task) => this.canUseResponseUrl(task.reply),
    replaceThroughResponseUrl: (task, message) =>
      this.postResponseUrl(
        task.id,
        task.reply,
        { ...message, replace_original: true, response_type: "ephemeral" },
        RESPONSE_URL_USES,
      ),
  };

  private async onProgress(progress: TaskProgress, task: TaskRecord): Promise<void> {
    if (progress.state !== "queued" && progress.state !== "running") return;
    // The last call is done: the answer comes next and must not race a "7/7" update.
    if (progress.done >= progress.total && progress.done > 0) return;
    const reply = (await this.options.store.get(task.id))?.reply ?? task.reply;
    // A card waiting in a list: the list again, that card saying where it stands now.
    const underWay = reply.listStays && !reply.cancelledBy ? reply.underWay : undefined;
    // Otherwise, a click on a channel's alert, or in a list, must not turn that message into a
    // progress bar; nor may a late update bring back a cancelled task's Cancel button.
    if (!underWay && (reply.keepOriginal || reply.listStays || reply.sharedCard || reply.cancelledBy)) return;
    const key = `${progress.position}:${progress.done}/${progress.total}`;
    if (!(await this.progressDue(task, reply, key))) return;
    const language = this.languageOf(task);
    const message = underWay
      ? await this.options.underWayMessage(
          task,
          underWay,
          () => progressPhrase(progress, this.now(), this.languageOf(task)),
          this.languageOf(task),
          this.answers,
        )
      : progressMessage(this.options.describe(task, language), progress, this.now(), language);
    if (!message) return;
    this.rememberProgress(task.id, { at: this.now(), key });
    await this.postResponseUrl(
      task.id,
      reply,
      { ...message, replace_original: true, response_type: "ephemeral" },
      RESPONSE_URL_USES - 1,
    );
  }

  /**
   * Whether a progress update may go now: a response_url use left besides the answer's, not the
   * same place as the last update nor within progressEveryMs of it, and no ack still on its way
   * (maybe another replica's: it shows the place itself).
   */
  private async progressDue(task: TaskRecord, reply: ReplyTarget, key: string): Promise<boolean> {
    if (!this.canUseResponseUrl(reply, 1)) return false;
    const last = this.lastProgress.get(task.id);
    if (last && (last.key === key || this.now() - last.at < (this.options.progressEveryMs ?? 20_000)))
      return false;
    return !(await this.ackPending(reply, task.createdAt));
  }

  /** The language the task's user reads (resolved when it was asked). */
  private languageOf(task: TaskRecord): Language {
    return taskLanguage(task, this.options.defaultLanguage);
  }

  private async onFinished(task: TaskRecord): Promise<void> {
    await this.waitForAck(task.reply, task.createdAt);
    this.lastProgress.delete(task.id);
    await this.progressPosts.get(task.id)?.catch(() => undefined);
    // Counted before trying: a crash or a refusal at every start must not re-send it for ever.
    const reply = (await this.options.store.get(task.id))?.reply ?? task.reply;
    const tries = (reply.deliveryTries ?? 0) + 1;
    if (tries > MAX_DELIVERY_TRIES) {
      this.options.logger.error(
        { taskId: task.id, tries: tries - 1 },
        "answer given up after repeated failures",
      );
      await this.options.runner.markDelivered(task.id);
      return;
    }
    await this.options.store.setReply(task.id, { ...reply, deliveryTries: tries });
    try {
      await this.deliverAnswer(task);
    } catch (error) {
      const refusal = permanentRefusal(error);
      // Anything else (network, 5xx, rate limits) is tried again at the next start, up to the limit.
      if (!refusal) throw error;
      this.options.logger.warn(
        { taskId: task.id, code: refusal.code, stage: refusal.stage },
        "Slack refused the answer; sending a plain notice instead",
      );
      await this.sendRefusalNotice(task, refusal);
    }
    await this.options.runner.markDelivered(task.id, task.finishedAt);
  }

  /** The rendered answer (modal, message, files) to where the task was asked. */
  private async deliverAnswer(task: TaskRecord): Promise<void> {
    const rendered = withFootnote(
      withZoneNote(await this.options.render(task), task, this.languageOf(task)),
      task,
    );
    // The renderer is pure; what it asks to keep is written here, before the answer goes out.
    if (rendered.listUpdate)
      await this.options.store.updateResult(rendered.listUpdate.taskId, rendered.listUpdate.result);
    if (
      rendered.view &&
      task.reply.viewId &&
      (await this.updateModal(task, task.reply.viewId, rendered.view))
    )
      return;
    const refreshed = await this.refreshStaleAnswers(task);
    const sentTo = await this.send(task, rendered.message, replacesOriginal(task));
    if (task.reply.viewId)
      await this.closeStatusModal(
        task,
        task.reply.viewId,
        rendered.message,
        sentTo,
        task.reply.channel,
        refreshed,
      );
    // An answer posted for everyone in the channel has its files there too, under the post.
    const posted = sentTo === "channel" ? (await this.options.store.get(task.id))?.reply.posted : undefined;
    const files = rendered.files ?? [];
    if (files.length > 0 && (posted || task.slackUser)) {
      try {
        await this.uploadFiles(task, posted ?? { user: task.slackUser as string }, files).catch(
          async (error: unknown) => {
            // A public channel fleetbot posts in without being a member takes no file (Slack wants
            // membership to share one): the asking user gets them in a direct message instead.
            if (!posted || !task.slackUser || slackErrorCode(error) !== "not_in_channel") throw error;
            await this.uploadFiles(task, { user: task.slackUser }, files);
          },
        );
      } catch (error) {
        const code = slackErrorCode(error);
        throw code && PERMANENT_SLACK_ERRORS.has(code) ? new PermanentDeliveryError(code, "files") : error;
      }
    }
  }

  /**
   * Once, instead of an answer Slack will not take: a plain short text (no blocks) that says
   * what happened, with the task id. If Slack refuses even that, the answer is given up.
   */
  private async sendRefusalNotice(task: TaskRecord, refusal: PermanentDeliveryError): Promise<void> {
    const language = this.languageOf(task);
    const t = messages(language).tasks;
    const what = this.options.describe(task, language).slice(0, 200);
    const facts = { what, code: refusal.code, id: task.id };
    const text = refusal.stage === "files" ? t.refusedFiles(facts) : t.refusedAnswer(facts);
    try {
      await this.sendDirect({ ...task, state: "failed" }, { text, blocks: [] });
    } catch (error) {
      this.options.logger.error(
        { taskId: task.id, err: error },
        "Slack refused the plain notice too; the answer is given up",
      );
    }
  }

  private async updateModal(task: TaskRecord, viewId: string, view: View): Promise<boolean> {
    try {
      await (await this.clientOf(task)).views.update({ view_id: viewId, view });
      return true;
    } catch (error) {
      this.options.logger.debug({ err: error, viewId }, "modal closed before its content arrived");
      return false;
    }
  }

  /** A modal that said "checking…" now says how it ended (the user may have closed it: that is fine). */
  private async closeStatusModal(
    task: TaskRecord,
    viewId: string,
    message: SlackMessage,
    sentTo: string,
    channel: string | undefined,
    refreshed: readonly string[] = [],
  ): Promise<void> {
    const language = this.languageOf(task);
    const t = messages(language).tasks;
    const where =
      sentTo === "dm"
        ? t.answerInDm()
        : channel && sentTo === "channel"
          ? t.answerInChannel({ channel: `<#${channel}>` })
          : t.answerInTheChannel();
    const updated =
      refreshed.length > 0
        ? ` ${t.cardsUpdated({ count: refreshed.length, places: [...new Set(refreshed)].join(", ") })}`
        : "";
    try {
      await (await this.clientOf(task)).views.update({
        view_id: viewId,
        view: statusModal(
          "fleetbot",
          `${message.text.slice(0, 2500)}\n\n_${t.fullAnswerIn({ where })}${updated}_`.slice(0, 2900),
          undefined,
          language,
        ),
      });
    } catch (error) {
      this.options.logger.debug({ err: error, viewId }, "status modal not updated");
    }
  }

  /**
   * Files go to the user's direct messages when the answer is only visible to them; an answer
   * posted in a channel for everyone has them in its thread.
   */
  private async uploadFiles(
    task: TaskRecord,
    to: { user: string } | { channel: string; ts: string },
    files: OutgoingFile[],
  ): Promise<void> {
    const client = await this.clientOf(task);
    const channel =
      "user" in to ? (await client.conversations.open({ users: to.user })).channel?.id : to.channel;
    if (!channel) return;
    for (const file of files) {
      const content =
        typeof file.content === "string" ? Buffer.from(file.content, "utf8") : Buffer.from(file.content);
      const upload = { file: content, filename: file.filename, title: file.title };
      await client.filesUploadV2(
        "ts" in to
          ? { ...upload, channel_id: channel, thread_ts: to.ts }
          : { ...upload, channel_id: channel },
      );
    }
  }
}
