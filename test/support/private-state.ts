/**
 * Each test file's own state directory (XDG_STATE_HOME), where the provider keeps its journal of
 * originals (provider/core/runtime/journal.ts) when handlers run in the test process: never the
 * user's, and never shared with another file running at the same time, whose resources may have
 * the same names. The CLI runs get their workspace's own (test/tools/pulumi-run.mjs).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

process.env.XDG_STATE_HOME = mkdtempSync(join(tmpdir(), "pulumi-semgrep-state-"));
