/**
 * `npm run fake-slack`: the fake Slack on its own (FAKE_SLACK_PORT, default 4020), to try "Add to
 * Slack" locally: it prints the settings that start fleetbot in multi-workspace mode against it,
 * and sends the authorize page back to that fleetbot (the app's Redirect URL, as the manifest's
 * redirect_urls registers it with Slack). Open fleetbot's `/`, press Add to Slack, pick a team.
 */
import { randomBytes } from "node:crypto";
import { startFakeSlack } from "./index.js";

const port = Number(process.env.FAKE_SLACK_PORT ?? 4020);
const botPort = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || !Number.isInteger(botPort))
  throw new Error("FAKE_SLACK_PORT and PORT must be numbers");

const fake = await startFakeSlack({ port });
fake.oauth.configuredRedirectUri = `http://127.0.0.1:${botPort}/slack/oauth_redirect`;
const o = fake.options;
console.log(
  `Fake Slack listening on ${fake.url} with teams ${[o.teamId, ...o.teams.map((t) => t.teamId)].join(", ")}`,
);
console.log("Start fleetbot in multi-workspace mode against it (another terminal):\n");
console.log(
  [
    `SLACK_API_URL=${fake.apiUrl}`,
    `SLACK_CLIENT_ID=${o.oauth.clientId}`,
    `SLACK_CLIENT_SECRET=${o.oauth.clientSecret}`,
    `SLACK_STATE_SECRET=${randomBytes(12).toString("hex")}`,
    `SLACK_SIGNING_SECRET=${o.signingSecret}`,
    `CREDENTIALS_KEY=${randomBytes(32).toString("base64")}`,
    `PORT=${botPort}`,
    "npm start",
  ].join(" \\\n  "),
);
console.log(`\nthen open http://127.0.0.1:${botPort}/ and press Add to Slack.`);
