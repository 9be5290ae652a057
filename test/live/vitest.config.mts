import { defineConfig } from "vitest/config";

/** `npm run test:live`: read-only checks against the real Semgrep service (see CONTRIBUTING.md, "The live tier"). */
export default defineConfig({
  test: {
    include: ["test/live/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});
