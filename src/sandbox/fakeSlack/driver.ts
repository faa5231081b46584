/**
 * SlackDriver: sends the bot what Slack sends — slash commands and interaction payloads,
 * signed, form-encoded, over HTTP (or as Socket Mode envelopes) — and then does what
 * Slack does with the bot's acknowledgement: shows an ack message, applies a view's
 * response_action, refuses an ack that came too late. Payload shapes follow Slack's
 * documentation and Bolt's types (SlashCommand, BlockAction, ViewSubmitAction, BlockSuggestion).
 */
import { formatProblem, isRecord, primaryError, validateOptionsResponse } from "./limits.js";
import type { FakeSlack } from "./server.js";
import { signedHeaders } from "./signing.js";
import type { FakeChannel, FakeMessage, FakeUser, Json, JsonObject } from "./types.js";
import { dmIdFor, SlackApiError } from "./workspace.js";

export interface SlackDriverOptions {
  fake: FakeSlack;
  /** The bot's Slack endpoint, e.g. http://127.0.0.1:PORT/slack/events; omit to use Socket Mode. */
  botUrl?: string;
  /** Default: the fake's signing secret. */
  signingSecret?: string;
  /** Clock of the signature timestamp (Bolt refuses ones more than 5 minutes off its own clock). */
  now?: () => number;
  transport?: "http" | "socket";
  /** Slack's acknowledgement deadline; a later answer is treated as no answer. Default 3000. */
  ackTimeoutMs?: number;
  /**
   * Changes each HTTP request just before it is sent: what an attacker who captured or forged
   * one would send (security tests). Default: sent as Slack sends it.
   */
  alterRequest?: (request: { body: string; headers: Record<string, string> }) => {
    body: string;
    headers: Record<string, string>;
  };
}

export interface DriverResult<P = JsonObject> {
  /** HTTP status (200 for a Socket Mode ack); 0 when no answer came before the deadline. */
  status: number;
  /** The ack body: parsed JSON, a plain string, or undefined when empty. */
  body: unknown;
  elapsedMs: number;
  timedOut: boolean;
  /** What was sent: the slash command fields or the interaction payload. */
  payload: P;
  /** A message the ack body produced (slash command). */
  posted?: FakeMessage;
  /** Why Slack would refuse the ack body (limit violation, ignored body), if it would. */
  rejected?: string;
  /** false when Slack would not send anything (view closed without notify_on_close). */
  sent: boolean;
}

/** A user's input into one element: text, option value(s), date, time, user or channel id(s). */
export type ElementInput = string | number | readonly string[] | null | undefined;

export interface SlashCommandInput {
  command?: string;
  text?: string;
  userId: string;
  channelId: string;
}

export interface BlockActionInput {
  userId: string;
  /** With messageTs: an action on a message. */
  channelId?: string;
  messageTs?: string;
  /** An action inside a modal or the Home tab. */
  viewId?: string;
  actionId: string;
  blockId?: string;
  value?: ElementInput;
  selectedOption?: string;
  selectedOptions?: readonly string[];
  selectedDate?: string;
  selectedTime?: string;
  selectedDateTime?: number;
}

export interface ViewSubmissionInput {
  userId?: string;
  viewId: string;
  /** { [block_id]: { [action_id]: input } } — converted to Slack's state.values shape per element type. */
  values?: Record<string, Record<string, ElementInput>>;
}

export interface AppHomeOpenedInput {
  userId: string;
  /** Default "home". */
  tab?: "home" | "messages";
}

export interface BlockSuggestionInput {
  userId: string;
  actionId: string;
  blockId?: string;
  value: string;
  viewId?: string;
  channelId?: string;
  messageTs?: string;
}

interface Located {
  blockId: string;
  element: Record<string, unknown>;
}

