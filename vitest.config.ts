import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    environment: "node",
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Each file starts its own simulator and bot on free ports; files can run side by side.
    pool: "forks",
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" },
  },
});
