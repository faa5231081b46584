/**
 * The fake Slack's side of "Add to Slack": the authorize page (`GET /oauth/v2/authorize`), the
 * token exchange (`oauth.v2.access`, code and refresh_token grants), and the tokens it issues,
 * each valid in one team (or, for an org-wide install, in every team of one enterprise) until it
 * expires (token rotation) or the app is uninstalled there.
 *
 * Answers follow Slack's documented oauth.v2.access response, which @slack/oauth's
 * InstallProvider reads: ok, access_token, token_type "bot", scope, bot_user_id, app_id,
 * team ({id, name}, null for an org-wide install), enterprise (null or {id, name}),
 * is_enterprise_install, authed_user ({id}, plus its token when user scopes were asked), and with
 * token rotation refresh_token + expires_in. server.ts routes HTTP here; a Web API call carrying
 * an issued token is run by the workspace of its team (`resolveToken`).
 */
import { randomBytes } from "node:crypto";
import type { FakeChannelInput, FakeUserInput } from "./types.js";
import type { Args, FakeWorkspace } from "./workspace.js";

/** Another workspace of the fake, reachable only with tokens issued by an install. */
export interface FakeTeamInput {
  teamId: string;
  teamName: string;
  teamDomain?: string;
  /** The Enterprise Grid org the team belongs to. */
  enterpriseId?: string;
  enterpriseName?: string;
  botUserId?: string;
  botId?: string;
  users?: FakeUserInput[];
  channels?: FakeChannelInput[];
}

export interface FakeOAuthOptions {
  clientId?: string;
  clientSecret?: string;
  /** Token rotation on: bot tokens expire after `expiresInSeconds` and come with a refresh token. */
  tokenRotation?: boolean;
  /** Lifetime of a rotating token; Slack's is 12 hours. */
  expiresInSeconds?: number;
  /** Enterprise of the default team (T0FLEET by default has none). */
  enterpriseId?: string;
  enterpriseName?: string;
}

export type ResolvedFakeOAuthOptions = Required<Omit<FakeOAuthOptions, "enterpriseId" | "enterpriseName">> &
  Pick<FakeOAuthOptions, "enterpriseId" | "enterpriseName">;

/** Who approves the next installs on the authorize page, without a browser (tests). */
export interface InstallChoice {
  /** The installing team; with `orgWide`, the enterprise id or a team of it. */
  teamId: string;
  /** Default: the team's first user. */
  userId?: string;
  /** An org-wide install of the team's enterprise. */
  orgWide?: boolean;
  /** The user presses Cancel: the redirect carries error=access_denied. */
  deny?: boolean;
}

/** A second carrier, so a developer can install fleetbot in two workspaces locally. */
export const SECOND_TEAM: FakeTeamInput = {
  teamId: "T0SECOND",
  teamName: "Second Carrier",
  teamDomain: "second-carrier",
  botUserId: "U0SECONDBOT",
  botId: "B0SECONDBOT",
  users: [
    { id: "U0SECDISP", name: "dispecer", realName: "Sorina Secund", tz: "Europe/Bucharest" },
    { id: "U0SECADMIN", name: "admin", realName: "Andrei Admin", tz: "Europe/Bucharest", isAdmin: true },
  ],
  channels: [
    { id: "C0SECGENERAL", name: "general", isPrivate: false, botIsMember: true },
    { id: "C0SECALERTS", name: "alerte", isPrivate: false, botIsMember: false },
  ],
};

/** Slack's authorization codes live 10 minutes and are single use. */
export const CODE_TTL_MS = 10 * 60 * 1000;

interface Grant {
  /** The team the token acts in; for an org-wide install, undefined. */
  teamId: string | undefined;
  enterpriseId: string | undefined;
  userId: string;
  scopes: string[];
  userScopes: string[];
}

interface PendingCode extends Grant {
  clientId: string;
  redirectUri: string | undefined;
  issuedAt: number;
  used: boolean;
}

interface IssuedToken extends Grant {
  kind: "bot" | "user" | "refresh";
  /** ms; undefined: does not expire. */
  expiresAt: number | undefined;
  revoked: boolean;
}

/** An install the fake approved and exchanged (tests read who installed what). */
export interface FakeInstall {
  teamId: string | undefined;
  enterpriseId: string | undefined;
  userId: string;
  isEnterpriseInstall: boolean;
  scopes: string[];
  at: number;
}

