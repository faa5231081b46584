import type { View } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { TaskStore } from "../store/taskStore.js";
import type { TransportListResult } from "../tasks/handlers/transports.js";
import type { TaskRunner } from "../tasks/runner.js";
import type { ReplyTarget, TaskProgress, TaskRecord } from "../tasks/task.js";
import { progressMessage, statusModal } from "./views/common.js";
import type { SlackMessage } from "./views/message.js";

export interface OutgoingFile {
  filename: string;
  title: string;
  content: Uint8Array | string;
}

export interface Rendered {
  message: SlackMessage;
  files?: OutgoingFile[];
  /** A modal to show instead of a message, when the task was asked from one (edit form). */
  view?: View;
  /** Another task's result to keep current (a list after an action on one of its cards), stored by delivery. */
  listUpdate?: { taskId: string; result: TransportListResult };
}

/** Slack's response_url: at most 5 uses within 30 minutes (we stop a minute early). */
const RESPONSE_URL_USES = 5;
const RESPONSE_URL_LIFETIME_MS = 29 * 60_000;

export interface TaskDeliveryOptions {
  client: WebClient;
  store: TaskStore;
  runner: Pick<TaskRunner<unknown>, "on" | "markDelivered">;
  render(task: TaskRecord): Promise<Rendered>;
  describe(task: TaskRecord): string;
  logger: Pick<Logger, "warn" | "info" | "debug" | "error">;
  now?: () => number;
  /** Least time between two progress updates of one message. */
  progressEveryMs?: number;
  /** How long an answer waits for the listener's ack before going out anyway. */
  ackWaitMs?: number;
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
  private readonly acks = new Map<string, { promise: Promise<void>; release: () => void }>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private detach?: () => void;

  constructor(private readonly options: TaskDeliveryOptions) {
    this.now = options.now ?? Date.now;
  }

