import type { Language } from "../../i18n/language.js";

/**
 * The sandbox page: a static shell that /sandbox/app.js fills from /sandbox/state. It carries the
 * API token (base64url, safe in an attribute): only a page read from this origin learns it.
 *
 * The page's own words (`data-t` keys) are written here in English, and app.js writes them in the
 * chosen language from its own table (WORDS in assets/app.js) as soon as it runs: the sandbox is a
 * tool around the bot, not the bot, so its words are not in src/i18n. `language`: the one the user
 * last chose through the page, when the server knows it (the switch starts on it). `fleetStatus`:
 * until the bot holds the demo account's vehicle list, a line says it is connecting (app.js
 * follows /sandbox/fleet-status and hides it once the list is there).
 */
/** The bot's hold on the fleet service, as the page shows it. */
export type FleetStatus = "connecting" | "ready" | "failed";

const FLEET_CONNECTING =
  "Connecting to the fleet service… fleetbot is loading the demo account’s vehicles (the service takes one request every 30 s).";
const FLEET_FAILED = "The fleet service did not answer. fleetbot tries again at your first command.";

export function pageHtml(token: string, language?: Language, fleetStatus: FleetStatus = "ready"): string {
  const pressed = (l: Language) => (l === (language ?? "en") ? "true" : "false");
  return `<!doctype html>
<html lang="${language ?? "en"}"${language ? ` data-language="${language}"` : ""}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>fleetbot sandbox</title>
<meta name="sandbox-token" content="${token}">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/sandbox/app.css">
</head>
<body>
<div class="sandbox-banner" role="note">
  <b>SANDBOX</b>
  <span class="banner-text" data-t="banner">fleetbot against a local fake Slack and the fleet simulator. For a real workspace set
  <code>SLACK_BOT_TOKEN</code> + <code>SLACK_SIGNING_SECRET</code> (or <code>SLACK_APP_TOKEN</code>) — see the README.</span>
  <span class="spacer"></span>
  <div class="lang-switch" id="lang-switch" role="group" aria-labelledby="lang-label">
    <span id="lang-label" data-t="languageLabel">fleetbot's language</span>
    <button type="button" data-language="en" lang="en" aria-pressed="${pressed("en")}">English</button>
    <button type="button" data-language="ro" lang="ro" aria-pressed="${pressed("ro")}">Română</button>
  </div>
  <button type="button" id="sim-toggle" data-t="simToggle" data-t-title="simToggleTitle" title="Show or hide the simulator's panel">Simulator panel</button>
</div>
<div class="fleet-status" id="fleet-status" role="status" data-status="${fleetStatus}"${fleetStatus === "ready" ? " hidden" : ""}>
  <span data-t="${fleetStatus === "failed" ? "fleetFailed" : "fleetConnecting"}">${fleetStatus === "failed" ? FLEET_FAILED : FLEET_CONNECTING}</span>
</div>
<div class="layout">
  <aside class="sidebar">
    <div class="team" id="team">Fleet Sandbox<small>fleetbot sandbox</small></div>
    <nav class="nav" id="nav" aria-label="Conversations"></nav>
    <div class="me" id="me"></div>
  </aside>
  <main class="main">
    <header class="channel-header" id="channel-header"></header>
    <div class="messages" id="messages" aria-live="polite"></div>
    <div class="home" id="home" hidden></div>
    <div class="violations" id="violations" hidden></div>
    <form class="composer" id="composer" autocomplete="off">
      <div class="hints" id="hints" hidden></div>
      <div class="composer-row">
        <input id="composer-input" name="text" aria-label="Message" spellcheck="false">
        <button class="send" type="submit">Send</button>
      </div>
      <div class="composer-foot" id="composer-foot"></div>
    </form>
  </main>
  <aside class="simulator" id="simulator" aria-label="Simulator">
    <div class="sim-head">
      <h2 data-t="simTitle">Simulator</h2>
      <p data-t="simIntro">Not part of Slack: the built-in fleet service's controls. Force a transport's GPS transmission status;
      fleetbot notices it at its next alert check and posts in #alerts.</p>
      <p class="sim-next" id="sim-next" hidden></p>
    </div>
    <div class="sim-list" id="sim-list"></div>
  </aside>
</div>
<div id="modal-layer"></div>
<div id="confirm-layer"></div>
<div class="toast" id="toast" role="status" hidden></div>
<script type="module" src="/sandbox/app.js"></script>
</body>
</html>
`;
}
