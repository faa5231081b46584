import { RateLimitedError } from "../fleet/errors.js";
import { MemoryGate, type MemoryGateOptions } from "./memoryGate.js";

/**
 * The gate for the fleet service: a MemoryGate that recognises the client's 429 error.
 * Without Retry-After the gate waits one slot (the service counts from its last accepted call).
 */
export function createFleetGate(options: Omit<MemoryGateOptions, "rateLimitDelay">): MemoryGate {
  return new MemoryGate({
    ...options,
    rateLimitDelay: (error) => (error instanceof RateLimitedError ? (error.retryAfterMs ?? 0) : undefined),
  });
}