export class SlackDriver {
  private readonly fake: FakeSlack;
  private readonly botUrl: string | undefined;
  private readonly signingSecret: string;
  private readonly now: () => number;
  private readonly transport: "http" | "socket";
  private readonly ackTimeoutMs: number;
  private readonly alterRequest: SlackDriverOptions["alterRequest"];
  private eventCounter = 0;

  constructor(options: SlackDriverOptions) {
    this.fake = options.fake;
    this.botUrl = options.botUrl;
    this.signingSecret = options.signingSecret ?? options.fake.options.signingSecret;
    this.now = options.now ?? Date.now;
    this.transport = options.transport ?? (options.botUrl ? "http" : "socket");
    this.ackTimeoutMs = options.ackTimeoutMs ?? 3000;
    this.alterRequest = options.alterRequest;
    if (this.transport === "http" && !this.botUrl)
      throw new Error("SlackDriver: botUrl is required for HTTP");
  }

  private get ws() {
    return this.fake.workspace;
  }

  // ---------------------------------------------------------------- requests

  async slashCommand(input: SlashCommandInput): Promise<DriverResult<Record<string, string>>> {
    const user = this.user(input.userId);
    const channel = this.channel(input.channelId);
    const o = this.fake.options;
    const fields: Record<string, string> = {
      token: o.verificationToken,
      team_id: o.teamId,
      team_domain: o.teamDomain,
      channel_id: channel.id,
      channel_name: channelName(channel),
      user_id: user.id,
      user_name: user.name,
      command: input.command ?? "/fleet",
      text: input.text ?? "",
      api_app_id: o.appId,
      is_enterprise_install: "false",
      response_url: this.ws.issueResponseUrl(channel.id, user.id),
      trigger_id: this.ws.issueTriggerId(user.id),
    };
    const result = await this.deliver(
      new URLSearchParams(fields).toString(),
      "slash_commands",
      fields,
      fields,
    );
    if (result.timedOut) return result;
    const body = ackMessageBody(result.body);
    if (body) {
      try {
        result.posted = this.ws.postFromBody("ack:slash_command", "ack", channel.id, user.id, body);
        this.ws.adoptOriginal(fields.response_url ?? "", result.posted.ts);
      } catch (error) {
        if (!(error instanceof SlackApiError)) throw error;
        result.rejected = error.code;
      }
    }
    return result;
  }

  async blockAction(input: BlockActionInput): Promise<DriverResult> {
    const user = this.user(input.userId);
    const o = this.fake.options;
    const actionTs = this.actionTs();
    const given =
      input.value ??
      input.selectedOption ??
      input.selectedOptions ??
      input.selectedDate ??
      input.selectedTime ??
      input.selectedDateTime;
    const payload: JsonObject = {
      type: "block_actions",
      user: this.userJson(user),
      api_app_id: o.appId,
      token: o.verificationToken,
      team: { id: o.teamId, domain: o.teamDomain },
      enterprise: null,
      is_enterprise_install: false,
    };
    let blocks: unknown;
    if (input.viewId) {
      const entry = this.ws.viewEntry(input.viewId);
      if (!entry?.record.open) throw new Error(`SlackDriver: view ${input.viewId} is not open`);
      blocks = entry.record.view.blocks;
      const found = locate(blocks, input.actionId, input.blockId);
      const state = stateValue(found.element, given);
      if (state) this.ws.setViewState(input.viewId, { [found.blockId]: { [input.actionId]: state } });
      const view = this.ws.viewEntry(input.viewId)?.record.view ?? {};
      payload.container = { type: "view", view_id: input.viewId };
      payload.trigger_id = this.ws.issueTriggerId(user.id, input.viewId);
      payload.view = view;
      payload.actions = [actionJson(found, input.actionId, given, actionTs)];
    } else {
      if (!input.channelId || !input.messageTs) {
        throw new Error("SlackDriver.blockAction: give viewId, or channelId and messageTs");
      }
      const channel = this.channel(input.channelId);
      const message = this.ws.findMessage(channel.id, input.messageTs);
      if (!message) throw new Error(`SlackDriver: no message ${input.messageTs} in ${channel.id}`);
      if (message.ephemeral && message.visibleTo !== user.id) {
        throw new Error(`SlackDriver: ${user.id} cannot see the ephemeral message ${message.ts}`);
      }
      blocks = message.blocks;
      const found = locate(blocks, input.actionId, input.blockId);
      const values: JsonObject = {};
      const state = stateValue(found.element, given);
      if (state) values[found.blockId] = { [input.actionId]: state };
      payload.container = {
        type: "message",
        message_ts: message.ts,
        channel_id: channel.id,
        is_ephemeral: message.ephemeral,
        ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
      };
      payload.trigger_id = this.ws.issueTriggerId(user.id);
      payload.channel = { id: channel.id, name: channelName(channel) };
      // Slack leaves the message out for ephemeral ones: the app never saw their content back.
      if (!message.ephemeral) payload.message = this.ws.messageJson(message);
      payload.state = { values };
      payload.response_url = this.ws.issueResponseUrl(channel.id, user.id, message.ts);
      payload.actions = [actionJson(found, input.actionId, given, actionTs)];
    }
    const result = await this.deliverInteraction(payload);
    if (!result.timedOut && hasContent(result.body)) {
      // Slack ignores an ack body for block_actions: a bot relying on it shows nothing.
      result.rejected = "ignored_ack_body";
      this.ws.recordViolation({
        source: "ack:block_actions",
        error: "ignored_ack_body",
        reasons: ["Slack ignores the body of a block_actions acknowledgement; use respond() or the Web API"],
        at: this.now(),
        payload: result.body,
      });
    }
    return result;
  }

