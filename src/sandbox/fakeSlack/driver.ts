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
import { dmIdFor, type FakeWorkspace, SlackApiError } from "./workspace.js";

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
  /**
   * The team every request comes from (another team of the fake, `fake.team(id)`): its ids,
   * domain and enterprise in every team field, its users and channels, its messages and views.
   * Default: the fake's default team, with the fields sent as they always were.
   */
  teamId?: string;
  /**
   * Whether the receiving installation is an org-wide one (`is_enterprise_install`). Default:
   * what the fake knows — an org-wide install of the team's enterprise reaching it, and no
   * install of the team itself.
   */
  enterpriseInstall?: boolean;
}

/** The team fields of a request: whose ids, domain and org Slack puts in it. */
interface TeamIdentity {
  teamId: string;
  teamDomain: string;
  botUserId: string;
  enterprise: { id: string; name: string } | undefined;
  /** The receiving installation is org-wide. */
  enterpriseInstall: boolean;
}

export interface AppUninstalledInput {
  /** The workspace the app was removed from. Default: the driver's team. */
  teamId?: string;
  /** With `orgWide`: the org whose org-wide install was removed (default: the team's enterprise). */
  enterpriseId?: string;
  /** The org-wide install was removed (team_id null, is_enterprise_install true). */
  orgWide?: boolean;
  /** event_time, in seconds. Default: now. */
  eventTime?: number;
}

export interface TokensRevokedInput {
  /** The workspace whose tokens went. Default: the driver's team. */
  teamId?: string;
  /** User ids whose bot tokens were revoked (Slack sends ids, never the tokens). */
  bot: string[];
  /** User ids whose user (OAuth) tokens were revoked. */
  oauth?: string[];
  /** The tokens were the org-wide install's: team_id null, is_enterprise_install true. */
  orgWide?: boolean;
  /** With `orgWide`. Default: the team's enterprise. */
  enterpriseId?: string;
  /** event_time, in seconds. Default: now. */
  eventTime?: number;
}

export interface TeamAccessRevokedInput {
  enterpriseId: string;
  teamIds: string[];
  /** event_time, in seconds. Default: now. */
  eventTime?: number;
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

/** Who an Events API delivery is for: its team (null: org-level), org and bot authorization. */
interface EventSource {
  teamId: string | null;
  enterpriseId: string | undefined;
  enterpriseInstall: boolean;
  botUserId: string;
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
  private readonly options: SlackDriverOptions;
  private readonly teamId: string | undefined;
  /** Shared with the drivers `asTeam` makes, so event ids stay unique across them. */
  private readonly events: { counter: number };

  constructor(options: SlackDriverOptions, events: { counter: number } = { counter: 0 }) {
    this.options = options;
    this.events = events;
    this.fake = options.fake;
    this.teamId = options.teamId;
    this.botUrl = options.botUrl;
    this.signingSecret = options.signingSecret ?? options.fake.options.signingSecret;
    this.now = options.now ?? Date.now;
    this.transport = options.transport ?? (options.botUrl ? "http" : "socket");
    this.ackTimeoutMs = options.ackTimeoutMs ?? 3000;
    this.alterRequest = options.alterRequest;
    if (this.transport === "http" && !this.botUrl)
      throw new Error("SlackDriver: botUrl is required for HTTP");
    if (this.teamId !== undefined && !this.fake.team(this.teamId))
      throw new Error(`SlackDriver: the fake has no team ${this.teamId}`);
  }

  /**
   * The same driver acting in another team of the fake: its requests carry that team's ids
   * (and enterprise), use its users and channels, and read its messages and views.
   */
  asTeam(teamId: string, options: { enterpriseInstall?: boolean } = {}): SlackDriver {
    const { enterpriseInstall: _inherited, ...rest } = this.options;
    return new SlackDriver(
      {
        ...rest,
        teamId,
        ...(options.enterpriseInstall !== undefined ? { enterpriseInstall: options.enterpriseInstall } : {}),
      },
      this.events,
    );
  }

  /** The workspace the driver acts in: the team's (asTeam) or the fake's default one. */
  get workspace(): FakeWorkspace {
    return this.ws;
  }

  private get ws(): FakeWorkspace {
    if (this.teamId === undefined) return this.fake.workspace;
    const workspace = this.fake.team(this.teamId);
    if (!workspace) throw new Error(`SlackDriver: the fake has no team ${this.teamId}`);
    return workspace;
  }

