import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 120_000, // CLI tests run several pulumi commands each, two files at a time
    hookTimeout: 60_000,
    // Each file starts its own emulator on a free port; the end-to-end files drive the Pulumi CLI.
    pool: "forks",
    // At least two files at once, even on 2 cores (vitest's default is one fewer than the cores):
    // the CLI files spend much of their time waiting on child processes. 6 min instead of 9 here.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ["./test/support/global-setup.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
    projects: [
      { extends: true, test: { name: "all", include: ["test/**/*.test.ts"], exclude: ["test/live/**"], provide: { omitEmpty: false } } },
      {
        // The end-to-end and data-source tests once more, against an emulator that leaves out
        // every field at its default value (`--omit-empty`), as protobuf's JSON mapping does.
        extends: true,
        test: { name: "omit-empty", include: ["test/e2e/**/*.test.ts", "test/functions/**/*.test.ts"], provide: { omitEmpty: true } },
        resolve: {
          alias: [
            {
              find: /^(\.\.\/)+provider\/emulator$/,
              replacement: fileURLToPath(new URL("./test/support/omit-empty-emulator.ts", import.meta.url)),
            },
          ],
        },
      },
    ],
  },
});