  async viewSubmission(input: ViewSubmissionInput): Promise<DriverResult> {
    const entry = this.ws.viewEntry(input.viewId);
    if (!entry?.record.open || entry.record.type !== "modal") {
      throw new Error(`SlackDriver: no open modal ${input.viewId}`);
    }
    const top = this.fake.views.get(input.viewId)?.stack.at(-1);
    if (top !== input.viewId)
      throw new Error(`SlackDriver: view ${input.viewId} is not the visible one (${top})`);
    const user = this.user(input.userId ?? entry.record.user);
    const blocks = entry.record.view.blocks;
    const values: JsonObject = {};
    for (const [blockId, actions] of Object.entries(input.values ?? {})) {
      for (const [actionId, value] of Object.entries(actions)) {
        const found = locate(blocks, actionId, blockId);
        const state = stateValue(found.element, value);
        if (!state) throw new Error(`SlackDriver: ${found.element.type} has no state`);
        values[blockId] = { ...((values[blockId] as JsonObject | undefined) ?? {}), [actionId]: state };
      }
    }
    this.ws.setViewState(input.viewId, { ...inputDefaults(blocks, entry.state), ...values });
    const view = this.ws.viewEntry(input.viewId)?.record.view ?? {};
    const o = this.fake.options;
    const payload: JsonObject = {
      type: "view_submission",
      team: { id: o.teamId, domain: o.teamDomain },
      user: this.userJson(user),
      api_app_id: o.appId,
      token: o.verificationToken,
      trigger_id: this.ws.issueTriggerId(user.id, input.viewId),
      view,
      response_urls: this.responseUrlsFor(view, user.id),
      enterprise: null,
      is_enterprise_install: false,
    };
    const result = await this.deliverInteraction(payload);
    if (result.timedOut) return result;
    const body = isRecord(result.body) ? result.body : {};
    try {
      this.ws.applyViewResponse(input.viewId, body);
    } catch (error) {
      if (!(error instanceof SlackApiError)) throw error;
      result.rejected = error.code;
    }
    return result;
  }