  /**
   * Whose request this is. Without asTeam, the default team exactly as the driver always sent
   * it (no enterprise fields, even when the default team has one configured).
   */
  private identity(): TeamIdentity {
    const o = this.fake.options;
    if (this.teamId === undefined) {
      return {
        teamId: o.teamId,
        teamDomain: o.teamDomain,
        botUserId: o.botUserId,
        enterprise: undefined,
        enterpriseInstall: false,
      };
    }
    const ws = this.ws;
    const enterprise = this.fake.oauth.enterpriseOf(this.teamId);
    const enterpriseInstall =
      enterprise !== undefined &&
      (this.options.enterpriseInstall ?? this.fake.oauth.installationIn(this.teamId) === "org");
    return {
      teamId: this.teamId,
      teamDomain: ws.options.teamDomain,
      botUserId: enterpriseInstall ? this.orgBotUserId(enterprise.id) : ws.options.botUserId,
      enterprise,
      enterpriseInstall,
    };
  }

  /** An org-wide install's bot user: the one oauth.v2.access named (the org's first team's). */
  private orgBotUserId(enterpriseId: string): string {
    const first = this.fake.oauth.teamsOf(enterpriseId)[0];
    const workspace = first ? this.fake.team(first) : undefined;
    if (!workspace) throw new Error(`SlackDriver: the fake has no enterprise ${enterpriseId}`);
    return workspace.options.botUserId;
  }

  /** `team` of an interaction payload: with enterprise_id and enterprise_name inside an org. */
  private teamJson(id: TeamIdentity): JsonObject {
    return {
      id: id.teamId,
      domain: id.teamDomain,
      ...(id.enterprise ? { enterprise_id: id.enterprise.id, enterprise_name: id.enterprise.name } : {}),
    };
  }

  private enterpriseJson(id: TeamIdentity): Json {
    return id.enterprise ? { id: id.enterprise.id, name: id.enterprise.name } : null;
  }

  // ---------------------------------------------------------------- requests

