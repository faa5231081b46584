/**
 * The bot scopes fleetbot asks for at install ("Add to Slack"): exactly manifest.yml's
 * `oauth_config.scopes.bot` (a test compares them). The README says why each one is needed.
 */
export const BOT_SCOPES: readonly string[] = [
  "commands",
  "chat:write",
  "users:read",
  "im:write",
  "files:write",
  "chat:write.public",
  "channels:read",
  "groups:read",
];
