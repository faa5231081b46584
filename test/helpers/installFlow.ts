/**
 * "Add to Slack" as a browser does it, with Node's fetch and `redirect: "manual"`: the bot's
 * `GET /slack/install` (302 to Slack's authorize page, with the state cookie Bolt's
 * InstallProvider sets), the fake's authorize page (the installing team chosen in its query),
 * then the bot's `GET /slack/oauth_redirect?code=…&state=…` with the cookie. The answer of that
 * last request is what the installer sees.
 *
 * InstallProvider (`directInstall: true`) sets `slack-app-oauth-state=<state>; Secure; HttpOnly;
 * Path=/; Max-Age=600` and, on the callback, requires that cookie to equal the `state` query
 * parameter (else 400 "InvalidStateError"), then clears it (`=deleted; Expires=1970`). A browser
 * sends a Secure cookie to http://localhost / 127.0.0.1 (a secure context), so the cookie is kept
 * here regardless of `Secure`.
 */
import type { FakeSlack } from "../../src/sandbox/fakeSlack/index.js";

export interface InstallChoiceInput {
  /** The installing team; with `orgWide`, a team of the enterprise (or the enterprise id). */
  teamId: string;
  /** Default: the team's first user. */
  userId?: string;
  /** An org-wide install of the team's enterprise. */
  orgWide?: boolean;
  /** The installer presses Cancel: Slack redirects back with error=access_denied. */
  deny?: boolean;
}

export interface InstallResponse {
  status: number;
  body: string;
  /** The Location header of the final answer, when it redirects (e.g. a success page). */
  location?: string;
  /** Set-Cookie headers of the final answer (InstallProvider clears the state cookie). */
  setCookies: string[];
}

export interface InstallFlowResult extends InstallResponse {
  /** The bot's redirect URL Slack sent the browser to: /slack/oauth_redirect?code=…&state=… */
  redirectUrl: string;
  /** The Cookie header the browser sent with it (the state cookie from /slack/install). */
  cookie: string;
  /** The `state` the bot signed, as it came back from Slack. */
  state: string | undefined;
  /** The authorize URL the bot redirected to (as the bot built it, before the choice was added). */
  authorizeUrl: string;
}

/** The bot's base URL: `bot.url`, tolerating a trailing slash or the `/slack/events` endpoint. */
function baseOf(botUrl: string): string {
  return botUrl.replace(/\/+$/, "").replace(/\/slack\/events$/, "");
}

/**
 * Installs fleetbot into `choice.teamId` through the bot's own OAuth endpoints, exactly as a
 * browser would, and returns the bot's answer to the OAuth redirect (200 and a success page
 * when the install was stored). Throws when a step does not redirect where it must.
 */
export async function installWorkspace(
  botUrl: string,
  fake: FakeSlack,
  choice: InstallChoiceInput,
): Promise<InstallFlowResult> {
  const base = baseOf(botUrl);
  const jar = new CookieJar();

  // 1. The bot's install path: a 302 to Slack's authorize page, and the state cookie.
  const start = await fetch(`${base}/slack/install`, { redirect: "manual" });
  const startBody = await start.text();
  jar.take(start.headers.getSetCookie());
  const authorizeLocation = start.headers.get("location");
  if (start.status !== 302 || !authorizeLocation) {
    throw new Error(
      `installWorkspace: GET /slack/install answered ${start.status}, not a 302 to Slack: ${startBody.slice(0, 300)}`,
    );
  }
  const authorizeUrl = new URL(authorizeLocation, base);
  if (`${authorizeUrl.origin}${authorizeUrl.pathname}` !== fake.authorizeUrl) {
    throw new Error(
      `installWorkspace: /slack/install redirected to ${authorizeUrl.origin}${authorizeUrl.pathname}, not the fake's ${fake.authorizeUrl}`,
    );
  }

  // 2. Slack's authorize page: the installer picks the team (the fake's query parameters).
  const chosen = new URL(authorizeUrl);
  chosen.searchParams.set("team", choice.teamId);
  if (choice.userId !== undefined) chosen.searchParams.set("user", choice.userId);
  if (choice.orgWide) chosen.searchParams.set("org", "1");
  if (choice.deny) chosen.searchParams.set("deny", "1");
  const approved = await fetch(chosen, { redirect: "manual" });
  const approvedBody = await approved.text();
  const redirectLocation = approved.headers.get("location");
  if (approved.status !== 302 || !redirectLocation) {
    throw new Error(
      `installWorkspace: the authorize page answered ${approved.status}, not a redirect: ${approvedBody.slice(0, 300)}`,
    );
  }
  const redirect = new URL(redirectLocation);
  const expected = new URL(`${base}/slack/oauth_redirect`);
  if (redirect.origin !== expected.origin || redirect.pathname !== expected.pathname) {
    throw new Error(
      `installWorkspace: Slack redirected to ${redirect.origin}${redirect.pathname}, not the bot's ${expected.href} (check the bot's redirect URI)`,
    );
  }
  if (!choice.deny && !redirect.searchParams.get("code")) {
    throw new Error(`installWorkspace: Slack's redirect carries no code: ${redirect.href}`);
  }

  // 3. Back to the bot with the code, the state and the browser's cookie.
  const cookie = jar.header(redirect);
  const final = await replayRedirect(redirect.href, cookie);
  return {
    ...final,
    redirectUrl: redirect.href,
    cookie,
    state: redirect.searchParams.get("state") ?? undefined,
    authorizeUrl: authorizeUrl.href,
  };
}

/**
 * GETs a bot's OAuth redirect URL again (or one altered by the test) with a Cookie header:
 * the same state presented twice, without its cookie (`cookie: ""`), or with another browser's.
 */
export async function replayRedirect(redirectUrl: string, cookie: string): Promise<InstallResponse> {
  const res = await fetch(redirectUrl, {
    redirect: "manual",
    ...(cookie !== "" ? { headers: { cookie } } : {}),
  });
  const body = await res.text();
  const location = res.headers.get("location");
  return {
    status: res.status,
    body,
    ...(location !== null ? { location } : {}),
    setCookies: res.headers.getSetCookie(),
  };
}

/** What a browser keeps of Set-Cookie for one host: name=value pairs, Path honoured, expired ones dropped. */
class CookieJar {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  take(setCookies: readonly string[]): void {
    for (const line of setCookies) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      let path = "/";
      let expired = false;
      for (const attribute of attributes) {
        const [key = "", ...rest] = attribute.split("=");
        const attrValue = rest.join("=").trim();
        const lower = key.trim().toLowerCase();
        if (lower === "path" && attrValue.startsWith("/")) path = attrValue;
        if (lower === "max-age" && Number(attrValue) <= 0) expired = true;
        if (lower === "expires" && Date.parse(attrValue) <= Date.now()) expired = true;
      }
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, { value, path });
    }
  }

  header(url: URL): string {
    return [...this.cookies]
      .filter(([, cookie]) => url.pathname.startsWith(cookie.path))
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join("; ");
  }
}
