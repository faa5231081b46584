import pino, { type Logger } from "pino";

/**
 * Paths pino blanks out wherever they appear in a logged object. Passwords, tokens,
 * Authorization headers and signing secrets must never reach a log (DESIGN.md).
 */
export const REDACTED_PATHS = [
  "password",
  "*.password",
  "*.*.password",
  "token",
  "*.token",
  "access_token",
  "*.access_token",
  "refresh_token",
  "*.refresh_token",
  "accessToken",
  "*.accessToken",
  "authorization",
  "*.authorization",
  "*.headers.authorization",
  "*.headers.Authorization",
  "headers.authorization",
  "headers.Authorization",
  "signingSecret",
  "*.signingSecret",
  "botToken",
  "*.botToken",
  "appToken",
  "*.appToken",
  "credentialsKey",
  "*.credentialsKey",
  "secret",
  "*.secret",
];

export function createLogger(
  level = process.env.LOG_LEVEL ?? "info",
  destination?: pino.DestinationStream,
): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      base: { app: "fleetbot" },
    },
    destination,
  );
}

/** The process-wide logger; parts take a child with their own bindings. */
export const logger: Logger = createLogger();

export type { Logger };
