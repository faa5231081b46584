import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { MemorySharedState, type SharedState } from "../store/sharedState.js";
import type { PendingAcks } from "./pendingAcks.js";

/**
 * The door in front of Bolt's HTTP receiver for POST /slack/events. Bolt checks the signature
 * but refuses only OLD timestamps, compares the content type exactly (so `; charset=utf-8`
 * fails) and has no memory of requests, so a Slack retry or a resend of one signed request
 * made a second task. Here, before Bolt sees anything:
 * 1. a request without Slack's signature headers can only be Slack's `ssl_check` probe: at most
 *    1 KB of it is read, `ssl_check=1` gets an empty 200 here and nothing is passed on, anything
 *    else a 401. A request with them whose timestamp is malformed or outside 5 minutes either
 *    way is refused before its body is read, and so is a body announced above 1 MB;
 * 2. the body is buffered (at most 1 MB; Bolt reuses `req.rawBody` when it is already there) and
 *    the v0 signature must match (timing-safe); nothing is remembered of a request that fails.
 *    A signed ssl_check is answered here too: no ssl_check ever reaches Bolt, which would route
 *    a payload smuggled beside it (issue: unsigned `ssl_check=1&payload=…` ran buttons);
 * 3. only a verified request counts as an ack to let go first (PendingAcks): unsigned floods
 *    cannot hold tasks back;
 * 4. the content type is written the way Bolt compares it;
 * 5. a slash command, block_actions or view_submission whose exact body was already seen is
 *    answered with an empty 200 and never reaches Bolt. It is remembered until its own
 *    timestamp's window has closed (timestamp + 5 min + a margin for clock skew), and a resend
 *    with a later timestamp (Slack's retry) extends that, so no capture can be replayed inside
 *    any window. Options requests (block_suggestion) are not remembered: identical ones each
 *    want their answer. That memory is a SharedState: in this process by default, in Redis when
 *    replicas share the load (a retry may reach another replica). When it cannot be reached the
 *    request goes on to Bolt: the store is on the same Redis, so the listener tells the user
 *    "fleetbot cannot queue requests right now" and queues nothing (a 503 would only show
 *    Slack's own "dispatch failed").
 * Bolt's own signature check stays on behind this, as a second lock on the same door.
 */

/** Slack's replay window, both ways. */
export const REQUEST_WINDOW_MS = 5 * 60_000;
/** Past the window, a seen body is remembered this much longer: a sender's clock may be off. */
export const REPLAY_MARGIN_MS = 60_000;
/** The largest body read; Slack's largest payloads (a modal's state) stay far below it. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Slack's ssl_check probe is `ssl_check=1&token=…`: an unsigned body is read no further than this. */
const MAX_UNSIGNED_BYTES = 1024;

const FORM = "application/x-www-form-urlencoded";
const JSON_TYPE = "application/json";

/** Payload types whose second delivery would do the work twice. */
const ONCE_ONLY = new Set(["slash_command", "block_actions", "view_submission"]);

export interface RequestGuardOptions {
  signingSecret: string;
  /** The path Bolt serves Slack on. */
  path: string;
  now?: () => number;
  /** Where bodies already seen are remembered; default: this process' memory (see maxRemembered). */
  sharedState?: SharedState;
  /** Bodies remembered at most by the default memory (the oldest go first); default 10,000. */
  maxRemembered?: number;
  logger?: Pick<Logger, "warn" | "debug">;
  /** Counts each Slack request until its response is sent, so that tasks let the acks go first. */
  pendingAcks?: Pick<PendingAcks, "track">;
}

