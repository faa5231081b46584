/**
 * Property tests run with one seed, so CI is deterministic; set FC_SEED to explore others
 * (fast-check prints the seed and path of any failure).
 */
import fc from "fast-check";
import { vi } from "vitest";

fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261122) });

/**
 * vi.waitFor gives up after 1 s by default. The e2e tests wait on real sockets and processes, and a
 * loaded CI machine can take longer than that to answer what a quiet one answers in 50 ms; a wait
 * that succeeds returns as soon as it does, so a longer bound costs nothing but a slower failure.
 * An explicit timeout still wins.
 */
const waitForWithin1s = vi.waitFor;
vi.waitFor = ((callback, options) =>
  waitForWithin1s(callback, {
    timeout: 10_000,
    interval: 50,
    ...(typeof options === "number" ? { timeout: options } : options),
  })) as typeof vi.waitFor;
