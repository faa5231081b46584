import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    environment: "node",
    // The e2e files start real processes (bots, redis-server, Chromium, tsx) and wait on sockets: a
    // test that takes 8 s on a quiet machine took 18-20 s in loaded runs here. A bound is for a
    // test that hangs, not a speed check (the benchmarks are), so it leaves a loaded CI room.
    testTimeout: 45_000,
    hookTimeout: 45_000,
    // Each file starts its own simulator and bot on free ports; files can run side by side.
    pool: "forks",
    // Vitest's default (CPUs − 1) is one worker on a 2-core machine, where the e2e files mostly
    // wait on timers and sockets: two side by side took the suite from 653 s to 501 s here.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" },
  },
});