  async slashCommand(input: SlashCommandInput): Promise<DriverResult<Record<string, string>>> {
    const user = this.user(input.userId);
    if (user.external) {
      // Slack sends a slash command to the app installed in the invoking user's own workspace.
      throw new Error(
        `SlackDriver: ${user.id} is from ${user.external.teamId}; Slack sends their commands to their own team's installation (asTeam)`,
      );
    }
    const channel = this.channel(input.channelId);
    const o = this.fake.options;
    const id = this.identity();
    const fields: Record<string, string> = {
      token: o.verificationToken,
      team_id: id.teamId,
      team_domain: id.teamDomain,
      ...(id.enterprise ? { enterprise_id: id.enterprise.id, enterprise_name: id.enterprise.name } : {}),
      channel_id: channel.id,
      channel_name: channelName(channel),
      user_id: user.id,
      user_name: user.name,
      command: input.command ?? "/fleet",
      text: input.text ?? "",
      api_app_id: o.appId,
      is_enterprise_install: String(id.enterpriseInstall),
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
    const id = this.identity();
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
      user: this.userJson(user, id),
      api_app_id: o.appId,
      token: o.verificationToken,
      team: this.teamJson(id),
      enterprise: this.enterpriseJson(id),
      is_enterprise_install: id.enterpriseInstall,
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
    const top = this.ws.viewsSnapshot().get(input.viewId)?.stack.at(-1);
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
    const id = this.identity();
    const payload: JsonObject = {
      type: "view_submission",
      team: this.teamJson(id),
      user: this.userJson(user, id),
      api_app_id: o.appId,
      token: o.verificationToken,
      trigger_id: this.ws.issueTriggerId(user.id, input.viewId),
      view,
      response_urls: this.responseUrlsFor(view, user.id),
      enterprise: this.enterpriseJson(id),
      is_enterprise_install: id.enterpriseInstall,
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
    const id = this.identity();
    const payload: JsonObject = {
      type: "view_closed",
      team: this.teamJson(id),
      user: this.userJson(user, id),
      api_app_id: o.appId,
      token: o.verificationToken,
      view,
      is_cleared: cleared,
      enterprise: this.enterpriseJson(id),
      is_enterprise_install: id.enterpriseInstall,
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
    const id = this.identity();
    const payload: JsonObject = {
      type: "block_suggestion",
      user: this.userJson(user, id),
      team: this.teamJson(id),
      api_app_id: o.appId,
      token: o.verificationToken,
      action_id: input.actionId,
      block_id: input.blockId ?? "",
      value: input.value,
      enterprise: this.enterpriseJson(id),
      is_enterprise_install: id.enterpriseInstall,
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
    const tab = input.tab ?? "home";
    const home = [...this.ws.viewsSnapshot().values()].find((v) => v.type === "home" && v.user === user.id);
    const event: JsonObject = {
      type: "app_home_opened",
      user: user.id,
      channel: dmIdFor(user.id),
      tab,
      event_ts: this.actionTs(),
      ...(tab === "home" && home ? { view: home.view } : {}),
    };
    const id = this.identity();
    return this.deliverEvent(
      event,
      {
        teamId: id.teamId,
        enterpriseId: id.enterprise?.id,
        enterpriseInstall: id.enterpriseInstall,
        botUserId: id.botUserId,
      },
      undefined,
    );
  }

  /**
   * The app was removed (Events API `app_uninstalled`): from a workspace (its team_id), or with
   * `orgWide` the org-wide install of an enterprise (team_id null, enterprise_id, and an
   * authorization with is_enterprise_install true). Call `fake.oauth.uninstall(id)` first to
   * have Slack revoke the tokens, as it does before sending this.
   */
  async appUninstalled(input: AppUninstalledInput = {}): Promise<DriverResult> {
    const source = this.eventSource(input);
    return this.deliverEvent({ type: "app_uninstalled" }, source, input.eventTime);
  }

  /**
   * Tokens of the app were revoked (Events API `tokens_revoked`): `tokens.oauth` and
   * `tokens.bot` list the user ids whose tokens went, never the tokens themselves.
   */
  async tokensRevoked(input: TokensRevokedInput): Promise<DriverResult> {
    const source = this.eventSource(input);
    const tokens: JsonObject = {
      ...(input.oauth !== undefined ? { oauth: [...input.oauth] } : {}),
      bot: [...input.bot],
    };
    return this.deliverEvent({ type: "tokens_revoked", tokens }, source, input.eventTime);
  }

  /**
   * An org-wide install no longer reaches some of its org's workspaces (Events API
   * `team_access_revoked`). Call `fake.oauth.revokeTeamAccess(enterpriseId, teamIds)` first.
   */
  async teamAccessRevoked(input: TeamAccessRevokedInput): Promise<DriverResult> {
    if (this.fake.oauth.teamsOf(input.enterpriseId).length === 0)
      throw new Error(`SlackDriver: the fake has no enterprise ${input.enterpriseId}`);
    return this.deliverEvent(
      { type: "team_access_revoked", team_ids: [...input.teamIds], event_ts: this.actionTs() },
      {
        teamId: null,
        enterpriseId: input.enterpriseId,
        enterpriseInstall: true,
        botUserId: this.orgBotUserId(input.enterpriseId),
      },
      input.eventTime,
    );
  }

  /** Whom an uninstall event is about: a workspace install, or an org-wide one. */
  private eventSource(input: { teamId?: string; enterpriseId?: string; orgWide?: boolean }): EventSource {
    const teamId = input.teamId ?? this.identity().teamId;
    const workspace = this.fake.team(teamId);
    if (input.orgWide) {
      const enterpriseId = input.enterpriseId ?? this.fake.oauth.enterpriseOf(teamId)?.id;
      if (!enterpriseId) throw new Error(`SlackDriver: ${teamId} belongs to no enterprise`);
      return {
        teamId: null,
        enterpriseId,
        enterpriseInstall: true,
        botUserId: this.orgBotUserId(enterpriseId),
      };
    }
    if (!workspace) throw new Error(`SlackDriver: the fake has no team ${teamId}`);
    return {
      teamId,
      enterpriseId: this.fake.oauth.enterpriseOf(teamId)?.id,
      enterpriseInstall: false,
      botUserId: workspace.options.botUserId,
    };
  }

  /**
   * A signed JSON `event_callback` (HTTP) or an `events_api` envelope (Socket Mode), shaped as
   * Slack's Events API: token, team_id (null for an org-level event), enterprise_id inside an
   * org, api_app_id, event, type, event_id, event_time (seconds), one authorization, and
   * is_ext_shared_channel.
   */
  private deliverEvent(event: JsonObject, source: EventSource, eventTime: number | undefined) {
    const o = this.fake.options;
    this.events.counter += 1;
    const payload: JsonObject = {
      token: o.verificationToken,
      team_id: source.teamId,
      ...(source.enterpriseId !== undefined ? { enterprise_id: source.enterpriseId } : {}),
      api_app_id: o.appId,
      event,
      type: "event_callback",
      event_id: `Ev${String(this.events.counter).padStart(8, "0")}`,
      event_time: eventTime ?? Math.floor(this.now() / 1000),
      authorizations: [
        {
          enterprise_id: source.enterpriseId ?? null,
          team_id: source.enterpriseInstall ? null : source.teamId,
          user_id: source.botUserId,
          is_bot: true,
          is_enterprise_install: source.enterpriseInstall,
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

  /**
   * Inside an Enterprise org, Slack reports the org's id (E…) as the user's team_id. A Slack
   * Connect user from another organisation carries their own team (or org), not the receiving one.
   */
  private userJson(user: FakeUser, id: TeamIdentity): JsonObject {
    const home = user.external
      ? (user.external.enterpriseId ?? user.external.teamId)
      : (id.enterprise?.id ?? id.teamId);
    return { id: user.id, username: user.name, name: user.name, team_id: home };
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
