/**
 * The run's file of settled claims (provider/core/runtime/run-registry.ts), which lets a delete in
 * one provider process leave to a resource of another process of the same engine run what it
 * holds: lines of another live process are holders, lines of exited processes (an earlier run on
 * the same port) are ignored, files of dead runs are removed, and no secret of the program is
 * written. The same through the real CLI: test/e2e/node-sdk.test.ts ("without the alias").
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useEngineAddress } from "../../provider/core/runtime/engine-watch";
import { type Claim, declare, holderOf, type Owner, settle } from "../../provider/core/runtime/ownership";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { runFile } from "../../provider/core/runtime/run-registry";

const web: Owner = { kind: "ProjectSettings", name: "web" };
const branch: Claim = { object: "project acme/web-app (deployment acme)", field: "primaryBranch", value: "refs/heads/release" };
const secretTag: Claim = {
  object: "project acme/payments-api (deployment acme)",
  field: 'tag "s3cret-tag"',
  property: "tags",
  shared: true,
  value: "s3cret-tag",
  secret: true,
};
const secretMode: Claim = { object: "rule r in policy 10 (deployment 1)", field: "mode", value: "MODE_S3CRET", secret: true };

/** The pid of a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid!;

/** Rewrites the file's lines as if process `pid` had written them (the registry ignores this process's own lines: its map has them). */
function writtenBy(file: string, pid: number): void {
  const lines = readFileSync(file, "utf8").trim().split("\n");
  writeFileSync(file, lines.map((line) => JSON.stringify({ ...(JSON.parse(line) as object), pid })).join("\n") + "\n");
}

let file: string;
beforeEach(() => {
  // A port no other test uses: the file is named after the engine's address.
  useEngineAddress(`127.0.0.1:${40_000 + (process.pid % 20_000)}`);
  file = runFile()!;
  rmSync(file, { force: true });
  forgetProcessMemory();
});
afterEach(() => rmSync(file, { force: true }));

describe("the run's file of settled claims", () => {
  it("is named after the engine's address in the temporary directory, without characters Windows refuses, with mode 0600", () => {
    expect(file).not.toMatch(/127\.0\.0\.1|:\d+/);
    declare(web, [branch]);
    settle(web, "created", { primaryBranch: null });
    if (process.platform !== "win32") expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("makes a claim settled in another live process a holder, named with its type; this process's own lines are not read twice", () => {
    declare(web, [branch]);
    settle(web, "created", { primaryBranch: null });
    forgetProcessMemory(); // this process forgets: what it knows now comes only from the file
    expect(holderOf(branch)).toBeUndefined(); // its own lines
    writtenBy(file, process.ppid); // another process of the run, alive
    expect(holderOf(branch)).toEqual({
      owner: web,
      shared: false,
      secret: false,
      settled: "created",
      type: "semgrep:index:ProjectSettings",
      value: "refs/heads/release",
      recorded: null,
    });
  });

  it("ignores the lines of a process that has exited (an earlier run on the same port)", () => {
    declare(web, [branch]);
    settle(web, "created", { primaryBranch: "refs/heads/main" });
    forgetProcessMemory();
    writtenBy(file, deadPid());
    expect(holderOf(branch)).toBeUndefined();
  });

  it("removes another run's file once none of its writers is alive, and keeps one with a live writer", () => {
    const stale = runFile("127.0.0.1:1")!;
    const live = runFile("127.0.0.1:2")!;
    writeFileSync(stale, JSON.stringify({ pid: deadPid(), key: "k" }) + "\n");
    writeFileSync(live, JSON.stringify({ pid: process.ppid, key: "k" }) + "\n");
    const old = new Date(Date.now() - 120_000);
    utimesSync(stale, old, old);
    utimesSync(live, old, old);
    declare(web, [branch]);
    settle(web, "created");
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
    rmSync(live);
  });

  it("never writes a secret of the program: keys are hashed, a secret value is left out and a secret original is `[secret]`", () => {
    const tags: Owner = { kind: "ProjectTags", name: "payments-tags" };
    const rule: Owner = { kind: "PolicyRuleMode", name: "open" };
    declare(tags, [secretTag]);
    declare(rule, [secretMode]);
    settle(tags, "created", { [secretTag.field]: "absent" });
    settle(rule, "updated", { mode: "MODE_OLD_S3CRET" });
    const text = readFileSync(file, "utf8");
    expect(text).not.toMatch(/s3cret/i);
    expect(text).not.toContain("acme/payments-api");
    forgetProcessMemory();
    writtenBy(file, process.ppid);
    expect(holderOf(secretMode)).toMatchObject({ owner: rule, secret: true, settled: "updated", recorded: "[secret]" });
    expect(holderOf(secretMode)).not.toHaveProperty("value");
    expect(holderOf(secretTag)).toMatchObject({ owner: tags, shared: true, secret: true, settled: "created" });
  });
});
