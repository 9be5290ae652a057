/**
 * The parts of an interrupted run that need no CLI (the runs themselves: test/e2e/interrupted-writes.test.ts):
 * the dynamic host's gRPC server reporting the engine's Cancel to the runtime, failing safe on a
 * grpc-js without the method it wraps; and the journal of originals, which trusts only a private
 * directory and files of this user, and never writes a secret's text.
 */
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { interrupt, interruption } from "../../provider/core/runtime/interrupts";
import { dropRecorded, journalBefore, journalDir, journaling, openJournal, settleJournal } from "../../provider/core/runtime/journal";
import { PartiallyApplied } from "../../provider/core/runtime/partial";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { watchHostCancel } from "../../provider/dynamic/host-cancel";
import { markAsKilledRun } from "../support/journal";

describe("the dynamic host's Cancel", () => {
  it("reaches the runtime through every grpc-js server module loaded, once each; a grpc-js without _retrieveHandler is left alone", () => {
    class Server {
      handlers = new Map([["/pulumirpc.ResourceProvider/Cancel", "cancel handler"]]);
      _retrieveHandler(path: string) {
        return this.handlers.get(path) ?? null;
      }
    }
    class Unknown {}
    const cache = {
      "/host/node_modules/@grpc/grpc-js/build/src/server.js": { exports: { Server } },
      "/host/node_modules/other/node_modules/@grpc/grpc-js/build/src/server.js": { exports: { Server: Unknown } },
      "/host/node_modules/not-grpc/server.js": { exports: { Server } },
    } as unknown as NodeJS.Dict<NodeModule>;
    expect(watchHostCancel(cache)).toBe(1);
    expect(watchHostCancel(cache), "patched once").toBe(0);
    const server = new Server();
    expect(server._retrieveHandler("/pulumirpc.ResourceProvider/Create")).toBeNull();
    expect(interruption()).toBeUndefined();
    expect(server._retrieveHandler("/pulumirpc.ResourceProvider/Cancel"), "the host still answers the Cancel").toBe("cancel handler");
    expect(interruption()?.message).toMatch(/the Pulumi engine cancelled the run/);
  });

  it("finds the method it wraps in the grpc-js this package depends on", async () => {
    await import("@grpc/grpc-js");
    const modules = Object.keys(require.cache).filter((path) => path.endsWith(join("@grpc", "grpc-js", "build", "src", "server.js")));
    expect(modules.length).toBeGreaterThan(0);
    expect(watchHostCancel()).toBe(modules.length);
  });
});