  /** The user closes the modal: Slack sends view_closed only when the view asked for it. */
  async viewClosed(input: { viewId: string; userId?: string }): Promise<DriverResult> {
    const entry = this.ws.viewEntry(input.viewId);
    if (!entry?.record.open) throw new Error(`SlackDriver: no open view ${input.viewId}`);
    const view = entry.record.view;
    const cleared = view.clear_on_close === true;
    const user = this.user(input.userId ?? entry.record.user);
    const o = this.fake.options;
    const payload: JsonObject = {
      type: "view_closed",
      team: { id: o.teamId, domain: o.teamDomain },
      user: this.userJson(user),
      api_app_id: o.appId,
      token: o.verificationToken,
      view,
      is_cleared: cleared,
      enterprise: null,
      is_enterprise_install: false,
    };
    if (cleared) this.ws.closeStack(entry.rootId);
    else this.ws.closeView(input.viewId);
    if (view.notify_on_close !== true) {
      return { status: 0, body: undefined, elapsedMs: 0, timedOut: false, payload, sent: false };
    }
    return this.deliverInteraction(payload);
  }

  async blockSuggestion(input: BlockSuggestionInput): Promise<DriverResult> {
    const user = this.user(input.userId);
    const o = this.fake.options;
    const payload: JsonObject = {
      type: "block_suggestion",
      user: this.userJson(user),
      team: { id: o.teamId, domain: o.teamDomain },
      api_app_id: o.appId,
      token: o.verificationToken,
      action_id: input.actionId,
      block_id: input.blockId ?? "",
      value: input.value,
      enterprise: null,
      is_enterprise_install: false,
    };
    if (input.viewId) {
      const entry = this.ws.viewEntry(input.viewId);
      if (!entry) throw new Error(`SlackDriver: no view ${input.viewId}`);
      const found = locate(entry.record.view.blocks, input.actionId, input.blockId);
      payload.block_id = found.blockId;
      payload.container = { type: "view", view_id: input.viewId };
      payload.view = entry.record.view;
    } else if (input.channelId) {
      const channel = this.channel(input.channelId);
      payload.channel = { id: channel.id, name: channelName(channel) };
      payload.container = {
        type: "message",
        channel_id: channel.id,
        is_ephemeral: false,
        ...(input.messageTs ? { message_ts: input.messageTs } : {}),
      };
    }
    const result = await this.deliverInteraction(payload);
    if (result.timedOut) return result;
    const problems = validateOptionsResponse(result.body);
    if (problems.length > 0) {
      result.rejected = primaryError(problems);
      this.ws.recordViolation({
        source: "ack:block_suggestion",
        error: result.rejected,
        reasons: problems.map(formatProblem),
        at: this.now(),
        payload: result.body,
      });
    }
    return result;
  }