export interface OAuthAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export class FakeOAuth {
  /** Approve the next authorize page visits this way (a browser is then not needed). */
  autoApprove: InstallChoice | undefined;
  readonly installs: FakeInstall[] = [];
  private readonly codes = new Map<string, PendingCode>();
  private readonly tokens = new Map<string, IssuedToken>();
  /** Teams an org-wide install no longer reaches (team_access_revoked), as `enterprise/team`. */
  private readonly accessRevoked = new Set<string>();

  constructor(
    readonly options: ResolvedFakeOAuthOptions,
    private readonly appId: string,
    /** Every team, the default first: its workspace, and its enterprise. */
    private readonly teams: ReadonlyMap<
      string,
      { workspace: FakeWorkspace; enterprise?: { id: string; name: string } }
    >,
    private readonly now: () => number,
  ) {}

  /**
   * The app's Redirect URL as configured on Slack's side (the manifest's `redirect_urls`): used
   * when the authorize page is opened without `redirect_uri`, as Slack does. Set once the app's
   * address is known.
   */
  configuredRedirectUri: string | undefined;

  // ---------------------------------------------------------------- teams

  workspace(teamId: string): FakeWorkspace | undefined {
    return this.teams.get(teamId)?.workspace;
  }

  /** The Enterprise Grid org a team belongs to, if any. */
  enterpriseOf(teamId: string): { id: string; name: string } | undefined {
    return this.teams.get(teamId)?.enterprise;
  }

  /** The teams of an enterprise, in configuration order. */
  teamsOf(enterpriseId: string): string[] {
    return [...this.teams].filter(([, team]) => team.enterprise?.id === enterpriseId).map(([id]) => id);
  }

  /**
   * How the app is installed in a team right now, judged by the live (unrevoked) bot tokens:
   * "team" (its own install), "org" (an org-wide install of its enterprise that still reaches
   * it), or undefined. What the driver puts in `is_enterprise_install`.
   */
  installationIn(teamId: string): "team" | "org" | undefined {
    const enterpriseId = this.enterpriseOf(teamId)?.id;
    let org = false;
    for (const token of this.tokens.values()) {
      if (token.kind !== "bot" || token.revoked) continue;
      if (token.teamId === teamId) return "team";
      if (token.teamId === undefined && enterpriseId !== undefined && token.enterpriseId === enterpriseId)
        org = true;
    }
    return org && !this.accessRevoked.has(accessKey(enterpriseId ?? "", teamId)) ? "org" : undefined;
  }

  private enterpriseName(enterpriseId: string): string {
    for (const team of this.teams.values())
      if (team.enterprise?.id === enterpriseId) return team.enterprise.name;
    return enterpriseId;
  }

  // ---------------------------------------------------------------- the authorize page

