import type { Logger } from "pino";

/**
 * What the redaction tests log: one secret under each key the logger must redact, and the
 * values that must never be written. Redaction goes by key, so the values need not look like
 * real credentials (and must not: a token-shaped string in the repository reads as a leak).
 */
export const SECRET_VALUES = [
  "hunter2",
  "p4ss",
  "eyJhbGciOi",
  "r3fr3sh",
  "Bearer eyJabc",
  "s1gn",
  "bot-token-value",
  "app-token-value",
] as const;

export function logSecrets(logger: Logger): void {
  logger.info({ password: "hunter2", username: "ops" }, "login");
  logger.info({ account: { password: "p4ss", username: "x" } }, "nested");
  logger.info({ access_token: "eyJhbGciOi.payload.sig", refresh_token: "r3fr3sh" }, "tokens");
  logger.info({ req: { headers: { authorization: "Bearer eyJabc" } } }, "request");
  logger.info(
    { slack: { signingSecret: "s1gn", botToken: "bot-token-value", appToken: "app-token-value" } },
    "config",
  );
}