  attach(): void {
    this.detach = this.options.runner.on({
      progress: (progress, task) => this.track(this.onProgress(progress, task)),
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
   * Holds the task's answer until the listener has acknowledged Slack: an answer sent
   * through the response_url before the ack would be overwritten by the ack's message.
   */
  holdUntilAck(taskId: string): () => void {
    let release = () => {};
    const promise = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.acks.set(taskId, { promise, release });
    return () => {
      release();
      this.acks.delete(taskId);
    };
  }

  /** Sends a message to where the task was asked; `replace` replaces the message the response_url belongs to. */
  async send(
    task: TaskRecord,
    message: SlackMessage,
    replace = true,
  ): Promise<"response_url" | "dm" | "channel"> {
    const reply = this.options.store.get(task.id)?.reply ?? task.reply;
    if (this.canUseResponseUrl(reply)) {
      const ok = await this.postResponseUrl(task.id, reply, {
        ...message,
        replace_original: replace,
        response_type: "ephemeral",
      });
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
  ): Promise<boolean> {
    if (!reply.responseUrl) return false;
    // Counted before sending: a use that failed midway still counts at Slack.
    const counted = { ...reply, responseUrlUses: (reply.responseUrlUses ?? 0) + 1 };
    this.options.store.setReply(taskId, counted);
    try {
      const response = await fetch(reply.responseUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      if (response.ok) return true;
      this.options.logger.warn({ taskId, status: response.status }, "response_url refused; falling back");
      if (response.status === 404)
        this.options.store.setReply(taskId, { ...counted, responseUrlUses: RESPONSE_URL_USES });
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
        await this.options.client.chat.postMessage({
          channel: task.reply.channel,
          text: message.text,
          blocks: message.blocks,
        });
        return "channel";
      } catch (error) {
        this.options.logger.warn(
          { err: error, taskId: task.id },
          "could not post in the channel; sending a direct message",
        );
      }
    }
    const channel = task.slackUser ?? task.reply.channel;
    if (!channel) throw new Error(`Task ${task.id} has nowhere to answer`);
    await this.options.client.chat.postMessage({ channel, text: message.text, blocks: message.blocks });
    return task.slackUser ? "dm" : "channel";
  }

  private async onProgress(progress: TaskProgress, task: TaskRecord): Promise<void> {
    if (progress.state !== "queued" && progress.state !== "running") return;
    // The last call is done: the answer comes next and must not race a "7/7" update.
    if (progress.done >= progress.total && progress.done > 0) return;
    const reply = this.options.store.get(task.id)?.reply ?? task.reply;
    // A click on a channel's alert must not turn the alert into a progress bar.
    if (reply.keepOriginal) return;
    // Keep one response_url use for the answer itself.
    if (!this.canUseResponseUrl(reply, 1)) return;
    const key = `${progress.position}:${progress.done}/${progress.total}`;
    const last = this.lastProgress.get(task.id);
    if (last && (last.key === key || this.now() - last.at < (this.options.progressEveryMs ?? 20_000))) return;
    this.lastProgress.set(task.id, { at: this.now(), key });
    const message = progressMessage(this.options.describe(task), progress, this.now());
    await this.postResponseUrl(task.id, reply, {
      ...message,
      replace_original: true,
      response_type: "ephemeral",
    });
  }

  private async onFinished(task: TaskRecord): Promise<void> {
    const ack = this.acks.get(task.id);
    if (ack) {
      await Promise.race([
        ack.promise,
        new Promise((resolve) => setTimeout(resolve, this.options.ackWaitMs ?? 3_000)),
      ]);
    }
    this.lastProgress.delete(task.id);
    await this.progressPosts.get(task.id)?.catch(() => undefined);
    const rendered = await this.options.render(task);
    // The renderer is pure; what it asks to keep is written here, before the answer goes out.
    if (rendered.listUpdate)
      this.options.store.updateResult(rendered.listUpdate.taskId, rendered.listUpdate.result);
    if (rendered.view && task.reply.viewId && (await this.updateModal(task.reply.viewId, rendered.view))) {
      this.options.runner.markDelivered(task.id);
      return;
    }
    // A failure is told to the user alone: it must not replace a card others see in the channel.
    const sentTo = await this.send(task, rendered.message, task.state === "done" && !task.reply.keepOriginal);
    if (task.reply.viewId) await this.closeStatusModal(task.reply.viewId, rendered.message, sentTo);
    if (rendered.files && rendered.files.length > 0 && task.slackUser) {
      await this.uploadFiles(task.slackUser, rendered.files);
    }
    this.options.runner.markDelivered(task.id);
  }

  private async updateModal(viewId: string, view: View): Promise<boolean> {
    try {
      await this.options.client.views.update({ view_id: viewId, view });
      return true;
    } catch (error) {
      this.options.logger.debug({ err: error, viewId }, "modal closed before its content arrived");
      return false;
    }
  }

  /** A modal that said "checking…" now says how it ended (the user may have closed it: that is fine). */
  private async closeStatusModal(viewId: string, message: SlackMessage, sentTo: string): Promise<void> {
    const where = sentTo === "dm" ? "in your direct messages with fleetbot" : "in the channel";
    try {
      await this.options.client.views.update({
        view_id: viewId,
        view: statusModal("fleetbot", `${message.text.slice(0, 2500)}\n\n_The full answer is ${where}._`),
      });
    } catch (error) {
      this.options.logger.debug({ err: error, viewId }, "status modal not updated");
    }
  }

  /** Files go to the user's direct messages: the answer itself is only visible to them. */
  private async uploadFiles(userId: string, files: OutgoingFile[]): Promise<void> {
    const opened = await this.options.client.conversations.open({ users: userId });
    const channel = opened.channel?.id;
    if (!channel) return;
    for (const file of files) {
      const content =
        typeof file.content === "string" ? Buffer.from(file.content, "utf8") : Buffer.from(file.content);
      await this.options.client.filesUploadV2({
        channel_id: channel,
        file: content,
        filename: file.filename,
        title: file.title,
      });
    }
  }
}