/** The media type alone, lower case: `Application/X-WWW-Form-Urlencoded; charset=utf-8` → the form type. */
export function mediaType(header: string | undefined): string {
  return (header ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** v0 signature check, constant time; false for a missing or malformed header. */
export function validSignature(
  signingSecret: string,
  timestampHeader: string,
  rawBody: Buffer,
  signature: string | undefined,
): boolean {
  if (!signature?.startsWith("v0=")) return false;
  const expected = createHmac("sha256", signingSecret)
    .update(`v0:${timestampHeader}:`)
    .update(rawBody)
    .digest();
  const given = Buffer.from(signature.slice(3), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A form body, read once for both the ssl_check test and the request's kind. */
function formOf(contentType: string, rawBody: Buffer): URLSearchParams | undefined {
  return contentType === FORM ? new URLSearchParams(rawBody.toString("utf8")) : undefined;
}

/**
 * What kind of request a verified body is (`slash_command` for a command, the payload's `type`
 * for interactivity, the event envelope's `type` for JSON); undefined when it cannot be read.
 */
export function requestKind(
  contentType: string,
  rawBody: Buffer,
  form = formOf(contentType, rawBody),
): string | undefined {
  try {
    if (form) {
      const payload = form.get("payload");
      if (payload !== null) return typeOf(JSON.parse(payload));
      return form.has("command") ? "slash_command" : undefined;
    }
    if (contentType === JSON_TYPE) return typeOf(JSON.parse(rawBody.toString("utf8")));
  } catch {
    return undefined;
  }
  return undefined;
}

function typeOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || !("type" in value)) return undefined;
  return typeof value.type === "string" ? value.type : undefined;
}

/**
 * Slack's certificate probe: a form with `ssl_check`. It never reaches Bolt, whatever else the
 * body carries: Bolt parses forms with node:querystring, which reads `ssl_check=1&ssl_check=1`
 * as a list and would route the command beside it, while URLSearchParams reads `"1"`.
 */
function hasSslCheck(form: URLSearchParams | undefined): boolean {
  return form?.has("ssl_check") ?? false;
}

/** Exactly Slack's unsigned probe: one `ssl_check`, of value 1. */
function isPlainSslCheck(form: URLSearchParams | undefined): boolean {
  const values = form?.getAll("ssl_check") ?? [];
  return values.length === 1 && values[0] === "1";
}

/**
 * The path as Bolt's HTTPReceiver routes it (`new URL(url).pathname`: dot segments resolved, a
 * backslash read as a slash, query and fragment dropped). The guard must decide on the same
 * path: a spelling it did not know (`/slack/./events`) would otherwise reach Bolt unchecked.
 */
export function routedPath(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? "/", "http://localhost").pathname;
  } catch {
    return undefined;
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/**
 * Answers without reading the body; the connection closes after the answer, so what the client
 * still sends is not read either.
 */
function refuse(res: ServerResponse, status: number): void {
  res.shouldKeepAlive = false;
  res.writeHead(status, { "content-type": "text/plain", connection: "close" }).end();
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" ? value : undefined;
}

/** The timestamp header in seconds; undefined when it is not a plain whole number. */
function timestampOf(value: string | undefined): number | undefined {
  return value !== undefined && /^\d{1,12}$/.test(value) ? Number(value) : undefined;
}

/** A Content-Length above `limit` (chunked bodies are cut while read instead). */
function announcedTooLarge(req: IncomingMessage, limit: number): boolean {
  const length = Number(req.headers["content-length"]);
  return Number.isFinite(length) && length > limit;
}

/** What the guard's checks share: its options, its clock, the memory of requests seen, its log. */
interface Guard {
  options: RequestGuardOptions;
  now: () => number;
  seen: SharedState;
  log: RequestGuardOptions["logger"];
}

/** Wraps Bolt's request listener: Slack requests pass the checks above first; other routes go straight through. */
export function guardSlackRequests(inner: RequestListener, options: RequestGuardOptions): RequestListener {
  const now = options.now ?? Date.now;
  const guard: Guard = {
    options,
    now,
    seen: options.sharedState ?? new MemorySharedState({ now, maxEntries: options.maxRemembered ?? 10_000 }),
    log: options.logger,
  };
  return (req, res) => {
    // Bolt upper-cases the method too; an unreadable URL goes to Bolt, which cannot route it either.
    if (req.method?.toUpperCase() !== "POST" || routedPath(req.url) !== options.path) {
      inner(req, res);
      return;
    }
    guarded(guard, inner, req, res).catch((error: unknown) => {
      guard.log?.warn({ err: error }, "Slack request could not be read");
      if (!res.headersSent) refuse(res, 400);
    });
  };
}

/** One request to Slack's path: signed, within its window, whole, once; then Bolt's. */
async function guarded(
  guard: Guard,
  inner: RequestListener,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const timestamp = header(req, "x-slack-request-timestamp");
  const signature = header(req, "x-slack-signature");
  if (timestamp === undefined || signature === undefined) {
    await unsigned(guard, req, res);
    return;
  }
  const verified = await verifiedBody(guard, req, res, timestamp, signature);
  if (!verified) return;
  const { body, timestampSec } = verified;
  // Verified: from here on it is Slack's request, and its ack goes before tasks' work.
  guard.options.pendingAcks?.track(res);
  const contentType = mediaType(req.headers["content-type"]);
  if (contentType === FORM || contentType === JSON_TYPE) req.headers["content-type"] = contentType;
  const form = formOf(contentType, body);
  if (hasSslCheck(form)) {
    res.writeHead(200).end();
    return;
  }
  // Bolt reads the buffered body instead of the (consumed) stream.
  Object.assign(req, { rawBody: body });
  const kind = requestKind(contentType, body, form);
  if (kind && ONCE_ONLY.has(kind) && !(await firstTime(guard, body, timestampSec))) {
    guard.log?.debug(
      { kind, retry: req.headers["x-slack-retry-num"] },
      "repeated Slack request answered without running it again",
    );
    res.writeHead(200).end();
    return;
  }
  inner(req, res);
}

/** No signature headers: Slack's ssl_check, or nothing. */
async function unsigned(guard: Guard, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = announcedTooLarge(req, MAX_UNSIGNED_BYTES)
    ? undefined
    : await readBody(req, MAX_UNSIGNED_BYTES);
  if (body && isPlainSslCheck(formOf(mediaType(req.headers["content-type"]), body))) {
    res.writeHead(200).end();
    return;
  }
  guard.log?.warn({ path: guard.options.path }, "Slack request refused: no signature");
  refuse(res, 401);
}

/**
 * The request's body once its timestamp is within the window, its size within the cap and its
 * signature Slack's; undefined when it was refused (401 or 413, answered here).
 */
async function verifiedBody(
  guard: Guard,
  req: IncomingMessage,
  res: ServerResponse,
  timestamp: string,
  signature: string,
): Promise<{ body: Buffer; timestampSec: number } | undefined> {
  const { options, log } = guard;
  const timestampSec = timestampOf(timestamp);
  if (timestampSec === undefined || Math.abs(guard.now() - timestampSec * 1000) > REQUEST_WINDOW_MS) {
    log?.warn({ path: options.path }, "Slack request refused: timestamp outside the window");
    refuse(res, 401);
    return undefined;
  }
  if (announcedTooLarge(req, MAX_BODY_BYTES)) {
    refuse(res, 413);
    return undefined;
  }
  const body = await readBody(req, MAX_BODY_BYTES);
  if (!body) {
    refuse(res, 413);
    return undefined;
  }
  if (!validSignature(options.signingSecret, timestamp, body, signature)) {
    log?.warn({ path: options.path }, "Slack request refused: bad signature");
    refuse(res, 401);
    return undefined;
  }
  return { body, timestampSec };
}

/**
 * Whether this exact body is seen for the first time (a resend or one of Slack's retries is not),
 * remembered until the request's own window has closed, wherever in it the request arrived.
 */
async function firstTime(guard: Guard, body: Buffer, timestampSec: number): Promise<boolean> {
  const key = createHash("sha256").update(body).digest("hex");
  try {
    const rememberMs = Math.max(1, timestampSec * 1000 + REQUEST_WINDOW_MS + REPLAY_MARGIN_MS - guard.now());
    return await guard.seen.firstSeen(`slack-request:${key}`, Math.ceil(rememberMs));
  } catch (error) {
    guard.log?.warn({ err: error }, "Slack request's resend memory cannot be reached; let through");
    return true;
  }
}
