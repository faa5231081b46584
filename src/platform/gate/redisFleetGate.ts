import {
  ApplicationFailureError,
  BadRequestError,
  RateLimitedError,
  RequestRuleError,
  UnauthorizedError,
  UpstreamTransportError,
} from "../fleet/errors.js";
import type { FleetGateOptions } from "./fleetGate.js";
import type { GateOptions } from "./gate.js";
import { RedisGate, type RedisGateOptions } from "./redisGate.js";

/**
 * The fleet client's errors, as callers recognise them (`instanceof`, `kind`, `reason`,
 * `errorCode`): rebuilt with their class on the replica that shared the call. The client's
 * private errors (a token refused or expired while queued) are not listed: callers on other
 * replicas send their own call, with their own token, instead.
 */
const FLEET_ERRORS = [
  RequestRuleError,
  BadRequestError,
  UnauthorizedError,
  RateLimitedError,
  ApplicationFailureError,
  UpstreamTransportError,
];

/** The Redis gate for the fleet service: recognises the client's 429 and shares its errors. */
export function createRedisFleetGate(
  options: FleetGateOptions & Omit<RedisGateOptions, keyof GateOptions | "shareableErrors">,
): RedisGate {
  return new RedisGate({
    ...options,
    rateLimitDelay: (error) => (error instanceof RateLimitedError ? (error.retryAfterMs ?? 0) : undefined),
    shareableErrors: FLEET_ERRORS,
  });
}
