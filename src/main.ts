import { pathToFileURL } from "node:url";
import { type Config, ConfigError, loadConfig } from "./app/config.js";
import { type Fleetbot, startFleetbot } from "./app/start.js";
import { StoreError } from "./platform/store/database.js";

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  let bot: Fleetbot;
  try {
    bot = await startFleetbot(config);
  } catch (error) {
    if (error instanceof StoreError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const { logger } = bot;
  if (bot.simulator) {
    logger.info(
      { fleet: bot.fleetUrl },
      `No FLEET_API_URL: running on the built-in fleet simulator at ${bot.fleetUrl} (logins demo/demo, viewer/viewer).`,
    );
  }
  const local = bot.url.replace("127.0.0.1", "localhost");
  logger.info(
    { url: bot.url, mode: config.slack.mode },
    `fleetbot listening on ${bot.url} (Slack requests: ${bot.url}/slack/events, health: ${bot.url}/healthz, metrics: ${bot.url}/metrics)`,
  );
  if (bot.fakeSlack) {
    logger.info(
      { sandbox: `${local}/` },
      `SANDBOX: no Slack workspace is configured, so fleetbot runs against a local fake Slack. Open ${local}/ to use it in your browser. ` +
        "To connect a real workspace instead, set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (HTTP mode) or SLACK_BOT_TOKEN and SLACK_APP_TOKEN (Socket Mode): see README." +
        (config.credentialsKeyThrowaway
          ? " CREDENTIALS_KEY is not set: the sandbox made a throw-away key for this run so that linking an account can be tried; links made with it are lost at the next start."
          : ""),
    );
  }
  const shutdown = (signal: string) => {
    logger.info({ signal }, "stopping; unfinished tasks resume at the next start");
    void bot.close().then(() => process.exit(0));
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  void main();
}