describe("the journal of originals", () => {
  let state: string;
  let warnings: string[];
  beforeEach(() => {
    state = mkdtempSync(join(tmpdir(), "pulumi-semgrep-journal-"));
    vi.stubEnv("XDG_STATE_HOME", state);
    warnings = [];
    vi.spyOn(process.stderr, "write").mockImplementation((text) => (warnings.push(String(text)), true));
    forgetProcessMemory();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  const dir = () => join(state, "pulumi-semgrep");

  /** The journal's lines as if another process (a killed run) had written them: a process reads no line of its own. */
  const asKilledRun = () => markAsKilledRun(state);

  it("lives in a directory of mode 0700, holds what each write replaced, and drops the lines a state records", () => {
    const journal = openJournal("resource a");
    expect(journal.journaled.size).toBe(0);
    journal.before("rule.one", "MODE_MONITOR");
    journal.before("rule.two", "MODE_COMMENT");
    journal.before("rule.one", "MODE_BLOCK"); // a later write: the first one found the original
    expect(statMode(dir())).toBe(0o700);
    const [file] = readdirSync(dir());
    expect(statMode(join(dir(), file!))).toBe(0o600);
    expect(openJournal("resource a").journaled.size, "this process's own lines").toBe(0);
    asKilledRun();
    expect([...openJournal("resource a").journaled]).toEqual([
      ["rule.one", { original: "MODE_MONITOR" }],
      ["rule.two", { original: "MODE_COMMENT" }],
    ]);
    expect(openJournal("resource b").journaled.size, "another resource's journal").toBe(0);
    dropRecorded("resource a", (object) => object === "rule.one");
    expect([...openJournal("resource a").journaled.keys()]).toEqual(["rule.two"]);
    dropRecorded("resource a");
    expect(readdirSync(dir())).toEqual([]);
    expect(warnings).toEqual([]);
  });

  /** A create or update of the resource `key` (the dispatcher's journaling) that journals `originals` and returns `outs`, or fails leaving `partial`. */
  const write = (key: string, originals: Record<string, unknown>, outs: Record<string, unknown>, partial?: Record<string, unknown>) =>
    journaling(
      key,
      [],
      () => {
        journalBefore(originals);
        if (partial) throw new Error("cut", { cause: new PartiallyApplied("id", partial, "cut", { cause: undefined }) });
        return Promise.resolve({ outs });
      },
      (result) => result.outs,
      () => Promise.resolve(),
    );

  it("is dropped by a create or update that ends whole, the engine there to record its answer", async () => {
    await write("resource a", { primaryBranch: "main" }, { primaryBranch: "release", originals: { primaryBranch: "main" } });
    expect(readdirSync(dir())).toEqual([]);
  });

  it("outlives a call cut short, marked: its lines go once a state holds that call's very outputs", async () => {
    interrupt("a cancel"); // the engine may never record the answer
    await write("resource a", { primaryBranch: "main" }, { primaryBranch: "release", originals: { primaryBranch: "main" } });
    forgetProcessMemory(); // the next run's provider
    asKilledRun();
    expect([...openJournal("resource a").journaled]).toEqual([["primaryBranch", { original: '"main"' }]]);
    settleJournal("resource a", { primaryBranch: "main" }); // an older state: not the one that records it
    expect(openJournal("resource a").journaled.size).toBe(1);
    // The state the engine recorded of those outputs after all, keys in another order: it holds the original.
    settleJournal("resource a", { originals: { primaryBranch: "main" }, primaryBranch: "release", gone: undefined });
    expect(readdirSync(dir())).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it("keeps the lines of later calls that reached no state when an earlier one's state comes", async () => {
    interrupt("a cancel");
    await write("resource a", { primaryBranch: "main" }, { primaryBranch: "release" });
    await expect(
      write("resource a", { tags: ["pci"] }, { primaryBranch: "release", tags: ["sox"] }, { primaryBranch: "release", tags: [] }),
    ).rejects.toThrow("cut");
    await write("resource a", { mode: "MODE_MONITOR" }, { mode: "MODE_BLOCK" });
    forgetProcessMemory();
    asKilledRun();
    settleJournal("resource a", { primaryBranch: "release" }); // the first call's outputs
    expect([...openJournal("resource a").journaled.keys()]).toEqual(["tags", "mode"]);
  });

  it("keeps, past a partial state, the line of a write that failed: the service may have applied it, and the state does not record it", async () => {
    // Two rules journaled before their writes; the second write failed (retries spent: it may have landed), so
    // the partial state records the first rule's original only.
    const partial = { modes: { "rule.one": "MODE_BLOCK", "rule.two": "MODE_BLOCK" }, originals: { MODE_MONITOR: ["rule.one"] } };
    await expect(write("resource a", { "rule.one": "MODE_MONITOR", "rule.two": "MODE_COMMENT" }, {}, partial)).rejects.toThrow("cut");
    asKilledRun();
    settleJournal("resource a", partial); // the next run's diff, given the partial state
    // Its update finds rule.two as declared: the journal still says what it replaced.
    expect(openJournal("resource a").journaled.get("rule.two")).toEqual({ original: '"MODE_COMMENT"' });
  });

  it("opens no journal file the process did not list when it started or write itself: a resource without one costs no file-system call", () => {
    openJournal("resource a"); // the first look lists the directory (empty)
    const planted = join(dir(), `${createHash("sha256").update("resource b").digest("hex").slice(0, 32)}.jsonl`);
    writeFileSync(planted, '{"o":"rule.one","v":"MODE_DISABLED","p":-1}\n', { mode: 0o644 });
    expect(openJournal("resource b").journaled.size).toBe(0);
    expect(warnings, "an open would have found it not this user's alone").toEqual([]);
    forgetProcessMemory(); // a new process lists it, and distrusts it
    expect(openJournal("resource b").journaled.size).toBe(0);
    expect(warnings.join("")).toMatch(/not this user's alone/);
  });

  it("reads the lines of a killed run whose process had this process's pid (a container's recovery may get it again)", () => {
    openJournal("resource a"); // the directory, listed
    openJournal("resource a").before("rule.two", "MODE_COMMENT"); // this process's own line: never a killed run's
    const path = join(dir(), readdirSync(dir())[0]!);
    writeFileSync(path, `{"o":"rule.one","v":"MODE_MONITOR","p":${process.pid}}\n${readFileSync(path, "utf8")}`);
    expect([...openJournal("resource a").journaled]).toEqual([["rule.one", { original: "MODE_MONITOR" }]]);
  });

  it("never holds a secret's text: only that a secret value was written", () => {
    openJournal("secret").before("sha256:0123", undefined);
    const [file] = readdirSync(dir());
    expect(readFileSync(join(dir(), file!), "utf8")).toMatch(
      new RegExp(`^\\{"o":"sha256:0123","secret":true,"p":"${process.pid}-[0-9a-f]{8}"\\}\\n$`),
    );
    asKilledRun();
    expect([...openJournal("secret").journaled]).toEqual([["sha256:0123", { secret: true }]]);
  });

  it.each([
    ["a directory of a wider mode", () => (mkdirSync(dir()), chmodSync(dir(), 0o755))],
    [
      "a symlink to a directory",
      () => (mkdirSync(join(state, "elsewhere"), { mode: 0o700 }), symlinkSync(join(state, "elsewhere"), dir())),
    ],
    ["a file", () => writeFileSync(dir(), "")],
    ["a directory of another user", () => (mkdirSync(dir(), { mode: 0o700 }), chownSync(dir(), 1, 1))],
  ])("is not kept where %s stands, with a one-line warning", (what, plant) => {
    if (what.includes("another user") && process.getuid?.() !== 0) return; // only root can give a directory away
    plant();
    expect(journalDir()).toBeUndefined();
    const journal = openJournal("resource a");
    journal.before("rule.one", "MODE_MONITOR");
    expect(journal.journaled.size).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: pulumi-semgrep keeps no journal of originals in .*pulumi-semgrep: it .*\n$/);
  });

  it("ignores a journal file that is a symlink, or not this user's alone, with a warning, and reads none of it", () => {
    const journal = openJournal("resource a");
    journal.before("rule.one", "MODE_MONITOR");
    asKilledRun();
    const [file] = readdirSync(dir());
    const path = join(dir(), file!);
    expect(openJournal("resource a").journaled.size).toBe(1);
    chmodSync(path, 0o644);
    expect(openJournal("resource a").journaled.size).toBe(0);
    expect(warnings.join("")).toMatch(/not this user's alone/);
    writeFileSync(join(state, "planted"), '{"o":"rule.one","v":"MODE_DISABLED","p":-1}\n');
    chmodSync(join(state, "planted"), 0o600);
    rmSync(path);
    symlinkSync(join(state, "planted"), path);
    forgetProcessMemory();
    expect(openJournal("resource a").journaled.size).toBe(0);
    expect(warnings.join("")).toMatch(/cannot be opened \(ELOOP\)/);
  });
});

const statMode = (path: string) => statSync(path).mode & 0o777;
