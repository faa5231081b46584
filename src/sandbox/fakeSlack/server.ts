/**
 * FakeSlack: the fake workspace behind a node:http server speaking Slack's wire formats —
 * the Web API (/api/<method>), upload URLs, response URLs and a Socket Mode WebSocket.
 * Tests point @slack/web-api or Bolt at `apiUrl`; the sandbox UI subscribes to onChange.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { isRecord } from "./limits.js";
import {
  FakeOAuth,
  type FakeOAuthOptions,
  type FakeTeamInput,
  type ResolvedFakeOAuthOptions,
  redactOAuth,
  SECOND_TEAM,
} from "./oauth.js";
import type {
  ChangeEvent,
  FakeChannelInput,
  FakeFile,
  FakeMessage,
  FakeUserInput,
  FakeView,
  RecordedCall,
  ResponseRecord,
  Violation,
} from "./types.js";
import { WebSocketPeer } from "./websocket.js";
import { type Args, FakeWorkspace } from "./workspace.js";

export interface FakeSlackOptions {
  host?: string;
  port?: number;
  botToken?: string;
  /** App-level token (xapp-…) accepted by apps.connections.open. */
  appToken?: string;
  signingSecret?: string;
  /** The deprecated verification token Slack still puts in every payload. */
  verificationToken?: string;
  teamId?: string;
  teamName?: string;
  teamDomain?: string;
  botUserId?: string;
  botId?: string;
  appId?: string;
  users?: FakeUserInput[];
  channels?: FakeChannelInput[];
  now?: () => number;
  /** "strict" rejects payloads beyond Slack's limits; "off" accepts them (sandbox experiments). */
  limits?: "strict" | "off";
  /**
   * "per-channel": chat.postMessage about once a second per channel, as Slack; a faster one is
   * answered HTTP 429 with Retry-After and not posted. Default "off" (tests post freely).
   */
  postRate?: "per-channel" | "off";
  /**
   * More workspaces, reachable only with tokens an install issued (oauth.ts). Default: one,
   * SECOND_TEAM (T0SECOND). The default team (teamId, users, channels) is unchanged by them.
   */
  teams?: FakeTeamInput[];
  /** "Add to Slack": client id and secret, token rotation, the default team's enterprise. */
  oauth?: FakeOAuthOptions;
}

export type ResolvedFakeSlackOptions = Required<
  Omit<FakeSlackOptions, "users" | "channels" | "teams" | "oauth">
> & {
  users: FakeUserInput[];
  channels: FakeChannelInput[];
  teams: FakeTeamInput[];
  oauth: ResolvedFakeOAuthOptions;
};

export const DEFAULT_USERS: FakeUserInput[] = [
  { id: "U0DISPATCH", name: "dispatch", realName: "Dana Dispatcher", tz: "Europe/Bucharest" },
  { id: "U0NEWYORK", name: "newyork", realName: "Nora York", tz: "America/New_York" },
  { id: "U0VIEWER", name: "viewer", realName: "Victor Viewer", tz: "Europe/Bucharest" },
];

export const DEFAULT_CHANNELS: FakeChannelInput[] = [
  { id: "C0GENERAL", name: "general", isPrivate: false, botIsMember: true },
  { id: "C0ALERTS", name: "alerts", isPrivate: false, botIsMember: false },
  { id: "G0PRIVATE", name: "dispatch-private", isPrivate: true, botIsMember: false, members: ["U0DISPATCH"] },
];

export interface WaitOptions {
  /** 10 s unless said: a loaded CI machine may take seconds for what a quiet one does at once. */
  timeoutMs?: number;
}

/** An envelope's acknowledgement coming back over the Socket Mode connection. */
export interface SocketAck {
  payload: unknown;
  elapsedMs: number;
}

