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
    setupFiles: ["./test/support/private-state.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
    projects: [
      { extends: true, test: { name: "all", include: ["test/**/*.test.ts"], exclude: ["test/live/**"], provide: { omitEmpty: false } } },
      {
        // The end-to-end and data-source tests once more, against an emulator that leaves out
        // every field at its default value (`--omit-empty`), as protobuf's JSON mapping does: the
        // files whose subject is reading the service's answers (every kind through the CLI, data
        // sources, unified policies, system tags, adopt, the policy pack's rule reads). The files
        // about the provider's own logic over answers already read (ownership and renames, secrets,
        // concurrency, interrupted runs, upgrades, migrations, notes, the examples and their runner) run once: a
        // second pass there re-tested the same reads for about 6 minutes of CI.
        extends: true,
        test: {
          name: "omit-empty",
          include: ["test/e2e/**/*.test.ts", "test/functions/**/*.test.ts"],
          exclude: [
            "test/e2e/{ownership,secrets,concurrency,interrupted,interrupted-writes,upgrade,migrate-rule-modes,settling-and-notes}.test.ts",
            // Interrupted runs of every kind and the set's claims, notes and diff: the provider's own logic (about 5 minutes).
            "test/e2e/{interrupted-kinds,interrupted-project-set,interrupted-skip-checkpoints}.test.ts",
            "test/e2e/{project-set-recovery-note-lines,project-set-selector-claims,project-set-destroy-names-left,project-set-preview-diff}.test.ts",
            "test/e2e/{examples,example-runner,security-baseline,drift-check,policy-pack-puts-back,policy-pack-generated,demo}.test.ts",
            // The access kinds' own logic and the access example (their answers' shapes are the conformance tier's, with --omit-empty).
            "test/e2e/{teams,teams-yaml,user-roles,access-example,notification-rule-unmanaged-config}.test.ts",
            "test/e2e/native-schema.test.ts", // no emulator: the schema and the YAML type checker only
            // The native front end over the same handlers: their reads are this pass's in the files above
            // and in yaml-import (whose subject, declarations generated from answers, runs here). The
            // Node.js SDK's file is about its packaging and the move between front ends (about 2 minutes).
            "test/e2e/yaml-native.test.ts",
            "test/e2e/node-sdk.test.ts",
          ],
          provide: { omitEmpty: true },
        },
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
