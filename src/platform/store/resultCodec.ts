import { promisify } from "node:util";
import { brotliCompress, brotliDecompressSync, constants } from "node:zlib";
import { type ResultNotKept, resultNotKeptSchema } from "../tasks/task.js";

/**
 * How a task's result is written to the store. One month's route or stops report can be
 * megabytes of JSON; kept for TASK_RETENTION_DAYS, uncapped, such results fill a Redis run
 * with `noeviction`, which then refuses every write. So a stored result is one of:
 *   - its JSON text, when small (and always in SQLite, which compresses nothing);
 *   - "br:" + base64 of its brotli-compressed JSON, above `compressAboveBytes` (Redis);
 *   - "gone:" + a marker (ResultNotKept) once too large to keep, or dropped after delivery.
 * No JSON text starts with "b" or "g", so the three never mix up.
 */
const COMPRESSED = "br:";
const NOT_KEPT = "gone:";

export interface ResultLimits {
  /** Results whose JSON is larger are compressed (Redis), and dropped a day after delivery. */
  compressAboveBytes: number;
  /** A stored result larger than this (after compression) is replaced by a "too large" marker. */
  maxStoredBytes: number;
}

export const DEFAULT_RESULT_LIMITS: ResultLimits = {
  compressAboveBytes: 16 * 1024,
  maxStoredBytes: 4 * 1024 * 1024,
};

const compress = promisify(brotliCompress);
// Quality 5: most of the ratio of 11 at a small fraction of its time (reports are repetitive JSON).
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };

/** A marker as stored. */
export function notKeptText(marker: ResultNotKept): string {
  return NOT_KEPT + JSON.stringify(marker);
}

const SUMMARY_MAX_FIELDS = 20;
const SUMMARY_MAX_TEXT = 200;

/** The top-level scalars of a result (and of its `report`, for tagged reports): what a marker keeps. */
export function summaryOf(value: unknown): ResultNotKept["summary"] {
  const summary: Record<string, string | number | boolean> = {};
  const take = (object: unknown, prefix: string) => {
    if (typeof object !== "object" || object === null || Array.isArray(object)) return;
    for (const [key, field] of Object.entries(object)) {
      if (Object.keys(summary).length >= SUMMARY_MAX_FIELDS) return;
      if (typeof field === "number" || typeof field === "boolean") summary[prefix + key] = field;
      else if (typeof field === "string" && field.length <= SUMMARY_MAX_TEXT) summary[prefix + key] = field;
    }
  };
  take(value, "");
  if (typeof value === "object" && value !== null && "report" in value) take(value.report, "report.");
  return Object.keys(summary).length > 0 ? summary : undefined;
}

function tooLarge(value: unknown, bytes: number): string {
  const summary = summaryOf(value);
  return notKeptText({ reason: "too-large", bytes, ...(summary ? { summary } : {}) });
}

/** SQLite: the JSON text, or the "too large" marker past the cap (undefined stays absent). */
export function encodeResultSync(
  value: unknown,
  limits: ResultLimits = DEFAULT_RESULT_LIMITS,
): string | undefined {
  if (value === undefined) return undefined;
  const json = JSON.stringify(value);
  const bytes = Buffer.byteLength(json);
  return bytes > limits.maxStoredBytes ? tooLarge(value, bytes) : json;
}

/** A result as Redis stores it: its text and, for bulk, what its marker will say once dropped. */
export interface EncodedResult {
  text: string;
  /** JSON {bytes, summary?}: set for a compressed result, which is dropped a day after delivery. */
  bulk?: string;
}

/** Redis: the JSON text, compressed above the threshold, or the "too large" marker past the cap. */
export async function encodeResult(
  value: unknown,
  limits: ResultLimits = DEFAULT_RESULT_LIMITS,
): Promise<EncodedResult | undefined> {
  if (value === undefined) return undefined;
  const json = JSON.stringify(value);
  const bytes = Buffer.byteLength(json);
  if (bytes <= limits.compressAboveBytes) return { text: json };
  const packed = COMPRESSED + (await compress(json, BROTLI)).toString("base64");
  if (Buffer.byteLength(packed) > limits.maxStoredBytes) return { text: tooLarge(value, bytes) };
  const summary = summaryOf(value);
  return { text: packed, bulk: JSON.stringify({ bytes, ...(summary ? { summary } : {}) }) };
}

/** A stored result: the value, or the marker saying why it is not kept. */
export function decodeResult(text: string): { result?: unknown; resultNotKept?: ResultNotKept } {
  if (text.startsWith(NOT_KEPT))
    return { resultNotKept: resultNotKeptSchema.parse(JSON.parse(text.slice(NOT_KEPT.length))) };
  if (text.startsWith(COMPRESSED))
    return {
      result: JSON.parse(
        brotliDecompressSync(Buffer.from(text.slice(COMPRESSED.length), "base64")).toString("utf8"),
      ),
    };
  return { result: JSON.parse(text) };
}

/** The prefix of a marker as stored (the stores' drop of a delivered result's bulk writes one). */
export const NOT_KEPT_PREFIX = NOT_KEPT;
