/**
 * The public pages of multi-workspace mode (CONTRACT.md, HTTP endpoints: `GET /`, `GET /privacy`)
 * and the pages a browser lands on at the end of "Add to Slack". Slack's Marketplace asks for a
 * landing page and a privacy page; these are small complete HTML documents with inline CSS and no
 * external asset (no font, no image, no script), so they render the same behind any proxy.
 *
 * Pure functions: they take what they show and return the document; serving them (status,
 * headers) belongs to the HTTP server. Every interpolated value is escaped.
 */
import { count } from "../../i18n/plural.js";

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/**
 * Whether a link target is safe to put in an href: https/http and mailto URLs, or a path on this
 * host (`/slack/install`, not the scheme-relative `//elsewhere`). Anything else (`javascript:`,
 * `data:`) is shown as text, never as a link.
 */
function linkable(href: string): boolean {
  if (/^\/(?![/\\])/.test(href)) return true;
  try {
    return ["https:", "http:", "mailto:"].includes(new URL(href).protocol);
  } catch {
    return false;
  }
}

/** `<a>` to `href` (escaped), or the escaped text alone when `href` is not linkable. */
function link(href: string, text: string, className?: string): string {
  if (!linkable(href)) return escapeHtml(text);
  const cls = className ? ` class="${escapeHtml(className)}"` : "";
  return `<a${cls} href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
}

/** The public pages are English (Slack's directory reads them in English), with CLDR's plural. */
function days(n: number): string {
  return escapeHtml(count("en", n, { one: "day", other: "days" }));
}

const STYLE = `
  :root { color-scheme: light; }
  body { margin: 0; font: 16px/1.55 -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
    color: #1d1c1d; background: #f8f8f8; }
  main { max-width: 44rem; margin: 0 auto; padding: 2.5rem 1.25rem 3rem; background: #fff; }
  h1 { font-size: 1.9rem; margin: 0 0 .5rem; color: #1d4e89; }
  h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; }
  p, li { margin: .4rem 0; }
  ul { padding-left: 1.3rem; }
  code { font: .92em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    background: #f1f1f1; padding: .05rem .3rem; border-radius: 3px; }
  a { color: #1264a3; }
  a.add { display: inline-block; margin: 1.2rem 0; padding: .7rem 1.3rem; border-radius: 6px;
    background: #4a154b; color: #fff; font-weight: 700; text-decoration: none; }
  a.add:hover, a.add:focus { background: #611f69; }
  .lead { font-size: 1.1rem; }
  .note { color: #616061; font-size: .93rem; }
  footer { margin-top: 2.5rem; padding-top: 1rem; border-top: 1px solid #ddd; font-size: .93rem; }
  footer a { margin-right: 1.2rem; }
`;

/** A complete document: `title` and `body` are inserted as given (callers escape what they interpolate). */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function footer(supportUrl: string): string {
  return `<footer>${link("/", "fleetbot")} ${link("/privacy", "Privacy")} ${link(supportUrl, "Support")}</footer>`;
}

export interface LandingPageOptions {
  /** Where "Add to Slack" starts the install: `/slack/install`. */
  installPath: string;
  /** Where people get help (https or mailto). */
  supportUrl: string;
}

/** `GET /`: what fleetbot does, an "Add to Slack" button, and links to the privacy page and support. */
export function landingPage(options: LandingPageOptions): string {
  return page(
    "fleetbot: vehicles and RO e-Transport transports in Slack",
    `<h1>fleetbot</h1>
<p class="lead">Your vehicle-tracking service and your RO e-Transport transports, in Slack.</p>
<ul>
<li>Look up vehicles and where they are: <code>/fleet where B-123-ABC</code>, <code>/fleet vehicles</code>.</li>
<li>Stops, fuel consumption, refills and reefer temperatures for any period, with CSV and chart files.</li>
<li>Create, start, pause, end and remove RO e-Transport transports (UIT codes) with <code>/etransport</code>.</li>
<li>A channel alert when a transport's GPS transmission breaks, resolved in place when it is back.</li>
<li>The fleet service answers one request per account every 30 seconds: fleetbot queues requests and shows your place and an estimate.</li>
</ul>
<p>${link(options.installPath, "Add to Slack", "add")}</p>
<p class="note">After installing, link the workspace's fleet account with <code>/fleet login workspace</code>;
<code>/fleet help</code> lists every command. What fleetbot stores, for how long, and how it is deleted:
${link("/privacy", "privacy")}. Questions: ${link(options.supportUrl, "support")}.</p>
${footer(options.supportUrl)}`,
  );
}

export interface PrivacyPageOptions {
  /** Where people ask questions or ask for deletion (https or mailto). */
  supportUrl: string;
  /** TASK_RETENTION_DAYS: finished tasks and their results are deleted after this many days. */
  taskRetentionDays: number;
  /** AUDIT_RETENTION_DAYS: the audit trail of transport changes is kept this many days. */
  auditRetentionDays: number;
}

const PRIVACY_INTRO = `<h1>Privacy</h1>
<p class="lead">What fleetbot stores, for how long, and how it is deleted.</p>
<p>fleetbot does not read messages: it has no permission to. It receives its commands, the
buttons and forms of its own messages, and its App Home; it asks Slack for a person's time zone
and, for alert subscriptions, for channel names and members (not stored).</p>`;

const WHAT_IS_STORED = `<h2>What is stored</h2>
<p>For each Slack workspace that installs fleetbot:</p>
<ul>
<li><strong>The installation</strong>: the workspace's id and name, who installed fleetbot, and
the bot token Slack issued (and its refresh token, with token rotation). Tokens are sealed with
AES-256-GCM under the operator's <code>CREDENTIALS_KEY</code>.</li>
<li><strong>Linked fleet accounts</strong>: for each person who linked one with <code>/fleet login</code>,
and for the workspace's own account (<code>/fleet login workspace</code>), the fleet username and
the password, sealed with AES-256-GCM under <code>CREDENTIALS_KEY</code>.</li>
<li><strong>Alerts</strong>: channel alert subscriptions and their filters; incidents (a
transport's broken transmission, its UIT and vehicle); the alert posts (channel and message);
and mutes.</li>
<li><strong>Tasks</strong>: each request (a lookup, a report, a transport change) with its
parameters (who asked, where, which vehicles or transports, which period) and its result; with
several replicas, also its job in the queue they share.</li>
<li><strong>Cached users</strong>: a person's Slack time zone, so that periods are read in it;
held in memory only, for up to a day.</li>
</ul>
<p>For each fleet account, whatever the workspace:</p>
<ul>
<li><strong>The audit trail of transport changes</strong>: who (Slack user id and fleet username)
created, edited, started, paused, ended or removed which transport (UIT), when, and what the
fleet service answered. It holds no password or token.</li>
<li>The transports the last alert check saw listed (to notice one that disappears), and, with
several replicas, the fleet service's access token of the account, sealed, until it expires.</li>
</ul>`;

const PRIVATE_MODE = `<h2>Private mode</h2>
<p>A vehicle the fleet service marks as in private use (<code>isPrivate</code>: a company car
driven privately) is not tracked through fleetbot, as EU rules require of an employer. While it is
in private mode, no answer, file or alert shows where it is or was: <code>where</code> and
<code>vehicles</code> show 🔒 and “in private mode” instead of its position, address and map link
(and neither its speed nor its heading); its stops and refuellings are listed with their times,
durations and litres but no place; its route is not shown for any period, and fleetbot does not
even ask the fleet service for it, because the service does not say which positions were private.
A stop or refuelling the service marks private is listed without its place whatever the vehicle's
mode now. A transport alert still shows the transport's transmission status. fleetbot reads the
flag from the fleet service's vehicle list on every lookup, and from a list at most
<code>VEHICLE_CACHE_TTL_MS</code> old (15 minutes by default) for reports; places are dropped before a result is
stored, so none is kept either.</p>`;

/**
 * `GET /privacy`: what fleetbot stores, for how long, and how it is deleted. The figures are the
 * running configuration's (TASK_RETENTION_DAYS, AUDIT_RETENTION_DAYS); the fixed ones are
 * store/retention.ts's (resolved incidents 30 days, a delivered result's bulk one day).
 */
export function privacyPage(options: PrivacyPageOptions): string {
  return page(
    "fleetbot: privacy",
    `${PRIVACY_INTRO}

${WHAT_IS_STORED}

${PRIVATE_MODE}

${howLong(options)}

${howDeleted(options)}
${footer(options.supportUrl)}`,
  );
}

/** How long each kind of data is kept: the running configuration's figures and store/retention.ts's. */
function howLong(options: PrivacyPageOptions): string {
  return `<h2>How long</h2>
<ul>
<li>Finished tasks and their results: deleted ${days(options.taskRetentionDays)} after they finish. The bulk of a
result (the data behind its pages and files) is dropped a day after it was delivered.</li>
<li>Resolved incidents: deleted 30 days after they resolve. Mutes: deleted when they expire.</li>
<li>The audit trail of transport changes: ${days(options.auditRetentionDays)}.</li>
<li>Cached time zones: a day, in memory; a restart forgets them.</li>
<li>The installation, linked accounts and subscriptions: until fleetbot is uninstalled, or, for
a linked account, until <code>/fleet logout</code>; for a subscription, until
<code>/fleet alerts unsubscribe</code>.</li>
</ul>`;
}

/** Uninstalls, password changes, and what stays in Slack. */
function howDeleted(options: PrivacyPageOptions): string {
  return `<h2>How it is deleted</h2>
<p>Uninstalling fleetbot from a workspace, or Slack revoking its tokens, deletes that workspace's
installation, linked accounts and their sealed passwords, subscriptions, incidents, alert posts,
mutes, queued and finished tasks with their results and queue jobs, and cached users, within a
minute. Other workspaces are not touched. A workspace that installs fleetbot again starts clean.
The uninstall also stops, while it is handled, every call to the fleet service made for that
workspace: no request is made with its deleted passwords again.</p>
<h2>When a fleet password changes</h2>
<p>Several workspaces may link the same fleet account. When its password is changed at the fleet
service and someone links the account again with the new one, every link still holding the old
password is cut off at once, in every workspace: it sends nothing more to the service and is
answered nothing more (positions, lists, history, alerts), and its people are asked to link
again. If nobody links the new password, the old one stops at its next login, within an hour.
To tell which password is the current one, fleetbot keeps a keyed digest of the one the service
accepted last (the linked passwords themselves stay sealed, as above).</p>
<p>The audit trail is kept per fleet account, not per workspace, because it records changes made
to the carrier's transports in RO e-Transport: it stays for ${days(options.auditRetentionDays)}, then it is deleted.
Messages fleetbot already posted stay in Slack, under the workspace's own retention settings.</p>
<p>Questions, or a request to delete something sooner: ${link(options.supportUrl, "support")}.</p>`;
}

/** Why an install did not finish: the person cancelled on Slack's page, the `state` was bad or replayed, or Slack's answer failed. */
export type InstallErrorReason = "denied" | "state" | "failed";

export interface InstallErrorOptions {
  /** Where to start again (default `/slack/install`). */
  installPath?: string;
  /** Shown as a support link when given. */
  supportUrl?: string;
}

const INSTALL_ERRORS: Readonly<Record<InstallErrorReason, { title: string; text: string }>> = {
  denied: {
    title: "fleetbot was not installed",
    text: "The installation was cancelled on Slack's page. Nothing was stored.",
  },
  state: {
    title: "This install link cannot be used",
    text:
      "The installation could not be verified: its link expired, was already used, or was opened " +
      "in another browser. Nothing was stored.",
  },
  failed: {
    title: "fleetbot could not finish the installation",
    text: "Slack's answer could not be completed. Please try again in a moment.",
  },
};

/** The page after an install that did not finish, with a link to start again. */
export function installErrorPage(reason: InstallErrorReason, options: InstallErrorOptions = {}): string {
  const { title, text } = INSTALL_ERRORS[reason];
  const help = options.supportUrl
    ? ` If it keeps happening, contact ${link(options.supportUrl, "support")}.`
    : "";
  return page(
    escapeHtml(title),
    `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}${help}</p>
<p>${link(options.installPath ?? "/slack/install", "Add to Slack", "add")}</p>
<footer>${link("/", "fleetbot")} ${link("/privacy", "Privacy")}</footer>`,
  );
}

export interface InstallSuccessOptions {
  /** The workspace's name, as Slack gave it. */
  teamName?: string;
  /** A link that opens Slack (the app in the workspace); without it, "Open Slack" is plain text. */
  appUrl?: string;
}

/** The page after a finished install. */
export function installSuccessPage(options: InstallSuccessOptions = {}): string {
  const where = options.teamName ? ` in <strong>${escapeHtml(options.teamName)}</strong>` : "";
  const open = options.appUrl ? link(options.appUrl, "Open Slack") : "Open Slack";
  return page(
    "fleetbot is installed",
    `<h1>fleetbot is installed</h1>
<p class="lead">fleetbot is installed${where}.</p>
<p>${open}; the installer got a direct message from fleetbot with the first steps:
<code>/fleet login workspace</code> to link the workspace's fleet account, then <code>/fleet help</code>.</p>
<footer>${link("/", "fleetbot")} ${link("/privacy", "Privacy")}</footer>`,
  );
}
