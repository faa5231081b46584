import { createRequire } from "node:module";
import pino, { type Logger } from "pino";
import type PinoPretty from "pino-pretty";

// Loaded only when logs go to a terminal: a server writing JSON lines saves its ~1.5 MB.
const require = createRequire(import.meta.url);

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
  "clientSecret",
  "*.clientSecret",
  "client_secret",
  "*.client_secret",
  "stateSecret",
  "*.stateSecret",
  "refreshToken",
  "*.refreshToken",
];

/**
 * Readable lines (time, level, message, then the fields) for a person watching a terminal.
 * Redaction happens in pino before a line reaches this stream, so it holds here too.
 */
export function prettyLogStream(
  out: NodeJS.WritableStream,
  options: { colorize?: boolean } = {},
): pino.DestinationStream {
  const pretty = require("pino-pretty") as typeof PinoPretty;
  return pretty({
    destination: out,
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "pid,hostname,app",
    singleLine: true,
    // Left unset, colorette decides (NO_COLOR, FORCE_COLOR, a terminal).
    ...(options.colorize === undefined ? {} : { colorize: options.colorize }),
  });
}

/**
 * Where logs go by default: readable lines when stdout is a terminal (`npm start` by hand),
 * JSON lines otherwise (`undefined`: pino's own writer on fd 1), which collectors parse.
 */
export function defaultLogDestination(
  stdout: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout,
): pino.DestinationStream | undefined {
  return stdout.isTTY === true ? prettyLogStream(stdout) : undefined;
}

export function createLogger(
  level = process.env.LOG_LEVEL ?? "info",
  destination: pino.DestinationStream | undefined = defaultLogDestination(),
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