  /**
   * The Events API delivery of `app_home_opened` (the user opened the app's Home or Messages
   * tab): a signed JSON `event_callback` over HTTP, or an `events_api` envelope in Socket Mode.
   * The Home tab's current view is included, as Slack does once one was published.
   */
  async appHomeOpened(input: AppHomeOpenedInput): Promise<DriverResult> {
    const user = this.user(input.userId);
    const o = this.fake.options;
    const tab = input.tab ?? "home";
    const home = [...this.fake.views.values()].find((v) => v.type === "home" && v.user === user.id);
    const event: JsonObject = {
      type: "app_home_opened",
      user: user.id,
      channel: dmIdFor(user.id),
      tab,
      event_ts: this.actionTs(),
      ...(tab === "home" && home ? { view: home.view } : {}),
    };
    this.eventCounter += 1;
    const payload: JsonObject = {
      token: o.verificationToken,
      team_id: o.teamId,
      api_app_id: o.appId,
      event,
      type: "event_callback",
      event_id: `Ev${String(this.eventCounter).padStart(8, "0")}`,
      event_time: Math.floor(this.now() / 1000),
      authorizations: [
        {
          enterprise_id: null,
          team_id: o.teamId,
          user_id: o.botUserId,
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: false,
    };
    return this.deliver(JSON.stringify(payload), "events_api", payload, payload, "application/json");
  }

  /** Posts a body with exactly the given headers (content type defaults to form): for signature tests. */
  async rawPost(body: string, headers: Record<string, string> = {}): Promise<DriverResult<string>> {
    const started = performance.now();
    const res = await this.fetchBot(body, {
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    });
    return {
      status: res?.status ?? 0,
      body: res?.body,
      elapsedMs: performance.now() - started,
      timedOut: res === undefined,
      payload: body,
      sent: true,
    };
  }

  /** The signature headers Slack would send for `body`, at `timestampSeconds` (default now). */
  sign(body: string, timestampSeconds = Math.floor(this.now() / 1000)): Record<string, string> {
    return signedHeaders(this.signingSecret, timestampSeconds, body);
  }

  // ---------------------------------------------------------------- transport

  private deliverInteraction(payload: JsonObject): Promise<DriverResult> {
    const form = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    return this.deliver(form, "interactive", payload, payload);
  }

  private async deliver<P>(
    form: string,
    envelopeType: string,
    envelope: unknown,
    payload: P,
    contentType = "application/x-www-form-urlencoded",
  ): Promise<DriverResult<P>> {
    const started = performance.now();
    let status = 0;
    let body: unknown;
    let timedOut = false;
    if (this.transport === "socket") {
      try {
        const ack = await this.fake.sendEnvelope(envelopeType, envelope, { timeoutMs: this.ackTimeoutMs });
        status = 200;
        body = hasContent(ack.payload) ? ack.payload : undefined;
      } catch {
        timedOut = true;
      }
    } else {
      const res = await this.fetchBot(form, { "content-type": contentType, ...this.sign(form) });
      if (res) ({ status, body } = res);
      else timedOut = true;
    }
    const elapsedMs = performance.now() - started;
    if (elapsedMs > this.ackTimeoutMs) timedOut = true;
    if (timedOut) {
      this.ws.recordViolation({
        source: `ack:${isRecord(payload) && typeof payload.type === "string" ? payload.type : "slash_command"}`,
        error: "ack_timeout",
        reasons: [`no acknowledgement within ${this.ackTimeoutMs} ms (Slack shows the user an error)`],
        at: this.now(),
        payload,
      });
    }
    return { status: timedOut ? 0 : status, body, elapsedMs, timedOut, payload, sent: true };
  }

  private async fetchBot(
    body: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; body: unknown } | undefined> {
    if (!this.botUrl) throw new Error("SlackDriver: no botUrl for an HTTP request");
    const sent = this.alterRequest ? this.alterRequest({ body, headers }) : { body, headers };
    try {
      const res = await fetch(this.botUrl, {
        method: "POST",
        headers: sent.headers,
        body: sent.body,
        signal: AbortSignal.timeout(this.ackTimeoutMs),
      });
      const text = await res.text();
      return { status: res.status, body: parseBody(text) };
    } catch (error) {
      if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
        return undefined;
      throw error;
    }
  }

  // ---------------------------------------------------------------- helpers

  private user(id: string): FakeUser {
    const user = this.ws.users.get(id);
    if (!user) throw new Error(`SlackDriver: unknown user ${id}`);
    return user;
  }

  private channel(id: string): FakeChannel {
    const channel = this.ws.channels.get(id);
    if (!channel) throw new Error(`SlackDriver: unknown channel ${id}`);
    return channel;
  }

  private userJson(user: FakeUser): JsonObject {
    return { id: user.id, username: user.name, name: user.name, team_id: this.fake.options.teamId };
  }

  private actionTs(): string {
    const ms = this.now();
    return `${Math.floor(ms / 1000)}.${String((ms % 1000) * 1000).padStart(6, "0")}`;
  }

  /** response_url_enabled inputs give the app one response_url per chosen conversation. */
  private responseUrlsFor(view: JsonObject, userId: string): Json[] {
    const urls: Json[] = [];
    const state = isRecord(view.state) && isRecord(view.state.values) ? view.state.values : {};
    for (const block of Array.isArray(view.blocks) ? view.blocks : []) {
      if (!isRecord(block) || block.type !== "input" || !isRecord(block.element)) continue;
      const element = block.element;
      if (element.response_url_enabled !== true || typeof block.block_id !== "string") continue;
      const actionId = String(element.action_id ?? "");
      const blockState = state[block.block_id];
      const value = isRecord(blockState) ? blockState[actionId] : undefined;
      const channelId = isRecord(value) ? (value.selected_conversation ?? value.selected_channel) : undefined;
      if (typeof channelId !== "string") continue;
      urls.push({
        block_id: block.block_id,
        action_id: actionId,
        channel_id: channelId,
        response_url: this.ws.issueResponseUrl(channelId, userId),
      });
    }
    return urls;
  }
}

// -------------------------------------------------------------------- payload pieces

function channelName(channel: FakeChannel): string {
  if (channel.isIm) return "directmessage";
  if (channel.isPrivate) return "privategroup";
  return channel.name;
}

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function hasContent(body: unknown): boolean {
  if (body === undefined || body === null || body === "") return false;
  if (isRecord(body)) return Object.keys(body).length > 0;
  return true;
}

/** A slash command ack body as a message: a plain string is its text. */
function ackMessageBody(body: unknown): Record<string, unknown> | undefined {
  if (typeof body === "string" && body !== "") return { text: body };
  if (isRecord(body) && (body.text !== undefined || body.blocks !== undefined)) return body;
  return undefined;
}

/** Finds an interactive element by action_id (and block_id) in actions, section accessories and inputs. */
function locate(blocks: unknown, actionId: string, blockId?: string): Located {
  const list = Array.isArray(blocks) ? blocks : [];
  for (const [index, block] of list.entries()) {
    if (!isRecord(block)) continue;
    const id = typeof block.block_id === "string" ? block.block_id : `block-${index}`;
    if (blockId !== undefined && id !== blockId) continue;
    const candidates = [
      ...(Array.isArray(block.elements) ? block.elements : []),
      block.accessory,
      block.element,
    ];
    for (const element of candidates) {
      if (isRecord(element) && element.action_id === actionId) return { blockId: id, element };
    }
  }
  throw new Error(
    `SlackDriver: no element with action_id ${actionId}${blockId ? ` in block ${blockId}` : ""}`,
  );
}

function optionsOf(element: Record<string, unknown>): Record<string, unknown>[] {
  const direct = Array.isArray(element.options) ? element.options : [];
  const grouped = Array.isArray(element.option_groups)
    ? element.option_groups.flatMap((g) => (isRecord(g) && Array.isArray(g.options) ? g.options : []))
    : [];
  return [...direct, ...grouped].filter(isRecord);
}

/** The option object Slack sends back: the element's own for static menus, a made-up label for external ones. */
function pickOption(element: Record<string, unknown>, value: string): JsonObject {
  const found = optionsOf(element).find((o) => o.value === value);
  if (found) return JSON.parse(JSON.stringify(found)) as JsonObject;
  if (String(element.type).includes("external")) {
    return { text: { type: "plain_text", text: value, emoji: true }, value };
  }
  throw new Error(`SlackDriver: ${String(element.type)} ${String(element.action_id)} has no option ${value}`);
}

function asList(value: ElementInput): string[] {
  if (value === undefined || value === null) return [];
  return typeof value === "string" || typeof value === "number" ? [String(value)] : [...value];
}

function asOne(value: ElementInput): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === "string" || typeof value === "number" ? String(value) : (value[0] ?? null);
}

/** One element's entry in state.values, shaped per element type as Slack sends it. */
function stateValue(element: Record<string, unknown>, value: ElementInput): JsonObject | undefined {
  const type = String(element.type);
  switch (type) {
    case "plain_text_input":
    case "email_text_input":
    case "url_text_input":
    case "number_input":
      return { type, value: asOne(value) };
    case "static_select":
    case "external_select":
    case "radio_buttons": {
      const one = asOne(value);
      return { type, selected_option: one === null ? null : pickOption(element, one) };
    }
    case "multi_static_select":
    case "multi_external_select":
    case "checkboxes":
      return { type, selected_options: asList(value).map((v) => pickOption(element, v)) };
    case "users_select":
      return { type, selected_user: asOne(value) };
    case "multi_users_select":
      return { type, selected_users: asList(value) };
    case "conversations_select":
      return { type, selected_conversation: asOne(value) };
    case "multi_conversations_select":
      return { type, selected_conversations: asList(value) };
    case "channels_select":
      return { type, selected_channel: asOne(value) };
    case "multi_channels_select":
      return { type, selected_channels: asList(value) };
    case "datepicker":
      return { type, selected_date: asOne(value) };
    case "timepicker":
      return { type, selected_time: asOne(value) };
    case "datetimepicker":
      return {
        type,
        selected_date_time: value === undefined || value === null ? null : Number(asOne(value)),
      };
    default:
      return undefined;
  }
}

/** The element's initial value as state, for inputs the user left untouched. */
function initialInput(element: Record<string, unknown>): ElementInput {
  const option = (o: unknown) => (isRecord(o) && typeof o.value === "string" ? o.value : undefined);
  if (element.initial_value !== undefined) return String(element.initial_value);
  if (element.initial_option !== undefined) return option(element.initial_option) ?? null;
  if (Array.isArray(element.initial_options)) {
    return element.initial_options.map(option).filter((v): v is string => v !== undefined);
  }
  for (const key of [
    "initial_date",
    "initial_time",
    "initial_user",
    "initial_conversation",
    "initial_channel",
  ]) {
    if (typeof element[key] === "string") return element[key];
  }
  for (const key of ["initial_users", "initial_conversations", "initial_channels"]) {
    const list = element[key];
    if (Array.isArray(list)) return list.filter((v): v is string => typeof v === "string");
  }
  if (typeof element.initial_date_time === "number") return element.initial_date_time;
  return null;
}

/** Every input block appears in a submission's state, with its initial value when untouched. */
function inputDefaults(blocks: unknown, current: JsonObject): JsonObject {
  const values: JsonObject = {};
  for (const [index, block] of (Array.isArray(blocks) ? blocks : []).entries()) {
    if (!isRecord(block) || block.type !== "input" || !isRecord(block.element)) continue;
    const blockId = typeof block.block_id === "string" ? block.block_id : `block-${index}`;
    const actionId = String(block.element.action_id ?? "");
    const existing = current[blockId];
    if (isRecord(existing) && existing[actionId] !== undefined) continue;
    const state = stateValue(block.element, initialInput(block.element));
    if (state) values[blockId] = { [actionId]: state };
  }
  return values;
}

/** The actions[] entry of a block_actions payload. */
function actionJson(found: Located, actionId: string, value: ElementInput, actionTs: string): JsonObject {
  const element = found.element;
  const type = String(element.type);
  const base: JsonObject = { type, block_id: found.blockId, action_id: actionId, action_ts: actionTs };
  if (type === "button") {
    for (const key of ["text", "value", "style", "url"]) {
      if (element[key] !== undefined) base[key] = JSON.parse(JSON.stringify(element[key])) as Json;
    }
    return base;
  }
  if (type === "overflow") {
    const one = asOne(value);
    if (one === null) throw new Error(`SlackDriver: overflow ${actionId} needs selectedOption`);
    return { ...base, selected_option: pickOption(element, one) };
  }
  const state = stateValue(element, value);
  if (!state) return base;
  const { type: _type, ...selection } = state;
  if (element.placeholder !== undefined)
    base.placeholder = JSON.parse(JSON.stringify(element.placeholder)) as Json;
  return { ...base, ...selection };
}