export interface FakeSlack {
  readonly options: ResolvedFakeSlackOptions;
  /** e.g. http://127.0.0.1:PORT */
  readonly url: string;
  /** e.g. http://127.0.0.1:PORT/api/ — Bolt's clientOptions.slackApiUrl, WebClient's slackApiUrl. */
  readonly apiUrl: string;
  readonly calls: readonly RecordedCall[];
  readonly violations: readonly Violation[];
  readonly responses: readonly ResponseRecord[];
  readonly files: readonly FakeFile[];
  /** Every view ever opened or published, by id. */
  readonly views: ReadonlyMap<string, FakeView>;
  readonly socketConnections: number;
  /** The workspace itself: the driver and the sandbox UI act on it directly. */
  readonly workspace: FakeWorkspace;
  /** Installs: the authorize page, oauth.v2.access, issued tokens (`uninstall` revokes them). */
  readonly oauth: FakeOAuth;
  /** e.g. http://127.0.0.1:PORT/oauth/v2/authorize — InstallProvider's `authorizationUrl`. */
  readonly authorizeUrl: string;
  /** A team's workspace (the default one included), or undefined. */
  team(teamId: string): FakeWorkspace | undefined;
  /**
   * Slack Connect: the host team's channel is shared with another organisation's team, and these
   * users of that team join it. The channel gets the same id in the guest team (its own messages);
   * in the host team the users are external members (their own team in `user.team_id`).
   */
  shareChannel(input: {
    channelId: string;
    hostTeamId: string;
    guestTeamId: string;
    users: readonly string[];
  }): void;
  /** A channel's messages, thread replies and ephemeral ones included, oldest first. */
  messages(channel: string): FakeMessage[];
  /** A fresh trigger_id (3 s, single use); default user: the first configured one. */
  issueTriggerId(user?: string, viewId?: string): string;
  issueResponseUrl(channel: string, user: string, originalTs?: string): string;
  rateLimit(method: string, options?: { times?: number; retryAfterSeconds?: number }): void;
  /** The next `times` calls of a method (or response_url posts) are refused with `error`. */
  refuse(target: string, error: string, options?: { times?: number }): void;
  reset(): void;
  onChange(listener: (event: ChangeEvent) => void): () => void;
  /** Resolves with the probe's first truthy answer, re-checked on every change (no polling). */
  waitFor<T>(probe: (fake: FakeSlack) => T | undefined | null | false, options?: WaitOptions): Promise<T>;
  waitForCall(
    method: string,
    match?: (call: RecordedCall) => boolean,
    options?: WaitOptions,
  ): Promise<RecordedCall>;
  waitForMessage(
    channel: string,
    match?: (m: FakeMessage) => boolean,
    options?: WaitOptions,
  ): Promise<FakeMessage>;
  /** Sends a Socket Mode envelope to the connected app and waits for its ack. */
  sendEnvelope(type: string, payload: unknown, options?: WaitOptions): Promise<SocketAck>;
  close(): Promise<void>;
}

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const resolved: ResolvedFakeSlackOptions = {
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    botToken: options.botToken ?? "xoxb-fake",
    appToken: options.appToken ?? "xapp-fake",
    signingSecret: options.signingSecret ?? "fake-signing-secret",
    verificationToken: options.verificationToken ?? "fake-verification-token",
    teamId: options.teamId ?? "T0FLEET",
    teamName: options.teamName ?? "Fleet Sandbox",
    teamDomain: options.teamDomain ?? "fleet-sandbox",
    botUserId: options.botUserId ?? "U0FLEETBOT",
    botId: options.botId ?? "B0FLEETBOT",
    appId: options.appId ?? "A0FLEETBOT",
    users: options.users ?? DEFAULT_USERS,
    channels: options.channels ?? DEFAULT_CHANNELS,
    now: options.now ?? Date.now,
    limits: options.limits ?? "strict",
    postRate: options.postRate ?? "off",
    teams: options.teams ?? [SECOND_TEAM],
    oauth: {
      clientId: options.oauth?.clientId ?? "fake-client-id",
      clientSecret: options.oauth?.clientSecret ?? "fake-client-secret",
      tokenRotation: options.oauth?.tokenRotation ?? false,
      expiresInSeconds: options.oauth?.expiresInSeconds ?? 43_200,
      ...(options.oauth?.enterpriseId
        ? {
            enterpriseId: options.oauth.enterpriseId,
            enterpriseName: options.oauth.enterpriseName ?? options.oauth.enterpriseId,
          }
        : {}),
    },
  };
  const server = new FakeSlackServer(resolved);
  await server.listen();
  return server;
}

