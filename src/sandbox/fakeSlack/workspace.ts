/**
 * The fake workspace without HTTP: users, channels, messages, views, files, triggers,
 * response URLs, and the Web API methods the bot calls, answering the way Slack
 * documents them. server.ts puts HTTP around it; the driver and the sandbox UI read
 * and change it through the same object, so there is one implementation of Slack here.
 */
import { randomBytes, randomUUID } from "node:crypto";
import {
  formatProblem,
  isRecord,
  type LimitProblem,
  primaryError,
  validateMessagePayload,
  validateView,
  validateViewErrors,
} from "./limits.js";
import { TsClock, zoneInfo } from "./time.js";
import type {
  ChangeEvent,
  FakeChannel,
  FakeChannelInput,
  FakeFile,
  FakeMessage,
  FakeUser,
  FakeUserInput,
  FakeView,
  Json,
  JsonObject,
  MessageOrigin,
  RecordedCall,
  ResponseRecord,
  Violation,
} from "./types.js";

export type Args = Record<string, unknown>;

export interface WorkspaceOptions {
  teamId: string;
  teamName: string;
  teamDomain: string;
  botToken: string;
  appToken: string;
  botUserId: string;
  botId: string;
  appId: string;
  users: FakeUserInput[];
  channels: FakeChannelInput[];
  /** The Enterprise Grid org the team belongs to (users.info `enterprise_user`). */
  enterprise?: { id: string; name: string };
  now: () => number;
  limits: "strict" | "off";
  /** chat.postMessage at most once a second per channel, else HTTP 429 with Retry-After (as Slack). */
  postRate: "per-channel" | "off";
}

/** Slack's chat.postMessage allowance: about one message per second per channel (LIMITS.md). */
export const POST_INTERVAL_MS = 1000;

export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** A Slack error answer, thrown inside a method handler. */
export class SlackApiError extends Error {
  constructor(
    readonly code: string,
    readonly messages: string[] = [],
  ) {
    super(code);
  }
}

export const TRIGGER_TTL_MS = 3000;
export const RESPONSE_URL_TTL_MS = 30 * 60 * 1000;
export const RESPONSE_URL_MAX_USES = 5;
export const MAX_VIEW_STACK = 3;

/** Scopes the fake claims the bot has (x-oauth-scopes): those fleetbot's manifest asks for. */
const BOT_SCOPES = [
  "commands",
  "chat:write",
  "chat:write.public",
  "users:read",
  "channels:read",
  "groups:read",
  "im:write",
  "channels:join",
  "files:write",
  "files:read",
];

interface Trigger {
  user: string;
  issuedAt: number;
  used: boolean;
  /** Set when the interaction came from a view: views.push stacks onto that modal. */
  viewId?: string;
}

interface ResponseUrl {
  id: string;
  url: string;
  channel: string;
  user: string;
  /** The message the interaction came from: replace_original / delete_original act on it. */
  originalTs?: string;
  issuedAt: number;
  uses: number;
}

export interface ViewEntry {
  record: FakeView;
  rootId: string;
  state: JsonObject;
}

type Handler = (args: Args) => Record<string, unknown>;

export class FakeWorkspace {
  readonly options: WorkspaceOptions;
  /** Set by the server once it listens: upload and response URLs point at it. */
  baseUrl = "http://127.0.0.1";

  readonly users = new Map<string, FakeUser>();
  readonly channels = new Map<string, FakeChannel>();
  private readonly store = new Map<string, FakeMessage[]>();
  private readonly viewEntries = new Map<string, ViewEntry>();
  /** Modal stacks by root view id, root first. */
  private readonly stacks = new Map<string, string[]>();
  private readonly homeViews = new Map<string, string>();
  private readonly triggers = new Map<string, Trigger>();
  private readonly responseUrls = new Map<string, ResponseUrl>();
  private readonly fileStore = new Map<string, FakeFile>();
  private readonly rateLimits = new Map<string, { remaining: number; retryAfterSeconds: number }>();
  /** When each channel last took a chat.postMessage (postRate "per-channel"). */
  private readonly lastPostAt = new Map<string, number>();
  private readonly refusals = new Map<string, { remaining: number; error: string }>();
  private readonly socketTickets = new Set<string>();
  readonly calls: RecordedCall[] = [];
  readonly violations: Violation[] = [];
  readonly responses: ResponseRecord[] = [];
  private readonly listeners = new Set<(event: ChangeEvent) => void>();
  private readonly clock: TsClock;
  private counter = 0;
  private readonly methods: Record<string, Handler>;

  constructor(options: WorkspaceOptions) {
    this.options = options;
    this.clock = new TsClock(options.now);
    this.seed();
    this.methods = {
      "auth.test": () => this.authTest(),
      "chat.postMessage": (a) => this.postMessage(a),
      "chat.postEphemeral": (a) => this.postEphemeral(a),
      "chat.update": (a) => this.update(a),
      "chat.delete": (a) => this.deleteMessage(a),
      "chat.getPermalink": (a) => this.getPermalink(a),
      "views.open": (a) => this.viewsOpen(a),
      "views.update": (a) => this.viewsUpdate(a),
      "views.push": (a) => this.viewsPush(a),
      "views.publish": (a) => this.viewsPublish(a),
      "users.info": (a) => this.usersInfo(a),
      "conversations.info": (a) => this.conversationsInfo(a),
      "conversations.join": (a) => this.conversationsJoin(a),
      "conversations.list": (a) => this.conversationsList(a),
      "conversations.members": (a) => this.conversationsMembers(a),
      "conversations.open": (a) => this.conversationsOpen(a),
      "files.getUploadURLExternal": (a) => this.getUploadUrl(a),
      "files.completeUploadExternal": (a) => this.completeUpload(a),
      "files.info": (a) => this.filesInfo(a),
      "apps.connections.open": () => this.connectionsOpen(),
    };
  }

  get now(): number {
    return this.options.now();
  }

  // ---------------------------------------------------------------- change feed

