import type { ServerResponse } from "node:http";
import oauth, { type CallbackOptions, ErrorCode, type Installation } from "@slack/oauth";
import type { SharedState } from "../store/sharedState.js";
import { installErrorPage, installSuccessPage, landingPage, privacyPage } from "../web/publicPages.js";
import type { HttpRoute, SlackInstallOptions } from "./app.js";
import { OneTimeStateStore } from "./installState.js";
import { BOT_SCOPES } from "./scopes.js";

export interface PublicSite {
  /** SUPPORT_URL, else the privacy page (which says how to reach the operator). */
  supportUrl: string;
  taskRetentionDays: number;
  auditRetentionDays: number;
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  res.end(html);
}

/** `GET /` and `GET /privacy`: the public pages Slack's Marketplace asks for (multi-workspace mode). */
export function publicRoutes(site: PublicSite): HttpRoute[] {
  return [
    {
      path: "/",
      handler: (_req, res) =>
        sendHtml(res, 200, landingPage({ installPath: "/slack/install", supportUrl: site.supportUrl })),
    },
    { path: "/privacy", handler: (_req, res) => sendHtml(res, 200, privacyPage(site)) },
  ];
}

/** `https://slack.com/app_redirect?app=…&team=…`, on SLACK_API_URL's host. */
function appRedirect(slackApiUrl: string, appId: string, teamId: string | undefined): string {
  const url = new URL("/app_redirect", slackApiUrl);
  url.searchParams.set("app", appId);
  if (teamId) url.searchParams.set("team", teamId);
  return url.toString();
}

/** Which page an install that did not finish gets: the user said no, the state was bad, or something failed. */
function failureReason(code: string): "denied" | "state" | "failed" {
  if (code === ErrorCode.AuthorizationError) return "denied";
  if (code === ErrorCode.InvalidStateError || code === ErrorCode.MissingStateError) return "state";
  return "failed";
}

/**
 * The install options of Bolt's installer: the scopes the manifest declares, a `state` signed with
 * SLACK_STATE_SECRET and usable once, Slack's authorize page at SLACK_API_URL's host (so the
 * sandbox's fake Slack serves it too), and fleetbot's own pages at the end.
 */
export function installOptions(options: {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
  slackApiUrl: string;
  installationStore: SlackInstallOptions["installationStore"];
  usedStates: SharedState;
  site: PublicSite;
}): SlackInstallOptions {
  const callbackOptions: CallbackOptions = {
    success: (installation: Installation, _options, _req, res) => {
      const teamName = installation.team?.name ?? installation.enterprise?.name;
      // Slack's own link that opens the app in the workspace just installed.
      const appUrl = installation.appId
        ? appRedirect(
            options.slackApiUrl,
            installation.appId,
            installation.team?.id ?? installation.enterprise?.id,
          )
        : undefined;
      sendHtml(
        res,
        200,
        installSuccessPage({ ...(teamName ? { teamName } : {}), ...(appUrl ? { appUrl } : {}) }),
      );
    },
    failure: (error, _options, _req, res) => {
      const reason = failureReason(error.code);
      sendHtml(
        res,
        reason === "failed" ? 500 : reason === "state" ? 400 : 200,
        installErrorPage(reason, { supportUrl: options.site.supportUrl }),
      );
    },
  };
  return {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    stateSecret: options.stateSecret,
    scopes: BOT_SCOPES,
    installationStore: options.installationStore,
    // ClearStateStore is re-exported in a way Node's ESM loader cannot see by name: read off the default export.
    stateStore: new OneTimeStateStore(new oauth.ClearStateStore(options.stateSecret), options.usedStates),
    authorizationUrl: new URL("/oauth/v2/authorize", options.slackApiUrl).toString(),
    callbackOptions,
  };
}
