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
 * 1. the body is buffered (Bolt reuses `req.rawBody` when it is already there);
 * 2. the timestamp must lie within 5 minutes either way, and the v0 signature must match
 *    (timing-safe); nothing is remembered of a request that fails either check;
 * 3. the content type is written the way Bolt compares it;
 * 4. a slash command, block_actions or view_submission whose exact body was already seen in
 *    the last 5 minutes is answered with an empty 200 and never reaches Bolt. Options requests
 *    (block_suggestion) are not: identical ones each want their answer. That memory is a
 *    SharedState: in this process by default, in Redis when replicas share the load (a retry
 *    may reach another replica). When it cannot be reached the request goes on to Bolt: the
 *    store is on the same Redis, so the listener tells the user "fleetbot cannot queue requests
 *    right now" and queues nothing (a 503 would only show Slack's own "dispatch failed").
 */

/** Slack's replay window, both ways. */
export const REQUEST_WINDOW_MS = 5 * 60_000;
/** Bolt's default body limit (10 MB is far above any Slack payload). */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

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

/** `ssl_check=1`: Slack's certificate probe, unsigned; Bolt answers it (and drops anything else in it). */
function isSslCheck(form: URLSearchParams | undefined): boolean {
  return form?.get("ssl_check") === "1";
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

function refuse(res: ServerResponse, status: number): void {
  res.writeHead(status, { "content-type": "text/plain" }).end();
}

/** Wraps Bolt's request listener: Slack requests pass the checks above first; other routes go straight through. */
export function guardSlackRequests(inner: RequestListener, options: RequestGuardOptions): RequestListener {
  const now = options.now ?? Date.now;
  const seen =
    options.sharedState ?? new MemorySharedState({ now, maxEntries: options.maxRemembered ?? 10_000 });
  const guarded = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req, MAX_BODY_BYTES);
    if (!body) {
      refuse(res, 413);
      return;
    }
    const contentType = mediaType(req.headers["content-type"]);
    if (contentType === FORM || contentType === JSON_TYPE) req.headers["content-type"] = contentType;
    // Bolt reads the buffered body instead of the (consumed) stream.
    Object.assign(req, { rawBody: body });
    const form = formOf(contentType, body);
    if (isSslCheck(form)) {
      inner(req, res);
      return;
    }
    const timestamp = req.headers["x-slack-request-timestamp"];
    const timestampSec = typeof timestamp === "string" && /^\d+$/.test(timestamp) ? Number(timestamp) : NaN;
    const signature = req.headers["x-slack-signature"];
    if (
      typeof timestamp !== "string" ||
      !Number.isFinite(timestampSec) ||
      Math.abs(now() - timestampSec * 1000) > REQUEST_WINDOW_MS ||
      !validSignature(
        options.signingSecret,
        timestamp,
        body,
        typeof signature === "string" ? signature : undefined,
      )
    ) {
      options.logger?.warn({ path: options.path }, "Slack request refused: bad signature or timestamp");
      refuse(res, 401);
      return;
    }
    const kind = requestKind(contentType, body, form);
    if (kind && ONCE_ONLY.has(kind)) {
      const key = createHash("sha256").update(body).digest("hex");
      let first: boolean;
      try {
        first = await seen.firstSeen(`slack-request:${key}`, REQUEST_WINDOW_MS);
      } catch (error) {
        options.logger?.warn({ err: error }, "Slack request's resend memory cannot be reached; let through");
        first = true;
      }
      if (!first) {
        options.logger?.debug(
          { kind, retry: req.headers["x-slack-retry-num"] },
          "repeated Slack request answered without running it again",
        );
        res.writeHead(200).end();
        return;
      }
    }
    inner(req, res);
  };
  return (req, res) => {
    // Bolt upper-cases the method too; an unreadable URL goes to Bolt, which cannot route it either.
    if (req.method?.toUpperCase() !== "POST" || routedPath(req.url) !== options.path) {
      inner(req, res);
      return;
    }
    options.pendingAcks?.track(res);
    guarded(req, res).catch((error: unknown) => {
      options.logger?.warn({ err: error }, "Slack request could not be read");
      if (!res.headersSent) refuse(res, 400);
    });
  };
}