  onChange(listener: (event: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: ChangeEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  // ---------------------------------------------------------------- seed and reset

  private seed(): void {
    const { users, channels, botUserId } = this.options;
    this.users.set(botUserId, {
      id: botUserId,
      name: "fleetbot",
      realName: "fleetbot",
      tz: "UTC",
      isBot: true,
    });
    for (const u of users) {
      this.users.set(u.id, {
        id: u.id,
        name: u.name,
        realName: u.realName ?? u.name,
        tz: u.tz ?? "UTC",
        isBot: false,
        ...(u.isAdmin ? { isAdmin: true } : {}),
        ...(u.isOwner ? { isOwner: true } : {}),
        ...(u.isPrimaryOwner ? { isPrimaryOwner: true } : {}),
        ...(u.isOrgAdmin ? { isOrgAdmin: true } : {}),
        ...(u.isOrgOwner ? { isOrgOwner: true } : {}),
      });
    }
    const humanIds = users.map((u) => u.id);
    for (const c of channels) {
      this.channels.set(c.id, {
        id: c.id,
        name: c.name,
        isPrivate: c.isPrivate ?? false,
        isIm: false,
        botIsMember: c.botIsMember ?? false,
        members: [...(c.members ?? humanIds)],
      });
    }
    // One DM per user, D + the user id's tail, so tests can predict it.
    for (const u of users) {
      const id = dmIdFor(u.id);
      this.channels.set(id, {
        id,
        name: u.id,
        isPrivate: true,
        isIm: true,
        imUser: u.id,
        botIsMember: true,
        members: [u.id],
      });
    }
  }

  /**
   * Slack Connect: `user` of another organisation's workspace (`home`) joins this workspace's
   * channel, which becomes shared. The user is seen here as Slack shows an external member: their
   * own ids, their own team in `user.team_id` and users.info, no role here.
   */
  addExternalMember(
    user: FakeUser,
    home: { teamId: string; enterpriseId?: string },
    channelId: string,
  ): void {
    const channel = this.channels.get(channelId);
    if (!channel || channel.isIm) throw new Error(`FakeWorkspace: no channel ${channelId} to share`);
    this.users.set(user.id, {
      id: user.id,
      name: user.name,
      realName: user.realName,
      tz: user.tz,
      isBot: false,
      external: { teamId: home.teamId, ...(home.enterpriseId ? { enterpriseId: home.enterpriseId } : {}) },
    });
    if (!channel.members.includes(user.id)) channel.members.push(user.id);
    channel.isExtShared = true;
  }

  /** The other side of a shared channel: the same id in this workspace, its own messages. */
  addSharedChannel(channel: { id: string; name: string }, members: readonly string[]): void {
    const existing = this.channels.get(channel.id);
    if (existing) {
      existing.isExtShared = true;
      for (const member of members) if (!existing.members.includes(member)) existing.members.push(member);
      return;
    }
    this.channels.set(channel.id, {
      id: channel.id,
      name: channel.name,
      isPrivate: false,
      isIm: false,
      botIsMember: true,
      members: [...members],
      isExtShared: true,
    });
  }

  reset(): void {
    this.users.clear();
    this.channels.clear();
    this.store.clear();
    this.viewEntries.clear();
    this.stacks.clear();
    this.homeViews.clear();
    this.triggers.clear();
    this.responseUrls.clear();
    this.fileStore.clear();
    this.rateLimits.clear();
    this.lastPostAt.clear();
    this.refusals.clear();
    this.socketTickets.clear();
    this.calls.length = 0;
    this.violations.length = 0;
    this.responses.length = 0;
    this.clock.reset();
    this.seed();
    this.emit({ kind: "reset" });
  }

  // ---------------------------------------------------------------- Web API entry

  /** Runs one Web API method as Slack would: auth, rate limit, then the method. */
  call(method: string, rawArgs: Args, token: string | undefined): ApiAnswer {
    const args = decodeArgs(rawArgs);
    const handler = this.methods[method];
    let status = 200;
    const headers: Record<string, string> = {};
    let body: Record<string, unknown>;
    if (!handler) {
      body = { ok: false, error: "unknown_method", req_method: method };
    } else {
      const authError = this.checkToken(method, token);
      const limit = this.rateLimits.get(method);
      if (authError) body = { ok: false, error: authError };
      else if (limit && limit.remaining > 0) {
        limit.remaining -= 1;
        status = 429;
        headers["retry-after"] = String(limit.retryAfterSeconds);
        body = { ok: false, error: "ratelimited" };
      } else if (method === "chat.postMessage" && this.postRetryAfter(args) !== undefined) {
        // As Slack: 429, the seconds to wait in Retry-After, and nothing posted.
        status = 429;
        headers["retry-after"] = String(this.postRetryAfter(args));
        body = { ok: false, error: "ratelimited" };
      } else if (this.refused(method, args)) {
        body = { ok: false, error: this.refusals.get(method)?.error ?? "invalid_arguments" };
      } else {
        try {
          body = { ok: true, ...handler(args) };
          headers["x-oauth-scopes"] = BOT_SCOPES.join(",");
          if (method === "chat.postMessage" && typeof body.channel === "string") {
            this.lastPostAt.set(body.channel, this.now);
          }
        } catch (error) {
          if (!(error instanceof SlackApiError)) throw error;
          body = { ok: false, error: error.code };
          if (error.messages.length > 0) body.response_metadata = { messages: error.messages };
        }
      }
    }
    const call: RecordedCall = {
      method,
      args,
      at: this.now,
      ok: body.ok === true,
      response: body,
      ...(body.ok === true ? {} : { error: String(body.error) }),
    };
    this.calls.push(call);
    this.emit({ kind: "call", call });
    return { status, headers, body };
  }

  private checkToken(method: string, token: string | undefined): string | undefined {
    if (!token) return "not_authed";
    const wantsAppToken = method === "apps.connections.open";
    if (token === this.options.botToken) return wantsAppToken ? "not_allowed_token_type" : undefined;
    if (token === this.options.appToken) return wantsAppToken ? undefined : "not_allowed_token_type";
    return "invalid_auth";
  }

  /**
   * Makes Slack refuse the next `times` calls of a Web API method (or posts to any response_url,
   * target "response_url") with `error`, as it refuses a payload it will not show. An
   * `invalid_blocks` refusal only hits payloads that carry blocks: a plain text one passes.
   */
  refuse(target: string, error: string, options: { times?: number } = {}): void {
    this.refusals.set(target, { remaining: options.times ?? 1, error });
  }

  /** Counts one refusal of `target` when one is pending for this payload. */
  private refused(target: string, payload: Record<string, unknown>): boolean {
    const refusal = this.refusals.get(target);
    if (!refusal || refusal.remaining <= 0) return false;
    const blocks = payload.blocks;
    const hasBlocks =
      (Array.isArray(blocks) && blocks.length > 0) || (typeof blocks === "string" && blocks !== "[]");
    if (refusal.error === "invalid_blocks" && !hasBlocks) return false;
    refusal.remaining -= 1;
    return true;
  }

  /**
   * With postRate "per-channel": whole seconds until the channel takes another message (Slack
   * sends an integer Retry-After; the official client parses it so), undefined when it may post now.
   * Thread replies count: they are messages of the channel.
   */
  private postRetryAfter(args: Args): number | undefined {
    if (this.options.postRate !== "per-channel") return undefined;
    let channel: string;
    try {
      channel = this.resolveChannel(str(args, "channel")).id;
    } catch {
      return undefined; // the method itself answers the unknown channel
    }
    const last = this.lastPostAt.get(channel);
    if (last === undefined) return undefined;
    const waitMs = last + POST_INTERVAL_MS - this.now;
    return waitMs > 0 ? Math.ceil(waitMs / 1000) : undefined;
  }

  /** Simulates Slack's rate limiter: the next `times` calls of `method` answer 429 with Retry-After. */
  rateLimit(method: string, options: { times?: number; retryAfterSeconds?: number } = {}): void {
    this.rateLimits.set(method, {
      remaining: options.times ?? 1,
      retryAfterSeconds: options.retryAfterSeconds ?? 1,
    });
  }

  // ---------------------------------------------------------------- the guard

  /** Records and rejects a payload that breaks a Block Kit limit (unless limits are off). */
  guard(source: string, problems: LimitProblem[], payload: unknown): void {
    if (problems.length === 0 || this.options.limits === "off") return;
    const error = primaryError(problems);
    const reasons = problems.map(formatProblem);
    this.recordViolation({ source, error, reasons, at: this.now, payload });
    throw new SlackApiError(error, reasons);
  }

  recordViolation(violation: Violation): void {
    this.violations.push(violation);
    this.emit({ kind: "violation", violation });
  }

  // ---------------------------------------------------------------- ids

  private nextId(prefix: string): string {
    this.counter += 1;
    return `${prefix}${this.counter.toString(36).toUpperCase().padStart(8, "0")}`;
  }

  /** A trigger_id as Slack puts in an interaction payload; default user: the first configured one. */
  issueTriggerId(
    user: string = this.options.users[0]?.id ?? this.options.botUserId,
    viewId?: string,
  ): string {
    this.counter += 1;
    const id = `${this.counter}.${Math.floor(this.now)}.${randomBytes(16).toString("hex")}`;
    this.triggers.set(id, { user, issuedAt: this.now, used: false, ...(viewId ? { viewId } : {}) });
    return id;
  }

  issueResponseUrl(channel: string, user: string, originalTs?: string): string {
    const id = `${this.options.teamId}/${++this.counter}/${randomBytes(12).toString("hex")}`;
    const url = `${this.baseUrl}/hooks/${id}`;
    this.responseUrls.set(id, {
      id,
      url,
      channel,
      user,
      issuedAt: this.now,
      uses: 0,
      ...(originalTs ? { originalTs } : {}),
    });
    return url;
  }

  /**
   * A slash command's response_url belongs to the message its ack posted: later
   * replace_original posts replace that one (as Slack does), until then the first post.
   */
  adoptOriginal(responseUrl: string, ts: string): void {
    const id = responseUrl.slice(responseUrl.indexOf("/hooks/") + "/hooks/".length);
    const entry = this.responseUrls.get(id);
    if (entry && !entry.originalTs) entry.originalTs = ts;
  }

  issueSocketTicket(): string {
    const ticket = randomUUID();
    this.socketTickets.add(ticket);
    return ticket;
  }

  consumeSocketTicket(ticket: string): boolean {
    return this.socketTickets.delete(ticket);
  }

  private consumeTrigger(id: string | undefined): Trigger {
    if (!id) throw new SlackApiError("invalid_arguments", ["[ERROR] missing required field: trigger_id"]);
    const trigger = this.triggers.get(id);
    if (!trigger) throw new SlackApiError("invalid_trigger_id");
    if (trigger.used) throw new SlackApiError("exchanged_trigger_id");
    if (this.now - trigger.issuedAt >= TRIGGER_TTL_MS) throw new SlackApiError("expired_trigger_id");
    trigger.used = true;
    return trigger;
  }

  // ---------------------------------------------------------------- channels and messages

  /** A channel id, a user id (→ their DM) or a #name, as chat.postMessage accepts. */
  resolveChannel(ref: string | undefined): FakeChannel {
    if (!ref) throw new SlackApiError("channel_not_found");
    const direct = this.channels.get(ref);
    if (direct) return direct;
    if (this.users.has(ref)) {
      const dm = this.channels.get(dmIdFor(ref));
      if (dm) return dm;
    }
    const name = ref.replace(/^#/, "");
    for (const channel of this.channels.values()) if (!channel.isIm && channel.name === name) return channel;
    throw new SlackApiError("channel_not_found");
  }

  /** chat:write.public lets the bot post in public channels it has not joined; private ones need an invite. */
  private assertCanPost(channel: FakeChannel): void {
    if (channel.isIm || channel.botIsMember) return;
    if (channel.isPrivate) throw new SlackApiError("not_in_channel");
  }

  /** A channel's messages; a user id stands for that user's DM with the bot. */
  messages(channel: string): FakeMessage[] {
    const id = this.users.has(channel) ? dmIdFor(channel) : channel;
    return [...(this.store.get(id) ?? [])];
  }

  findMessage(channel: string, ts: string): FakeMessage | undefined {
    return this.store.get(channel)?.find((m) => m.ts === ts);
  }

  private addMessage(
    message: Omit<FakeMessage, "ts" | "replyCount" | "revisions" | "visibleRevisions">,
  ): FakeMessage {
    const stored: FakeMessage = {
      ...message,
      ts: this.clock.next(),
      replyCount: 0,
      revisions: 0,
      visibleRevisions: 0,
    };
    const list = this.store.get(stored.channel) ?? [];
    list.push(stored);
    this.store.set(stored.channel, list);
    if (stored.threadTs && !stored.ephemeral) {
      const parent = list.find((m) => m.ts === stored.threadTs);
      if (parent) parent.replyCount += 1;
    }
    this.emit({ kind: "message", channel: stored.channel, ts: stored.ts, action: "posted" });
    return stored;
  }

  private replaceMessage(message: FakeMessage, text: string | undefined, blocks: Json[] | undefined): void {
    const shownBefore = shownContent(message);
    if (text !== undefined) message.text = text;
    if (blocks !== undefined) message.blocks = blocks;
    message.revisions += 1;
    if (shownContent(message) !== shownBefore) message.visibleRevisions += 1;
    message.edited = { user: this.options.botUserId, ts: this.clock.next() };
    this.emit({ kind: "message", channel: message.channel, ts: message.ts, action: "updated" });
  }

  private removeMessage(message: FakeMessage): void {
    const list = this.store.get(message.channel) ?? [];
    const index = list.indexOf(message);
    if (index >= 0) list.splice(index, 1);
    if (message.threadTs) {
      const parent = list.find((m) => m.ts === message.threadTs);
      if (parent && parent.replyCount > 0) parent.replyCount -= 1;
    }
    this.emit({ kind: "message", channel: message.channel, ts: message.ts, action: "deleted" });
  }

  /** A message as Slack shows it in API answers and interaction payloads. */
  messageJson(message: FakeMessage): JsonObject {
    const json: JsonObject = { type: "message", text: message.text, user: message.user, ts: message.ts };
    if (message.botId) {
      json.bot_id = message.botId;
      json.app_id = this.options.appId;
    }
    json.team = this.options.teamId;
    if (message.blocks) json.blocks = message.blocks;
    if (message.threadTs) json.thread_ts = message.threadTs;
    if (message.replyCount > 0) json.reply_count = message.replyCount;
    if (message.edited) json.edited = message.edited;
    if (message.files) {
      json.files = message.files.map((f) => this.fileJson(f.id));
      json.upload = true;
    }
    return json;
  }

  /** Sends a bot message (text and/or blocks) validated by the guard; shared by the Web API, response_url and acks. */
  postBotMessage(
    source: string,
    origin: MessageOrigin,
    target: { channel: string; threadTs?: string; ephemeralTo?: string },
    payload: { text?: unknown; blocks?: unknown },
  ): FakeMessage {
    this.guard(source, validateMessagePayload(payload), payload);
    return this.addMessage({
      channel: target.channel,
      user: this.options.botUserId,
      botId: this.options.botId,
      text: typeof payload.text === "string" ? payload.text : "",
      ...(Array.isArray(payload.blocks) ? { blocks: toJson(payload.blocks) as Json[] } : {}),
      ...(target.threadTs ? { threadTs: target.threadTs } : {}),
      ephemeral: target.ephemeralTo !== undefined,
      ...(target.ephemeralTo !== undefined ? { visibleTo: target.ephemeralTo } : {}),
      origin,
    });
  }

  // ---------------------------------------------------------------- methods: auth, chat

  private authTest(): Record<string, unknown> {
    return {
      url: `https://${this.options.teamDomain}.slack.com/`,
      team: this.options.teamName,
      user: "fleetbot",
      team_id: this.options.teamId,
      user_id: this.options.botUserId,
      bot_id: this.options.botId,
      is_enterprise_install: false,
    };
  }

  private postMessage(args: Args): Record<string, unknown> {
    const channel = this.resolveChannel(str(args, "channel"));
    this.assertCanPost(channel);
    requireContent(args);
    const threadTs = str(args, "thread_ts");
    const message = this.postBotMessage(
      "chat.postMessage",
      "chat.postMessage",
      { channel: channel.id, ...(threadTs ? { threadTs } : {}) },
      { text: args.text, blocks: args.blocks },
    );
    return { channel: channel.id, ts: message.ts, message: this.messageJson(message) };
  }

  private postEphemeral(args: Args): Record<string, unknown> {
    const channel = this.resolveChannel(str(args, "channel"));
    const user = str(args, "user");
    if (!user || !this.users.has(user)) throw new SlackApiError("user_not_found");
    if (!channel.members.includes(user)) throw new SlackApiError("user_not_in_channel");
    this.assertCanPost(channel);
    requireContent(args);
    const threadTs = str(args, "thread_ts");
    const message = this.postBotMessage(
      "chat.postEphemeral",
      "chat.postEphemeral",
      { channel: channel.id, ephemeralTo: user, ...(threadTs ? { threadTs } : {}) },
      { text: args.text, blocks: args.blocks },
    );
    return { message_ts: message.ts };
  }

  private ownMessage(args: Args, tsKey: string): FakeMessage {
    const channel = this.resolveChannel(str(args, "channel"));
    const ts = str(args, tsKey);
    const message = ts ? this.findMessage(channel.id, ts) : undefined;
    if (!message || message.ephemeral) throw new SlackApiError("message_not_found");
    return message;
  }

  private update(args: Args): Record<string, unknown> {
    const message = this.ownMessage(args, "ts");
    if (message.user !== this.options.botUserId) throw new SlackApiError("cant_update_message");
    const payload = { text: args.text, blocks: args.blocks };
    this.guard("chat.update", validateMessagePayload(payload), payload);
    // Omitting blocks keeps the old ones (LIMITS.md); an empty array removes them.
    const blocks = Array.isArray(args.blocks) ? (toJson(args.blocks) as Json[]) : undefined;
    this.replaceMessage(message, typeof args.text === "string" ? args.text : undefined, blocks);
    return {
      channel: message.channel,
      ts: message.ts,
      text: message.text,
      message: this.messageJson(message),
    };
  }

  private deleteMessage(args: Args): Record<string, unknown> {
    const message = this.ownMessage(args, "ts");
    if (message.user !== this.options.botUserId) throw new SlackApiError("cant_delete_message");
    this.removeMessage(message);
    return { channel: message.channel, ts: message.ts };
  }

  private getPermalink(args: Args): Record<string, unknown> {
    const message = this.ownMessage(args, "message_ts");
    let permalink = `https://${this.options.teamDomain}.slack.com/archives/${message.channel}/p${message.ts.replace(".", "")}`;
    if (message.threadTs) permalink += `?thread_ts=${message.threadTs}&cid=${message.channel}`;
    return { channel: message.channel, permalink };
  }

  // ---------------------------------------------------------------- methods: views

  private viewsOpen(args: Args): Record<string, unknown> {
    const view = args.view;
    this.guard("views.open", validateView(view), view);
    if (!isRecord(view) || view.type !== "modal") {
      throw new SlackApiError("invalid_arguments", [
        "[ERROR] views.open needs a modal view [json-pointer:/view/type]",
      ]);
    }
    this.assertExternalIdFree(view);
    const trigger = this.consumeTrigger(str(args, "trigger_id"));
    // One modal at a time per user: a new one replaces what was open.
    for (const [rootId, stack] of this.stacks) {
      if (this.viewEntries.get(rootId)?.record.user === trigger.user && stack.length > 0)
        this.closeStack(rootId);
    }
    const id = this.nextId("V");
    this.stacks.set(id, [id]);
    const entry = this.createView(id, id, null, trigger.user, view);
    this.emit({ kind: "view", viewId: id, action: "opened" });
    return { view: entry.record.view };
  }

  private viewsPush(args: Args): Record<string, unknown> {
    const view = args.view;
    this.guard("views.push", validateView(view), view);
    const trigger = this.consumeTrigger(str(args, "trigger_id"));
    const rootId = this.openModalRoot(trigger);
    if (!rootId) throw new SlackApiError("not_found");
    const entry = this.pushView(rootId, view);
    return { view: entry.record.view };
  }

  /** Pushes onto an open modal's stack (views.push or response_action "push"). */
  pushView(rootId: string, view: unknown): ViewEntry {
    if (!isRecord(view) || view.type !== "modal") {
      throw new SlackApiError("invalid_arguments", [
        "[ERROR] only modals can be pushed [json-pointer:/view/type]",
      ]);
    }
    const stack = this.stacks.get(rootId) ?? [];
    if (stack.length >= MAX_VIEW_STACK) throw new SlackApiError("push_limit_reached");
    this.assertExternalIdFree(view);
    const top = stack.at(-1) ?? null;
    const user = this.viewEntries.get(rootId)?.record.user ?? "";
    const id = this.nextId("V");
    stack.push(id);
    this.stacks.set(rootId, stack);
    const entry = this.createView(id, rootId, top, user, view);
    this.emit({ kind: "view", viewId: id, action: "pushed" });
    return entry;
  }

  private openModalRoot(trigger: Trigger): string | undefined {
    if (trigger.viewId) {
      const entry = this.viewEntries.get(trigger.viewId);
      if (entry?.record.open && entry.record.type === "modal") return entry.rootId;
    }
    for (const [rootId, stack] of this.stacks) {
      if (stack.length > 0 && this.viewEntries.get(rootId)?.record.user === trigger.user) return rootId;
    }
    return undefined;
  }

  private viewsUpdate(args: Args): Record<string, unknown> {
    const view = args.view;
    this.guard("views.update", validateView(view), view);
    const viewId = str(args, "view_id");
    const externalId = str(args, "external_id");
    if (!viewId && !externalId) {
      throw new SlackApiError("invalid_arguments", ["[ERROR] either view_id or external_id is required"]);
    }
    const entry = viewId
      ? this.viewEntries.get(viewId)
      : [...this.viewEntries.values()].find((e) => e.record.view.external_id === externalId && e.record.open);
    if (!entry?.record.open) throw new SlackApiError("not_found");
    const hash = str(args, "hash");
    if (hash !== undefined && hash !== entry.record.view.hash) throw new SlackApiError("hash_conflict");
    this.replaceView(entry, view);
    this.emit({ kind: "view", viewId: entry.record.id, action: "updated" });
    return { view: entry.record.view };
  }

  private viewsPublish(args: Args): Record<string, unknown> {
    const view = args.view;
    this.guard("views.publish", validateView(view), view);
    const user = str(args, "user_id");
    if (!user || !this.users.has(user)) throw new SlackApiError("user_not_found");
    if (!isRecord(view) || view.type !== "home") {
      throw new SlackApiError("invalid_arguments", [
        "[ERROR] views.publish needs a home view [json-pointer:/view/type]",
      ]);
    }
    const existingId = this.homeViews.get(user);
    const existing = existingId ? this.viewEntries.get(existingId) : undefined;
    const hash = str(args, "hash");
    if (existing && hash !== undefined && hash !== existing.record.view.hash)
      throw new SlackApiError("hash_conflict");
    let entry: ViewEntry;
    if (existing) {
      this.replaceView(existing, view);
      entry = existing;
    } else {
      const id = this.nextId("V");
      this.homeViews.set(user, id);
      entry = this.createView(id, id, null, user, view);
    }
    this.emit({ kind: "view", viewId: entry.record.id, action: "published" });
    return { view: entry.record.view };
  }

  private assertExternalIdFree(view: Record<string, unknown>): void {
    const externalId = view.external_id;
    if (typeof externalId !== "string" || externalId === "") return;
    for (const entry of this.viewEntries.values()) {
      if (entry.record.view.external_id === externalId) throw new SlackApiError("duplicate_external_id");
    }
  }

  private createView(
    id: string,
    rootId: string,
    previousId: string | null,
    user: string,
    input: Record<string, unknown>,
  ): ViewEntry {
    const type = input.type === "home" ? "home" : "modal";
    const entry: ViewEntry = {
      rootId,
      state: {},
      record: { id, user, type, view: {}, open: true, stack: [], history: [] },
    };
    entry.record.view = this.viewJson(id, rootId, previousId, input, {});
    this.viewEntries.set(id, entry);
    return entry;
  }

  /** The view object Slack returns and sends in payloads. */
  private viewJson(
    id: string,
    rootId: string,
    previousId: string | null,
    input: Record<string, unknown>,
    state: JsonObject,
  ): JsonObject {
    const source = toJson(input) as JsonObject;
    return {
      id,
      team_id: this.options.teamId,
      type: source.type ?? "modal",
      ...(source.title !== undefined ? { title: source.title } : {}),
      ...(source.submit !== undefined ? { submit: source.submit } : {}),
      ...(source.close !== undefined ? { close: source.close } : {}),
      blocks: source.blocks ?? [],
      private_metadata: source.private_metadata ?? "",
      callback_id: source.callback_id ?? "",
      external_id: source.external_id ?? "",
      state: { values: state },
      hash: `${Math.floor(this.now / 1000)}.${randomBytes(4).toString("hex")}`,
      clear_on_close: source.clear_on_close ?? false,
      notify_on_close: source.notify_on_close ?? false,
      submit_disabled: source.submit_disabled ?? false,
      root_view_id: rootId,
      previous_view_id: previousId,
      app_id: this.options.appId,
      app_installed_team_id: this.options.teamId,
      bot_id: this.options.botId,
    };
  }

  /** views.update and response_action "update": same id and place in the stack, new content and hash. */
  replaceView(entry: ViewEntry, input: unknown): void {
    if (!isRecord(input)) throw new SlackApiError("invalid_arguments");
    const old = entry.record.view;
    entry.record.history.push(old);
    // State survives for inputs whose block_id and action_id are still there.
    entry.state = keepState(entry.state, input.blocks);
    const previous = typeof old.previous_view_id === "string" ? old.previous_view_id : null;
    entry.record.view = this.viewJson(entry.record.id, entry.rootId, previous, input, entry.state);
    delete entry.record.errors;
  }

  viewEntry(viewId: string): ViewEntry | undefined {
    return this.viewEntries.get(viewId);
  }

  /** What a user typed or picked, in Slack's state.values shape; the driver sets it before a submission. */
  setViewState(viewId: string, values: JsonObject): void {
    const entry = this.viewEntries.get(viewId);
    if (!entry) throw new Error(`no view ${viewId}`);
    for (const [blockId, actions] of Object.entries(values)) {
      const existing = entry.state[blockId];
      entry.state[blockId] = {
        ...(isRecord(existing) ? (existing as JsonObject) : {}),
        ...(actions as JsonObject),
      };
    }
    entry.record.view = { ...entry.record.view, state: { values: entry.state } };
  }

  setViewErrors(viewId: string, errors: Record<string, string>): void {
    const entry = this.viewEntries.get(viewId);
    if (!entry) return;
    entry.record.errors = errors;
    this.emit({ kind: "view", viewId, action: "errors" });
  }

  /** Closes one view (empty ack or the user's Back/Close): the one below becomes current. */
  closeView(viewId: string): void {
    const entry = this.viewEntries.get(viewId);
    if (!entry?.record.open) return;
    const stack = this.stacks.get(entry.rootId);
    if (stack) {
      const index = stack.indexOf(viewId);
      // Closing a view closes what was pushed above it too.
      const closed = index >= 0 ? stack.splice(index) : [viewId];
      for (const id of closed) this.markClosed(id);
    } else this.markClosed(viewId);
  }

  /** response_action "clear", or Close on a clear_on_close view: the whole modal goes. */
  closeStack(rootId: string): void {
    const stack = this.stacks.get(rootId) ?? [];
    for (const id of stack.splice(0)) this.markClosed(id);
  }

  private markClosed(viewId: string): void {
    const entry = this.viewEntries.get(viewId);
    if (!entry?.record.open) return;
    entry.record.open = false;
    this.emit({ kind: "view", viewId, action: "closed" });
  }

  viewsSnapshot(): Map<string, FakeView> {
    const out = new Map<string, FakeView>();
    for (const [id, entry] of this.viewEntries) {
      const stack =
        entry.record.type === "home"
          ? [id]
          : entry.record.open
            ? [...(this.stacks.get(entry.rootId) ?? [])]
            : [];
      out.set(id, { ...entry.record, stack, history: [...entry.record.history] });
    }
    return out;
  }

  // ---------------------------------------------------------------- methods: users, conversations

  /**
   * users.info as Slack answers it: the workspace roles (`is_admin` is true for owners too,
   * `is_owner` for the primary owner too), and inside an Enterprise Grid org `enterprise_user`
   * with the org roles and the org's id. A Slack Connect user from another organisation is
   * described by their own team (`team_id`, and their own org's `enterprise_user` if any), with
   * no role in this workspace.
   */
  private usersInfo(args: Args): Record<string, unknown> {
    const user = this.users.get(str(args, "user") ?? "");
    if (!user) throw new SlackApiError("user_not_found");
    const zone = zoneInfo(user.tz, this.now);
    const owner = user.isOwner === true || user.isPrimaryOwner === true;
    const external = user.external;
    const enterpriseId = external ? external.enterpriseId : this.options.enterprise?.id;
    const teamId = external ? external.teamId : this.options.teamId;
    return {
      user: {
        id: user.id,
        team_id: teamId,
        ...(enterpriseId
          ? {
              enterprise_user: {
                id: user.id,
                enterprise_id: enterpriseId,
                enterprise_name: external ? enterpriseId : (this.options.enterprise?.name ?? enterpriseId),
                is_admin: user.isOrgAdmin === true || user.isOrgOwner === true,
                is_owner: user.isOrgOwner === true,
                teams: [teamId],
              },
            }
          : {}),
        name: user.name,
        deleted: false,
        real_name: user.realName,
        tz: user.tz,
        tz_label: zone.label,
        tz_offset: zone.offsetSeconds,
        profile: { real_name: user.realName, display_name: user.name, team: teamId },
        is_admin: user.isAdmin === true || owner,
        is_owner: owner,
        is_primary_owner: user.isPrimaryOwner === true,
        ...(external ? { is_stranger: true } : {}),
        is_bot: user.isBot,
        is_app_user: false,
        updated: Math.floor(this.now / 1000),
      },
    };
  }

  /** A private channel the bot is not in is invisible to it, as on Slack. */
  private visibleChannel(args: Args): FakeChannel {
    const channel = this.channels.get(str(args, "channel") ?? "");
    if (!channel || (channel.isPrivate && !channel.isIm && !channel.botIsMember)) {
      throw new SlackApiError("channel_not_found");
    }
    return channel;
  }

  private channelJson(channel: FakeChannel): JsonObject {
    if (channel.isIm) {
      return { id: channel.id, is_im: true, user: channel.imUser ?? "", is_open: true, created: 0 };
    }
    return {
      id: channel.id,
      name: channel.name,
      is_channel: !channel.isPrivate,
      is_group: channel.isPrivate,
      is_im: false,
      is_mpim: false,
      is_private: channel.isPrivate,
      is_archived: false,
      is_general: channel.name === "general",
      is_member: channel.botIsMember,
      is_shared: channel.isExtShared === true,
      is_ext_shared: channel.isExtShared === true,
      created: 0,
      num_members: channel.members.length + (channel.botIsMember ? 1 : 0),
    };
  }

  private conversationsInfo(args: Args): Record<string, unknown> {
    return { channel: this.channelJson(this.visibleChannel(args)) };
  }

  /**
   * conversations.list as Slack pages it: `types` (default public_channel), `exclude_archived`,
   * `limit` (default 100, at most 1000) and an opaque `cursor`; an empty next_cursor on the last
   * page. Private channels the bot is not in are invisible, as on Slack.
   */
  private conversationsList(args: Args): Record<string, unknown> {
    const types = new Set((str(args, "types") ?? "public_channel").split(",").map((t) => t.trim()));
    for (const type of types) {
      if (!["public_channel", "private_channel", "mpim", "im"].includes(type))
        throw new SlackApiError("invalid_types");
    }
    const limitText = str(args, "limit");
    const limit = limitText === undefined ? 100 : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1) throw new SlackApiError("invalid_limit");
    const cursor = str(args, "cursor");
    let start = 0;
    if (cursor) {
      const decoded = /^offset:(\d+)$/.exec(Buffer.from(cursor, "base64").toString("utf8"));
      if (!decoded) throw new SlackApiError("invalid_cursor");
      start = Number(decoded[1]);
    }
    const listed = [...this.channels.values()].filter((c) =>
      c.isIm
        ? types.has("im")
        : c.isPrivate
          ? types.has("private_channel") && c.botIsMember
          : types.has("public_channel"),
    );
    const page = listed.slice(start, start + Math.min(limit, 1000));
    const next = start + page.length;
    return {
      channels: page.map((c) => this.channelJson(c)),
      response_metadata: {
        next_cursor: next < listed.length ? Buffer.from(`offset:${next}`).toString("base64") : "",
      },
    };
  }

  private conversationsJoin(args: Args): Record<string, unknown> {
    const channel = this.channels.get(str(args, "channel") ?? "");
    if (!channel) throw new SlackApiError("channel_not_found");
    if (channel.isPrivate || channel.isIm) throw new SlackApiError("method_not_supported_for_channel_type");
    if (channel.botIsMember) {
      return {
        channel: this.channelJson(channel),
        warning: "already_in_channel",
        response_metadata: { warnings: ["already_in_channel"] },
      };
    }
    channel.botIsMember = true;
    return { channel: this.channelJson(channel) };
  }

  private conversationsMembers(args: Args): Record<string, unknown> {
    const channel = this.visibleChannel(args);
    const members = [
      ...channel.members,
      ...(channel.botIsMember && !channel.isIm ? [this.options.botUserId] : []),
    ];
    return { members, response_metadata: { next_cursor: "" } };
  }

  /** Opening a DM with one user gives its D… id (group DMs are not modelled). */
  private conversationsOpen(args: Args): Record<string, unknown> {
    const users = (str(args, "users") ?? "").split(",").filter(Boolean);
    const channelId = str(args, "channel");
    if (channelId) return { channel: { id: this.visibleChannel(args).id } };
    if (users.length !== 1)
      throw new SlackApiError(users.length === 0 ? "users_list_not_supplied" : "not_supported");
    const user = users[0] ?? "";
    if (!this.users.has(user)) throw new SlackApiError("user_not_found");
    return { channel: { id: dmIdFor(user) } };
  }

  // ---------------------------------------------------------------- methods: files

  private getUploadUrl(args: Args): Record<string, unknown> {
    const filename = str(args, "filename");
    const length = Number(str(args, "length"));
    const messages: string[] = [];
    if (!filename) messages.push("[ERROR] missing required field: filename");
    if (!Number.isInteger(length) || length < 1) messages.push("[ERROR] length must be a positive integer");
    if (messages.length > 0) throw new SlackApiError("invalid_arguments", messages);
    const id = this.nextId("F");
    this.fileStore.set(id, {
      id,
      name: filename ?? "",
      title: filename ?? "",
      declaredLength: length,
      created: Math.floor(this.now / 1000),
      channels: [],
      completed: false,
    });
    return { upload_url: `${this.baseUrl}/upload/v1/${id}`, file_id: id };
  }

  /** The POST of bytes to an upload_url: Slack answers 200 "OK - <length>". */
  receiveUpload(fileId: string, bytes: Buffer): { status: number; text: string } {
    const file = this.fileStore.get(fileId);
    if (!file || file.completed) return { status: 404, text: "file_not_found" };
    if (bytes.length !== file.declaredLength) {
      const reason = `uploaded ${bytes.length} bytes but files.getUploadURLExternal declared length ${file.declaredLength}`;
      this.recordViolation({
        source: "upload",
        error: "length_mismatch",
        reasons: [reason],
        at: this.now,
        payload: { fileId },
      });
      return { status: 400, text: "length_mismatch" };
    }
    file.bytes = bytes;
    this.emit({ kind: "file", fileId });
    return { status: 200, text: `OK - ${bytes.length}` };
  }

  private completeUpload(args: Args): Record<string, unknown> {
    const list = args.files;
    if (!Array.isArray(list) || list.length === 0) {
      throw new SlackApiError("invalid_arguments", [
        "[ERROR] files must be a non-empty JSON array [json-pointer:/files]",
      ]);
    }
    const files: FakeFile[] = [];
    for (const item of list) {
      const id = isRecord(item) && typeof item.id === "string" ? item.id : "";
      const file = this.fileStore.get(id);
      if (!file?.bytes || file.completed) throw new SlackApiError("file_not_found");
      if (isRecord(item) && typeof item.title === "string" && item.title !== "") file.title = item.title;
      files.push(file);
    }
    const channelId = str(args, "channel_id");
    if (channelId) {
      const channel = this.channels.get(channelId);
      if (!channel) throw new SlackApiError("invalid_channel");
      // Sharing a file needs membership, even in public channels (LIMITS.md).
      if (!channel.isIm && !channel.botIsMember) throw new SlackApiError("not_in_channel");
      const threadTs = str(args, "thread_ts");
      const message = this.postBotMessage(
        "files.completeUploadExternal",
        "files.completeUploadExternal",
        { channel: channel.id, ...(threadTs ? { threadTs } : {}) },
        { text: args.initial_comment ?? "", blocks: args.blocks },
      );
      message.files = files.map((f) => ({ id: f.id, name: f.name, title: f.title }));
      for (const file of files) file.channels.push(channel.id);
    }
    for (const file of files) {
      file.completed = true;
      this.emit({ kind: "file", fileId: file.id });
    }
    return { files: files.map((f) => this.fileJson(f.id)) };
  }

  private filesInfo(args: Args): Record<string, unknown> {
    const file = this.fileStore.get(str(args, "file") ?? "");
    if (!file?.completed) throw new SlackApiError("file_not_found");
    return { file: this.fileJson(file.id), comments: [], response_metadata: { next_cursor: "" } };
  }

  fileJson(id: string): JsonObject {
    const file = this.fileStore.get(id);
    if (!file) return { id };
    const base = `https://files.slack.com/files-pri/${this.options.teamId}-${file.id}`;
    return {
      id: file.id,
      created: file.created,
      timestamp: file.created,
      name: file.name,
      title: file.title,
      mimetype: mimeOf(file.name),
      filetype: file.name.split(".").pop() ?? "",
      user: this.options.botUserId,
      size: file.bytes?.length ?? file.declaredLength,
      is_public: file.channels.some((c) => !this.channels.get(c)?.isPrivate),
      url_private: `${base}/${encodeURIComponent(file.name)}`,
      url_private_download: `${base}/download/${encodeURIComponent(file.name)}`,
      permalink: `https://${this.options.teamDomain}.slack.com/files/${this.options.botUserId}/${file.id}/${encodeURIComponent(file.name)}`,
      channels: file.channels.filter((c) => !this.channels.get(c)?.isPrivate),
      groups: file.channels.filter((c) => this.channels.get(c)?.isPrivate && !this.channels.get(c)?.isIm),
      ims: file.channels.filter((c) => this.channels.get(c)?.isIm),
    };
  }

  files(): FakeFile[] {
    return [...this.fileStore.values()];
  }

  // ---------------------------------------------------------------- socket mode

  private connectionsOpen(): Record<string, unknown> {
    const ticket = this.issueSocketTicket();
    const wsBase = this.baseUrl.replace(/^http/, "ws");
    return { url: `${wsBase}/link/?ticket=${ticket}&app_id=${this.options.appId}` };
  }

  // ---------------------------------------------------------------- response_url

  /** A POST to a response_url, with Slack's 5-use / 30-minute budget. */
  postToResponseUrl(id: string, body: unknown): { status: number; body: Record<string, unknown> } {
    const entry = this.responseUrls.get(id);
    const finish = (status: number, answer: Record<string, unknown>, ts?: string) => {
      const record: ResponseRecord = {
        url: entry?.url ?? `${this.baseUrl}/hooks/${id}`,
        channel: entry?.channel ?? "",
        user: entry?.user ?? "",
        body,
        at: this.now,
        status,
        ...(answer.ok === true ? {} : { error: String(answer.error) }),
        ...(ts ? { ts } : {}),
      };
      this.responses.push(record);
      this.emit({ kind: "response", response: record });
      return { status, body: answer };
    };
    if (!entry) return finish(404, { ok: false, error: "invalid_url" });
    if (this.now - entry.issuedAt > RESPONSE_URL_TTL_MS)
      return finish(404, { ok: false, error: "expired_url" });
    if (entry.uses >= RESPONSE_URL_MAX_USES) return finish(404, { ok: false, error: "used_url" });
    if (!isRecord(body)) return finish(400, { ok: false, error: "invalid_payload" });
    if (this.refused("response_url", body))
      return finish(400, { ok: false, error: this.refusals.get("response_url")?.error ?? "invalid_payload" });
    try {
      const ts = this.applyResponse(entry, body);
      entry.uses += 1;
      return finish(200, { ok: true }, ts);
    } catch (error) {
      if (!(error instanceof SlackApiError)) throw error;
      return finish(400, {
        ok: false,
        error: error.code,
        ...(error.messages.length > 0 ? { response_metadata: { messages: error.messages } } : {}),
      });
    }
  }

  private applyResponse(entry: ResponseUrl, body: Record<string, unknown>): string | undefined {
    const original = entry.originalTs ? this.findMessage(entry.channel, entry.originalTs) : undefined;
    if (body.delete_original === true || body.delete_original === "true") {
      if (!original) throw new SlackApiError("message_not_found");
      this.removeMessage(original);
      return original.ts;
    }
    if (body.replace_original === true || body.replace_original === "true") {
      if (original) {
        const payload = { text: body.text, blocks: body.blocks };
        this.guard("response_url", validateMessagePayload(payload), payload);
        const blocks = Array.isArray(body.blocks) ? (toJson(body.blocks) as Json[]) : [];
        // replace_original swaps the whole message: no blocks given means none remain.
        this.replaceMessage(original, typeof body.text === "string" ? body.text : "", blocks);
        return original.ts;
      }
    }
    const posted = this.postFromBody("response_url", "response_url", entry.channel, entry.user, body);
    // The first message posted through the URL becomes the one replace_original acts on.
    if (!entry.originalTs) entry.originalTs = posted.ts;
    return posted.ts;
  }

  /** A message body from a response_url or an ack: ephemeral unless response_type is in_channel. */
  postFromBody(
    source: string,
    origin: MessageOrigin,
    channel: string,
    user: string,
    body: Record<string, unknown>,
  ): FakeMessage {
    if (body.text === undefined && body.blocks === undefined) {
      throw new SlackApiError("no_text");
    }
    const inChannel = body.response_type === "in_channel";
    const threadTs = typeof body.thread_ts === "string" ? body.thread_ts : undefined;
    return this.postBotMessage(
      source,
      origin,
      { channel, ...(threadTs ? { threadTs } : {}), ...(inChannel ? {} : { ephemeralTo: user }) },
      { text: body.text, blocks: body.blocks },
    );
  }

  /** Applies a view_submission ack's response_action, validating what it brings. */
  applyViewResponse(viewId: string, body: Record<string, unknown>): void {
    const entry = this.viewEntries.get(viewId);
    if (!entry) return;
    const action = body.response_action;
    const source = "ack:view_submission";
    switch (action) {
      case "errors": {
        this.guard(source, validateViewErrors(entry.record.view, body.errors), body);
        const errors: Record<string, string> = {};
        if (isRecord(body.errors)) for (const [k, v] of Object.entries(body.errors)) errors[k] = String(v);
        this.setViewErrors(viewId, errors);
        return;
      }
      case "update":
        this.guard(source, validateView(body.view), body);
        this.replaceView(entry, body.view);
        this.emit({ kind: "view", viewId, action: "updated" });
        return;
      case "push":
        this.guard(source, validateView(body.view), body);
        this.pushView(entry.rootId, body.view);
        return;
      case "clear":
        this.closeStack(entry.rootId);
        return;
      default:
        this.closeView(viewId);
    }
  }
}

// -------------------------------------------------------------------- helpers

/** D + the user id without its leading U: U0DISPATCH → D0DISPATCH. */
export function dmIdFor(userId: string): string {
  return `D${userId.replace(/^[UW]/, "")}`;
}

/** Arguments that Slack takes as JSON strings in form posts, decoded for handlers and the record. */
const JSON_ARGS = ["blocks", "attachments", "view", "files", "metadata"];

export function decodeArgs(raw: Args): Args {
  const args: Args = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === "token") continue;
    if (JSON_ARGS.includes(key) && typeof value === "string") {
      try {
        args[key] = JSON.parse(value) as unknown;
      } catch {
        args[key] = value;
      }
    } else args[key] = value;
  }
  return args;
}

