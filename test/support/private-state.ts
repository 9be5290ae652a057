/**
 * Each test file's own state directory (XDG_STATE_HOME), where the provider keeps its journal of
 * originals (provider/core/runtime/journal.ts) when handlers run in the test process: never the
 * user's, and never shared with another file running at the same time, whose resources may have
 * the same names. Removed after the file. The CLI runs get their workspace's own (test/tools/pulumi-run.mjs).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

const state = mkdtempSync(join(tmpdir(), "pulumi-semgrep-state-"));
process.env.XDG_STATE_HOME = state;
afterAll(() => rmSync(state, { recursive: true, force: true }));
