import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file starts its own emulator on a free port; the end-to-end files drive the Pulumi CLI.
    pool: "forks",
    globalSetup: ["./test/support/global-setup.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});