class FakeSlackServer implements FakeSlack {
  readonly workspace: FakeWorkspace;
  readonly oauth: FakeOAuth;
  /** The teams beyond the default one, by id. */
  private readonly otherTeams = new Map<string, FakeWorkspace>();
  private readonly http: Server;
  private readonly sockets = new Set<WebSocketPeer>();
  private readonly pendingAcks = new Map<string, (payload: unknown) => void>();
  url = "";
  apiUrl = "";
  authorizeUrl = "";

  constructor(readonly options: ResolvedFakeSlackOptions) {
    this.workspace = new FakeWorkspace({
      teamId: options.teamId,
      teamName: options.teamName,
      teamDomain: options.teamDomain,
      botToken: options.botToken,
      appToken: options.appToken,
      botUserId: options.botUserId,
      botId: options.botId,
      appId: options.appId,
      users: options.users,
      channels: options.channels,
      ...(options.oauth.enterpriseId
        ? {
            enterprise: {
              id: options.oauth.enterpriseId,
              name: options.oauth.enterpriseName ?? options.oauth.enterpriseId,
            },
          }
        : {}),
      now: options.now,
      limits: options.limits,
      postRate: options.postRate,
    });
    const teams = new Map<string, { workspace: FakeWorkspace; enterprise?: { id: string; name: string } }>();
    const enterpriseOf = (id: string | undefined, name: string | undefined) =>
      id ? { enterprise: { id, name: name ?? id } } : {};
    teams.set(options.teamId, {
      workspace: this.workspace,
      ...enterpriseOf(options.oauth.enterpriseId, options.oauth.enterpriseName),
    });
    for (const team of options.teams) {
      if (teams.has(team.teamId)) throw new Error(`FakeSlack: team ${team.teamId} is configured twice`);
      const workspace = new FakeWorkspace({
        teamId: team.teamId,
        teamName: team.teamName,
        teamDomain: team.teamDomain ?? team.teamId.toLowerCase(),
        // Only tokens issued by an install reach this workspace: its own is never handed out,
        // so it is a random value no caller can present (and not shaped like a real token).
        botToken: `unissued:${randomUUID()}`,
        appToken: `unissued:${randomUUID()}`,
        botUserId: team.botUserId ?? `${team.teamId}BOT`.replace(/^T/, "U"),
        botId: team.botId ?? `${team.teamId}BOT`.replace(/^T/, "B"),
        appId: options.appId,
        users: team.users ?? [],
        channels: team.channels ?? [],
        ...(team.enterpriseId
          ? { enterprise: { id: team.enterpriseId, name: team.enterpriseName ?? team.enterpriseId } }
          : {}),
        now: options.now,
        limits: options.limits,
        postRate: options.postRate,
      });
      this.otherTeams.set(team.teamId, workspace);
      teams.set(team.teamId, { workspace, ...enterpriseOf(team.enterpriseId, team.enterpriseName) });
    }
    this.oauth = new FakeOAuth(options.oauth, options.appId, teams, options.now);
    this.http = createServer((req, res) => {
      this.route(req, res).catch((error: unknown) => {
        if (!res.headersSent)
          sendJson(res, 500, { ok: false, error: "internal_error", detail: String(error) });
        else res.end();
      });
    });
    this.http.on("upgrade", (req, socket) => this.upgrade(req, socket));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.http.once("error", reject);
      this.http.listen(this.options.port, this.options.host, () => resolve());
    });
    const { port } = this.http.address() as AddressInfo;
    this.url = `http://${this.options.host}:${port}`;
    this.apiUrl = `${this.url}/api/`;
    this.workspace.baseUrl = this.url;
    // Another team's response and upload URLs carry its id, so they reach its workspace.
    for (const [teamId, workspace] of this.otherTeams) workspace.baseUrl = `${this.url}/t/${teamId}`;
    this.authorizeUrl = `${this.url}/oauth/v2/authorize`;
  }

  team(teamId: string): FakeWorkspace | undefined {
    return this.oauth.workspace(teamId);
  }

  shareChannel(input: {
    channelId: string;
    hostTeamId: string;
    guestTeamId: string;
    users: readonly string[];
  }): void {
    const host = this.team(input.hostTeamId);
    const guest = this.team(input.guestTeamId);
    if (!host || !guest) throw new Error("FakeSlack.shareChannel: unknown team");
    const channel = host.channels.get(input.channelId);
    if (!channel)
      throw new Error(`FakeSlack.shareChannel: no channel ${input.channelId} in ${input.hostTeamId}`);
    const enterpriseId = this.oauth.enterpriseOf(input.guestTeamId)?.id;
    for (const id of input.users) {
      const user = guest.users.get(id);
      if (!user) throw new Error(`FakeSlack.shareChannel: no user ${id} in ${input.guestTeamId}`);
      host.addExternalMember(
        user,
        { teamId: input.guestTeamId, ...(enterpriseId ? { enterpriseId } : {}) },
        input.channelId,
      );
    }
    guest.addSharedChannel({ id: channel.id, name: channel.name }, input.users);
  }

  get calls(): readonly RecordedCall[] {
    return this.workspace.calls;
  }
  get violations(): readonly Violation[] {
    return this.workspace.violations;
  }
  get responses(): readonly ResponseRecord[] {
    return this.workspace.responses;
  }
  get files(): readonly FakeFile[] {
    return this.workspace.files();
  }
  get views(): ReadonlyMap<string, FakeView> {
    return this.workspace.viewsSnapshot();
  }
  get socketConnections(): number {
    return [...this.sockets].filter((s) => s.isOpen).length;
  }

  messages(channel: string): FakeMessage[] {
    return this.workspace.messages(channel);
  }
  issueTriggerId(user?: string, viewId?: string): string {
    return this.workspace.issueTriggerId(user, viewId);
  }
  issueResponseUrl(channel: string, user: string, originalTs?: string): string {
    return this.workspace.issueResponseUrl(channel, user, originalTs);
  }
  rateLimit(method: string, options?: { times?: number; retryAfterSeconds?: number }): void {
    this.workspace.rateLimit(method, options);
  }
  refuse(target: string, error: string, options?: { times?: number }): void {
    this.workspace.refuse(target, error, options);
  }

  reset(): void {
    this.workspace.reset();
    for (const workspace of this.otherTeams.values()) workspace.reset();
    this.oauth.reset();
  }
  onChange(listener: (event: ChangeEvent) => void): () => void {
    return this.workspace.onChange(listener);
  }

  waitFor<T>(
    probe: (fake: FakeSlack) => T | undefined | null | false,
    options: WaitOptions = {},
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? 10_000;
    return new Promise<T>((resolve, reject) => {
      const check = (): boolean => {
        const found = probe(this);
        if (found === undefined || found === null || found === false) return false;
        cleanup();
        resolve(found);
        return true;
      };
      const unsubscribe = this.onChange(() => {
        check();
      });
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`FakeSlack.waitFor: nothing matched within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        unsubscribe();
      };
      check();
    });
  }

  waitForCall(
    method: string,
    match: (call: RecordedCall) => boolean = () => true,
    options?: WaitOptions,
  ): Promise<RecordedCall> {
    return this.waitFor((fake) => fake.calls.find((c) => c.method === method && match(c)), options);
  }

  waitForMessage(
    channel: string,
    match: (m: FakeMessage) => boolean = () => true,
    options?: WaitOptions,
  ): Promise<FakeMessage> {
    return this.waitFor((fake) => fake.messages(channel).find(match), options);
  }

  sendEnvelope(type: string, payload: unknown, options: WaitOptions = {}): Promise<SocketAck> {
    const socket = [...this.sockets].reverse().find((s) => s.isOpen);
    if (!socket) return Promise.reject(new Error("FakeSlack: no Socket Mode connection"));
    const envelopeId = randomUUID();
    const started = performance.now();
    const timeoutMs = options.timeoutMs ?? 3000;
    return new Promise<SocketAck>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pendingAcks.delete(envelopeId);
        reject(new Error(`FakeSlack: envelope ${type} not acknowledged within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pendingAcks.set(envelopeId, (ackPayload) => {
        clearTimeout(timer);
        resolve({ payload: ackPayload, elapsedMs: performance.now() - started });
      });
      socket.sendText(
        JSON.stringify({
          envelope_id: envelopeId,
          type,
          payload,
          accepts_response_payload: type !== "events_api",
        }),
      );
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }

  // ---------------------------------------------------------------- HTTP routing

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.url);
    const teamPath = /^\/t\/([A-Z0-9]+)(\/.*)$/.exec(url.pathname);
    const teamWorkspace = teamPath ? this.otherTeams.get(teamPath[1] ?? "") : undefined;
    const workspace = teamWorkspace ?? this.workspace;
    const path = teamWorkspace ? (teamPath?.[2] ?? "/") : url.pathname;
    if (path === "/oauth/v2/authorize" && req.method === "GET" && !teamWorkspace) {
      const answer = this.oauth.authorize(url.searchParams, url.toString());
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
      return;
    }
    if (path.startsWith("/api/")) {
      await this.webApi(req, res, path.slice("/api/".length), url.searchParams);
      return;
    }
    if (path.startsWith("/upload/v1/") && req.method === "POST") {
      const bytes = await uploadedBytes(req, await readBody(req));
      const answer = workspace.receiveUpload(path.slice("/upload/v1/".length), bytes);
      res.writeHead(answer.status, { "content-type": "text/plain; charset=utf-8" });
      res.end(answer.text);
      return;
    }
    if (path.startsWith("/hooks/") && req.method === "POST") {
      const body = parseResponseBody(req.headers["content-type"], await readBody(req));
      const answer = workspace.postToResponseUrl(path.slice("/hooks/".length), body);
      sendJson(res, answer.status, answer.body);
      return;
    }
    if (path === "/" && req.method === "GET") {
      sendJson(res, 200, { ok: true, service: "fleetbot fake Slack", apiUrl: this.apiUrl });
      return;
    }
    sendJson(res, 404, { ok: false, error: "not_found" });
  }

  private async webApi(req: IncomingMessage, res: ServerResponse, method: string, query: URLSearchParams) {
    const raw = await readBody(req);
    const args: Args = Object.fromEntries(query.entries());
    const isJson = (req.headers["content-type"] ?? "").toLowerCase().startsWith("application/json");
    let parseError: string | undefined;
    try {
      Object.assign(args, await parseApiBody(req.headers["content-type"], raw));
    } catch {
      parseError = "invalid_json";
    }
    if (parseError) {
      sendJson(res, 200, { ok: false, error: parseError });
      return;
    }
    const auth = req.headers.authorization;
    const bearer = auth?.startsWith("Bearer ") ? auth.slice("Bearer ".length).trim() : undefined;
    // Slack reads the token of a JSON body from the Authorization header only.
    const bodyToken = !isJson && typeof args.token === "string" ? args.token : undefined;
    const token = bearer || bodyToken;
    if (method === "oauth.v2.access") {
      const body = this.oauth.access(args, auth);
      this.recordOAuthCall(method, args, body);
      sendJson(res, 200, body);
      return;
    }
    if (token !== undefined && this.oauth.issued(token)) {
      const resolved = this.oauth.resolveToken(token, args);
      if ("error" in resolved) {
        sendJson(res, 200, { ok: false, error: resolved.error });
        return;
      }
      // The team's workspace runs the call as its bot; an org-wide token says so in auth.test.
      const answer = resolved.workspace.call(method, args, resolved.workspace.options.botToken);
      if (method === "auth.test" && answer.body.ok === true) {
        answer.body.enterprise_id = resolved.enterpriseId;
        answer.body.is_enterprise_install = resolved.orgWide;
      }
      sendJson(res, answer.status, answer.body, answer.headers);
      return;
    }
    const answer = this.workspace.call(method, args, token);
    sendJson(res, answer.status, answer.body, answer.headers);
  }

  /** oauth.v2.access is recorded with the default team's calls, its secrets, code and tokens hidden. */
  private recordOAuthCall(method: string, args: Args, body: Record<string, unknown>): void {
    const call: RecordedCall = {
      method,
      args: redactOAuth(Object.fromEntries(Object.entries(args).filter(([key]) => key !== "token"))),
      at: this.options.now(),
      ok: body.ok === true,
      response: redactOAuth(body),
      ...(body.ok === true ? {} : { error: String(body.error) }),
    };
    this.workspace.calls.push(call);
    this.workspace.emit({ kind: "call", call });
  }

  // ---------------------------------------------------------------- Socket Mode

  private upgrade(req: IncomingMessage, socket: Duplex): void {
    const url = new URL(req.url ?? "/", this.url);
    const ticket = url.searchParams.get("ticket") ?? "";
    if (url.pathname !== "/link/" || !this.workspace.consumeSocketTicket(ticket)) {
      socket.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n");
      return;
    }
    const peer = WebSocketPeer.accept(req, socket);
    if (!peer) {
      socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
      return;
    }
    this.sockets.add(peer);
    peer.onMessage = (text) => this.socketMessage(text);
    peer.onClose = () => {
      this.sockets.delete(peer);
      this.workspace.emit({ kind: "socket", action: "disconnected" });
    };
    peer.sendText(
      JSON.stringify({
        type: "hello",
        num_connections: this.socketConnections,
        debug_info: { host: "fake-slack", build_number: 1, approximate_connection_time: 3600 },
        connection_info: { app_id: this.options.appId },
      }),
    );
    this.workspace.emit({ kind: "socket", action: "connected" });
  }

  private socketMessage(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (!isRecord(message) || typeof message.envelope_id !== "string") return;
    const resolve = this.pendingAcks.get(message.envelope_id);
    if (!resolve) return;
    this.pendingAcks.delete(message.envelope_id);
    resolve(message.payload);
  }
}