  /**
   * GET /oauth/v2/authorize. With a choice (`team` and optional `user`, `org=1`, `deny=1` in the
   * query, as Slack's own `team` parameter preselects a workspace, or `autoApprove`), redirects to
   * redirect_uri with `code` and `state`; otherwise a page with one link per team.
   */
  authorize(query: URLSearchParams, pageUrl: string): OAuthAnswer {
    const clientId = query.get("client_id") ?? "";
    // Without redirect_uri Slack sends the user to the app's configured Redirect URL.
    const redirectUri = query.get("redirect_uri") ?? this.configuredRedirectUri;
    const state = query.get("state");
    if (clientId !== this.options.clientId) return errorPage(400, "invalid_client_id");
    if (!redirectUri || !/^https?:\/\//.test(redirectUri)) return errorPage(400, "bad_redirect_uri");
    const scopes = splitScopes(query.get("scope"));
    const userScopes = splitScopes(query.get("user_scope"));
    if (scopes.length === 0 && userScopes.length === 0) return errorPage(400, "invalid_scope");

    const team = query.get("team");
    const choice: InstallChoice | undefined = team
      ? {
          teamId: team,
          ...(query.get("user") ? { userId: query.get("user") ?? "" } : {}),
          orgWide: query.get("org") === "1",
          deny: query.get("deny") === "1",
        }
      : this.autoApprove;
    if (!choice) return this.choicePage(query, pageUrl);

    const target = new URL(redirectUri);
    if (state !== null) target.searchParams.set("state", state);
    if (choice.deny) {
      target.searchParams.set("error", "access_denied");
      return redirect(target.toString());
    }
    const grant = this.grantFor(choice, scopes, userScopes);
    if (typeof grant === "string") return errorPage(400, grant);
    const code = `${randomBytes(4).toString("hex")}.${randomBytes(16).toString("hex")}`;
    // oauth.v2.access must repeat redirect_uri only when the authorize request named one.
    const named = query.get("redirect_uri") ?? undefined;
    this.codes.set(code, { ...grant, clientId, redirectUri: named, issuedAt: this.now(), used: false });
    target.searchParams.set("code", code);
    return redirect(target.toString());
  }

  private grantFor(choice: InstallChoice, scopes: string[], userScopes: string[]): Grant | string {
    if (choice.orgWide) {
      const enterpriseId = this.teams.has(choice.teamId)
        ? this.enterpriseOf(choice.teamId)?.id
        : choice.teamId;
      const members = enterpriseId ? this.teamsOf(enterpriseId) : [];
      const first = members[0];
      if (!enterpriseId || !first) return "invalid_team_for_org_install";
      const userId = choice.userId ?? this.workspace(first)?.options.users[0]?.id;
      if (!userId || !members.some((id) => this.workspace(id)?.users.has(userId))) return "invalid_user";
      return { teamId: undefined, enterpriseId, userId, scopes, userScopes };
    }
    const workspace = this.workspace(choice.teamId);
    if (!workspace) return "invalid_team";
    const userId = choice.userId ?? workspace.options.users[0]?.id;
    if (!userId || !workspace.users.has(userId)) return "invalid_user";
    return {
      teamId: choice.teamId,
      enterpriseId: this.enterpriseOf(choice.teamId)?.id,
      userId,
      scopes,
      userScopes,
    };
  }

  private choicePage(query: URLSearchParams, pageUrl: string): OAuthAnswer {
    const link = (extra: Record<string, string>): string => {
      const url = new URL(pageUrl);
      for (const [name, value] of query) url.searchParams.set(name, value);
      for (const [name, value] of Object.entries(extra)) url.searchParams.set(name, value);
      return escapeHtml(url.pathname + url.search);
    };
    const items: string[] = [];
    const orgs = new Set<string>();
    for (const [teamId, team] of this.teams) {
      const workspace = team.workspace;
      const userId = workspace.options.users[0]?.id ?? "";
      items.push(
        `<li><a href="${link({ team: teamId, user: userId })}">Allow in ${escapeHtml(workspace.options.teamName)} (${escapeHtml(teamId)}) as ${escapeHtml(userId)}</a></li>`,
      );
      if (team.enterprise && !orgs.has(team.enterprise.id)) {
        orgs.add(team.enterprise.id);
        items.push(
          `<li><a href="${link({ team: teamId, user: userId, org: "1" })}">Allow in the whole org ${escapeHtml(team.enterprise.name)} (${escapeHtml(team.enterprise.id)})</a></li>`,
        );
      }
    }
    items.push(`<li><a href="${link({ team: "-", deny: "1" })}">Cancel</a></li>`);
    const scopes = escapeHtml(query.get("scope") ?? "");
    const body = `<!doctype html><html><head><meta charset="utf-8"><title>Install fleetbot (fake Slack)</title></head>
<body><h1>fleetbot is requesting permission to access a workspace</h1><p>Scopes: ${scopes}</p><ul>
${items.join("\n")}
</ul></body></html>`;
    return { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body };
  }

  // ---------------------------------------------------------------- oauth.v2.access

  /** oauth.v2.access: the client authenticated by HTTP Basic or the form's client_id/client_secret. */
  access(args: Args, authorization: string | undefined): Record<string, unknown> {
    const basic = parseBasic(authorization);
    const clientId = basic?.id ?? stringArg(args, "client_id");
    const clientSecret = basic?.secret ?? stringArg(args, "client_secret");
    if (clientId !== this.options.clientId) return { ok: false, error: "invalid_client_id" };
    if (clientSecret !== this.options.clientSecret) return { ok: false, error: "bad_client_secret" };
    const grantType = stringArg(args, "grant_type") ?? "authorization_code";
    if (grantType === "authorization_code") return this.exchangeCode(args);
    if (grantType === "refresh_token") return this.refresh(args);
    return { ok: false, error: "invalid_grant_type" };
  }

  private exchangeCode(args: Args): Record<string, unknown> {
    const code = this.codes.get(stringArg(args, "code") ?? "");
    if (!code || code.used || this.now() - code.issuedAt > CODE_TTL_MS)
      return { ok: false, error: "invalid_code" };
    if (code.redirectUri !== undefined && stringArg(args, "redirect_uri") !== code.redirectUri) {
      return { ok: false, error: "bad_redirect_uri" };
    }
    code.used = true;
    const grant: Grant = {
      teamId: code.teamId,
      enterpriseId: code.enterpriseId,
      userId: code.userId,
      scopes: code.scopes,
      userScopes: code.userScopes,
    };
    this.installs.push({
      teamId: grant.teamId,
      enterpriseId: grant.enterpriseId,
      userId: grant.userId,
      isEnterpriseInstall: grant.teamId === undefined,
      scopes: grant.scopes,
      at: this.now(),
    });
    const authedUser: Record<string, unknown> = { id: grant.userId };
    if (grant.userScopes.length > 0) {
      Object.assign(authedUser, {
        scope: grant.userScopes.join(","),
        access_token: this.issue("user", grant),
        token_type: "user",
      });
    }
    return {
      ok: true,
      ...(grant.scopes.length > 0
        ? this.botTokenFields(grant, this.options.tokenRotation ? this.issue("refresh", grant) : undefined)
        : {}),
      authed_user: authedUser,
    };
  }

  private refresh(args: Args): Record<string, unknown> {
    const refreshToken = stringArg(args, "refresh_token") ?? "";
    const issued = this.tokens.get(refreshToken);
    if (issued?.kind !== "refresh" || issued.revoked) return { ok: false, error: "invalid_refresh_token" };
    return { ok: true, ...this.botTokenFields(issued, refreshToken) };
  }

  /** The bot part of an answer; with a refresh token, the access token expires (rotation). */
  private botTokenFields(grant: Grant, refreshToken: string | undefined): Record<string, unknown> {
    const teamId = grant.teamId;
    const workspace = this.workspace(teamId ?? this.teamsOf(grant.enterpriseId ?? "")[0] ?? "");
    const team = teamId ? { id: teamId, name: this.workspace(teamId)?.options.teamName ?? teamId } : null;
    const enterprise = grant.enterpriseId
      ? { id: grant.enterpriseId, name: this.enterpriseName(grant.enterpriseId) }
      : null;
    return {
      app_id: this.appId,
      access_token: this.issue("bot", grant, refreshToken !== undefined),
      token_type: "bot",
      scope: grant.scopes.join(","),
      bot_user_id: workspace?.options.botUserId,
      team,
      enterprise,
      is_enterprise_install: teamId === undefined,
      ...(refreshToken !== undefined
        ? { refresh_token: refreshToken, expires_in: this.options.expiresInSeconds }
        : {}),
    };
  }

  private issue(kind: IssuedToken["kind"], grant: Grant, expires = false): string {
    const random = randomBytes(18).toString("hex");
    const owner = (grant.teamId ?? grant.enterpriseId ?? "").toLowerCase();
    const token =
      kind === "refresh"
        ? `xoxe-1-${owner}-${random}`
        : kind === "user"
          ? `xoxp-${owner}-${random}`
          : expires
            ? `xoxe.xoxb-1-${owner}-${random}`
            : `xoxb-${owner}-${random}`;
    this.tokens.set(token, {
      ...grant,
      kind,
      expiresAt: expires ? this.now() + this.options.expiresInSeconds * 1000 : undefined,
      revoked: false,
    });
    return token;
  }

  // ---------------------------------------------------------------- tokens in Web API calls

  /** Whether the fake issued this token (else the workspace checks it as its configured one). */
  issued(token: string | undefined): boolean {
    return token !== undefined && this.tokens.has(token);
  }

  /**
   * The workspace an issued token acts in, or Slack's error for it. An org-wide token acts in the
   * team named by `team_id`, else the team owning the call's channel or user (a user id given as
   * `channel` or first in `users` included: the user's DM), else the org's first.
   */
  resolveToken(
    token: string,
    args: Args,
  ): { workspace: FakeWorkspace; orgWide: boolean; enterpriseId: string | undefined } | { error: string } {
    const issued = this.tokens.get(token);
    if (!issued || issued.kind === "refresh") return { error: "invalid_auth" };
    if (issued.revoked) return { error: "token_revoked" };
    if (issued.expiresAt !== undefined && this.now() >= issued.expiresAt) return { error: "token_expired" };
    if (issued.teamId) {
      const workspace = this.workspace(issued.teamId);
      return workspace
        ? { workspace, orgWide: false, enterpriseId: issued.enterpriseId }
        : { error: "account_inactive" };
    }
    const enterpriseId = issued.enterpriseId ?? "";
    const named = stringArg(args, "team_id");
    if (named && this.accessRevoked.has(accessKey(enterpriseId, named)))
      return { error: "team_access_not_granted" };
    const members = this.teamsOf(enterpriseId).filter(
      (id) => !this.accessRevoked.has(accessKey(enterpriseId, id)),
    );
    const channel = stringArg(args, "channel");
    const user = stringArg(args, "user");
    // A user id names that user's DM (chat.postMessage channel=U…, conversations.open users=U…):
    // user ids are org-wide on Enterprise Grid, so the team is the one the user belongs to.
    const firstOfUsers = stringArg(args, "users")?.split(",")[0]?.trim();
    const hasUser = (id: string, userId: string | undefined) =>
      userId !== undefined && this.workspace(id)?.users.has(userId) === true;
    const teamId =
      (named && members.includes(named) ? named : undefined) ??
      members.find((id) => channel !== undefined && this.workspace(id)?.channels.has(channel)) ??
      members.find((id) => hasUser(id, channel)) ??
      members.find((id) => hasUser(id, user)) ??
      members.find((id) => hasUser(id, firstOfUsers)) ??
      members[0];
    const workspace = teamId ? this.workspace(teamId) : undefined;
    return workspace
      ? { workspace, orgWide: true, enterpriseId: issued.enterpriseId }
      : { error: "account_inactive" };
  }

  /**
   * The app is uninstalled from a team (or, for an enterprise id, the org-wide install): every
   * token issued there is revoked, as Slack does before it sends app_uninstalled / tokens_revoked.
   */
  uninstall(teamOrEnterpriseId: string): number {
    let revoked = 0;
    for (const token of this.tokens.values()) {
      const owner = token.teamId ?? token.enterpriseId;
      if (owner === teamOrEnterpriseId && !token.revoked) {
        token.revoked = true;
        revoked += 1;
      }
    }
    return revoked;
  }

  /**
   * An org admin removes the org-wide install from some of the org's workspaces: its tokens stop
   * reaching them (as Slack does before it sends team_access_revoked); its other teams keep working.
   */
  revokeTeamAccess(enterpriseId: string, teamIds: readonly string[]): void {
    for (const teamId of teamIds) this.accessRevoked.add(accessKey(enterpriseId, teamId));
  }

  reset(): void {
    this.codes.clear();
    this.tokens.clear();
    this.accessRevoked.clear();
    this.installs.length = 0;
    this.autoApprove = undefined;
  }
}

// -------------------------------------------------------------------- helpers

function accessKey(enterpriseId: string, teamId: string): string {
  return `${enterpriseId}/${teamId}`;
}

function splitScopes(text: string | null): string[] {
  return (text ?? "")
    .split(/[ ,]+/)
    .map((scope) => scope.trim())
    .filter((scope) => scope.length > 0);
}

function stringArg(args: Args, key: string): string | undefined {
  const value = args[key];
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function parseBasic(header: string | undefined): { id: string; secret: string } | undefined {
  if (!header?.startsWith("Basic ")) return undefined;
  const decoded = Buffer.from(header.slice("Basic ".length).trim(), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  return {
    id: decodeURIComponent(decoded.slice(0, colon)),
    secret: decodeURIComponent(decoded.slice(colon + 1)),
  };
}

function redirect(location: string): OAuthAnswer {
  return { status: 302, headers: { location, "content-type": "text/plain; charset=utf-8" }, body: "" };
}

function errorPage(status: number, error: string): OAuthAnswer {
  return {
    status,
    headers: { "content-type": "text/html; charset=utf-8" },
    body: `<!doctype html><html><body><h1>Something went wrong when authorizing this app.</h1><p>Error: <code>${escapeHtml(error)}</code></p></body></html>`,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** What a recorded oauth.v2.access call keeps: no secret, code or token. */
export function redactOAuth(record: Record<string, unknown>): Record<string, unknown> {
  const hidden = new Set(["client_secret", "code", "refresh_token", "access_token"]);
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value).map(([key, inner]) => [key, hidden.has(key) ? "[redacted]" : walk(inner)]),
      );
    }
    return value;
  };
  return walk(record) as Record<string, unknown>;
}
