/**
 * The simulator's own reading of request bodies, written from fleet-api.md and shared with
 * nothing else (the client has its own). Keys are matched case-insensitively, as the
 * real (ASP.NET) service binds JSON.
 */
import { MINUTE, offsetMinutes, parseRequestDate } from "./time.js";

export interface Failure {
  errorCode: string;
  errorParameters: string[];
}

/** Ends the request with HTTP `status` and these failures in the envelope. */
export class RequestRejected extends Error {
  constructor(
    readonly status: 400 | 401 | 404,
    readonly failures: Failure[],
  ) {
    super(failures.map((f) => f.errorCode).join(", "));
  }
}

export function failure(errorCode: string, ...errorParameters: Array<string | number>): Failure {
  return { errorCode, errorParameters: errorParameters.map(String) };
}

export const badRequest = (code: string, ...params: Array<string | number>) =>
  new RequestRejected(400, [failure(code, ...params)]);

export type Body = Record<string, unknown>;

export function asBody(value: unknown): Body {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw badRequest("InvalidBody");
  return value as Body;
}

/** A field of the body, whatever the casing of its key. */
export function field(body: Body, name: string): unknown {
  if (name in body) return body[name];
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(body)) if (key.toLowerCase() === lower) return value;
  return undefined;
}

function isMissing(value: unknown): boolean {
  return value === undefined || value === null;
}

export function requiredInteger(body: Body, name: string): number {
  const value = field(body, name);
  if (isMissing(value)) throw badRequest("MissingParameter", name);
  if (typeof value !== "number" || !Number.isInteger(value))
    throw badRequest("InvalidParameter", name, "integer expected");
  return value;
}

export function optionalInteger(body: Body, name: string): number | undefined {
  const value = field(body, name);
  if (isMissing(value)) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value))
    throw badRequest("InvalidParameter", name, "integer expected");
  return value;
}

export function requiredString(body: Body, name: string): string {
  const value = field(body, name);
  if (isMissing(value)) throw badRequest("MissingParameter", name);
  if (typeof value !== "string") throw badRequest("InvalidParameter", name, "string expected");
  if (value.trim() === "") throw badRequest("MissingParameter", name);
  return value;
}

export function optionalString(body: Body, name: string): string | null {
  const value = field(body, name);
  if (isMissing(value)) return null;
  if (typeof value !== "string") throw badRequest("InvalidParameter", name, "string expected");
  return value;
}

export function requiredArray(body: Body, name: string): unknown[] {
  const value = field(body, name);
  if (isMissing(value)) throw badRequest("MissingParameter", name);
  if (!Array.isArray(value)) throw badRequest("InvalidParameter", name, "array expected");
  return value;
}

export function integerList(body: Body, name: string): number[] {
  const list = requiredArray(body, name);
  for (const item of list) {
    if (typeof item !== "number" || !Number.isInteger(item))
      throw badRequest("InvalidParameter", name, "integers expected");
  }
  return list as number[];
}

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export function requiredGuid(body: Body, name: string): string {
  const value = requiredString(body, name);
  if (!GUID.test(value)) throw badRequest("InvalidParameter", name, "GUID expected");
  return value.toLowerCase();
}

export function guidList(body: Body, name: string): string[] {
  const list = requiredArray(body, name);
  return list.map((item) => {
    if (typeof item !== "string" || !GUID.test(item))
      throw badRequest("InvalidParameter", name, "GUIDs expected");
    return item.toLowerCase();
  });
}

/** A date-time field; without offset it is wall time in `zone`. */
export function requiredDate(body: Body, name: string, zone: string): number {
  const value = requiredString(body, name);
  const instant = parseRequestDate(value.trim(), zone);
  if (instant === undefined) throw badRequest("InvalidParameter", name, "ISO 8601 date-time expected");
  return instant;
}

export function optionalDate(body: Body, name: string, zone: string): number | null {
  const value = field(body, name);
  if (isMissing(value) || value === "") return null;
  return requiredDate(body, name, zone);
}

export interface Period {
  from: number;
  to: number;
}

/**
 * startDate/endDate in the company zone; start after end is refused, and so is a period
 * longer than `maxDays` (measured on the wall clock, so a DST change does not matter; null: no limit).
 */
export function period(body: Body, timeZone: string, maxDays: number | null): Period {
  const from = requiredDate(body, "startDate", timeZone);
  const to = requiredDate(body, "endDate", timeZone);
  if (from > to) throw badRequest("InvalidPeriod", "startDate", "endDate");
  const wallSpan =
    to + offsetMinutes(timeZone, to) * MINUTE - (from + offsetMinutes(timeZone, from) * MINUTE);
  if (maxDays !== null && wallSpan > maxDays * 24 * 60 * MINUTE) throw badRequest("PeriodTooLong", maxDays);
  return { from, to };
}

/** vehiclesList; more than `max` entries (null: no limit) is refused. */
export function vehicleList(body: Body, max: number | null): number[] {
  const list = integerList(body, "vehiclesList");
  if (max !== null && list.length > max) throw badRequest("TooManyVehicles", max, list.length);
  return [...new Set(list)];
}