function str(args: Args, key: string): string | undefined {
  const value = args[key];
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

function requireContent(args: Args): void {
  const empty = (v: unknown) => v === undefined || v === null || v === "";
  if (empty(args.text) && empty(args.blocks) && empty(args.attachments)) throw new SlackApiError("no_text");
  if (typeof args.blocks === "string") {
    throw new SlackApiError("invalid_blocks_format", ["[ERROR] blocks must be a JSON array"]);
  }
}

/** Deep copy into plain JSON, so stored payloads never alias the caller's objects. */
export function toJson(value: unknown): Json {
  return JSON.parse(JSON.stringify(value ?? null)) as Json;
}

function keepState(state: JsonObject, blocks: unknown): JsonObject {
  const kept: JsonObject = {};
  if (!Array.isArray(blocks)) return kept;
  for (const block of blocks) {
    if (!isRecord(block) || typeof block.block_id !== "string") continue;
    const old = state[block.block_id];
    if (isRecord(old)) kept[block.block_id] = old as JsonObject;
  }
  return kept;
}

function mimeOf(name: string): string {
  const ext = name.split(".").pop()?.toLowerCase();
  const types: Record<string, string> = {
    csv: "text/csv",
    gpx: "application/gpx+xml",
    png: "image/png",
    txt: "text/plain",
    json: "application/json",
    pdf: "application/pdf",
  };
  return (ext && types[ext]) || "application/octet-stream";
}

/** What a Slack client shows of a message's content: its blocks, or its text when it has none. */
function shownContent(message: Pick<FakeMessage, "text" | "blocks">): string {
  return message.blocks?.length ? JSON.stringify(message.blocks) : message.text;
}