// -------------------------------------------------------------------- body parsing

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Slack accepts form-encoded, multipart and JSON bodies on every method. */
async function parseApiBody(contentType: string | undefined, raw: Buffer): Promise<Args> {
  const type = (contentType ?? "").toLowerCase();
  if (raw.length === 0) return {};
  if (type.startsWith("application/json")) {
    const parsed: unknown = JSON.parse(raw.toString("utf8"));
    return isRecord(parsed) ? parsed : {};
  }
  if (type.startsWith("multipart/form-data")) {
    const form = await new Response(new Uint8Array(raw), {
      headers: { "content-type": contentType ?? "" },
    }).formData();
    const args: Args = {};
    for (const [key, value] of form.entries()) {
      args[key] = typeof value === "string" ? value : Buffer.from(await value.arrayBuffer());
    }
    return args;
  }
  return Object.fromEntries(new URLSearchParams(raw.toString("utf8")).entries());
}

/** An upload_url takes the raw bytes or a multipart form holding them (what WebClient sends). */
async function uploadedBytes(req: IncomingMessage, raw: Buffer): Promise<Buffer> {
  const type = req.headers["content-type"] ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) return raw;
  const form = await new Response(new Uint8Array(raw), { headers: { "content-type": type } }).formData();
  for (const value of form.values()) {
    if (typeof value !== "string") return Buffer.from(await value.arrayBuffer());
  }
  const first = form.values().next();
  return first.done ? Buffer.alloc(0) : Buffer.from(String(first.value));
}

/** response_url bodies are JSON; a form post with a `payload` field is accepted as well. */
function parseResponseBody(contentType: string | undefined, raw: Buffer): unknown {
  const text = raw.toString("utf8");
  try {
    if ((contentType ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded")) {
      const payload = new URLSearchParams(text).get("payload");
      return payload ? (JSON.parse(payload) as unknown) : undefined;
    }
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}
