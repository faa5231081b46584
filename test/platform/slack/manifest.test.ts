import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REGISTERED } from "../../../src/features/listeners.js";
import { BOT_SCOPES } from "../../../src/platform/slack/scopes.js";

const root = join(import.meta.dirname, "..", "..", "..");
const manifest = parse(readFileSync(join(root, "manifest.yml"), "utf8")) as {
  features: {
    slash_commands: { command: string; should_escape: boolean; description: string; usage_hint?: string }[];
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    event_subscriptions?: { bot_events?: string[] };
    interactivity?: { is_enabled: boolean; message_menu_options_url?: string };
  };
};
/** Slack's published schema lives beside the project (../shared/slack), never in it. */
const schemaPath = join(root, "..", "shared", "slack", "manifest.schema.1.0.0.json");

describe("manifest.yml", () => {
  it.skipIf(!existsSync(schemaPath) && !process.env.CI)(
    "validates against Slack's published app manifest schema",
    () => {
      expect(existsSync(schemaPath), `Slack's manifest schema is expected at ${schemaPath}`).toBe(true);
      const schema = JSON.parse(readFileSync(schemaPath, "utf8")) as object;
      const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
      const validate = ajv.compile(schema);
      const valid = validate(manifest);
      expect(validate.errors ?? []).toEqual([]);
      expect(valid).toBe(true);
    },
  );

  it("declares exactly the slash commands the app registers, escaped, with descriptions and usage hints", () => {
    const commands = manifest.features.slash_commands;
    expect(commands.map((c) => c.command).sort()).toEqual([...REGISTERED.slashCommands].sort());
    for (const command of commands) {
      expect(command.should_escape).toBe(true);
      expect(command.description.length).toBeGreaterThan(0);
      expect(command.usage_hint?.length ?? 0).toBeGreaterThan(0);
    }
  });

  it("subscribes to exactly the events the app listens to", () => {
    expect([...(manifest.settings.event_subscriptions?.bot_events ?? [])].sort()).toEqual(
      [...REGISTERED.botEvents].sort(),
    );
  });

  it("enables interactivity and select options as far as the app registers buttons, modals and selects", () => {
    expect(manifest.settings.interactivity?.is_enabled ?? false).toBe(REGISTERED.interactive);
    expect(manifest.settings.interactivity?.message_menu_options_url !== undefined).toBe(
      REGISTERED.selectOptions,
    );
  });

  it("asks for the bot scopes fleetbot uses and no others", () => {
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual(
      [
        "channels:read",
        "chat:write",
        "chat:write.public",
        "commands",
        "files:write",
        "groups:read",
        "im:write",
        "users:read",
      ].sort(),
    );
  });

  it("asks for the same scopes at install (Add to Slack) as it declares", () => {
    expect([...BOT_SCOPES].sort()).toEqual([...manifest.oauth_config.scopes.bot].sort());
  });
});
