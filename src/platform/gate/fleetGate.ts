import { RateLimitedError } from "../fleet/errors.js";
import type { GateOptions } from "./gate.js";
import { MemoryGate, type MemoryGateOptions } from "./memoryGate.js";

/** What either fleet gate is given: the shared options, less the 429 rule (the fleet client's, below). */
export type FleetGateOptions = Omit<GateOptions, "rateLimitDelay">;

/**
 * The gate for the fleet service: a MemoryGate that recognises the client's 429 error.
 * Without Retry-After the gate waits one slot (the service counts from its last accepted call).
 */
export function createFleetGate(options: FleetGateOptions & Pick<MemoryGateOptions, "clock">): MemoryGate {
  return new MemoryGate({
    ...options,
    rateLimitDelay: (error) => (error instanceof RateLimitedError ? (error.retryAfterMs ?? 0) : undefined),
  });
}
