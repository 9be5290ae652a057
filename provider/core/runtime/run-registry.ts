/**
 * The holders of claims across the provider processes of one engine run. A stack moving from the
 * dynamic classes (`pulumi-nodejs:dynamic/semgrep:<Kind>`) to the generated SDK's
 * (`semgrep:index:<Kind>`, the native plugin) without an alias has its new resources created by
 * one process and its old ones deleted by another; the delete must leave to the new resource what
 * it holds (ownership.ts holderOf), as it does within one process.
 *
 * When a resource settles its claims, its process appends one line per claim to a file shared by
 * the processes the same engine started: named after the engine's address (engine-watch.ts, which
 * both front ends are given), in the system's temporary directory, created with mode 0600. The
 * deletes of removed resources run after every create and update of the run (the engine's order
 * of steps), so the lines they need are written by then. A line holds only what a delete's
 * warning and its choice need, never a secret of the program: the claim's key hashed, the
 * holder's kind, name and parent, how it settled, its type, whether it is shared, and the value
 * and recorded original only when the claim is not secret (a secret one records whether it
 * recorded an original, as `[secret]`).
 *
 * Each line carries the pid of the process that wrote it. An earlier run on the same port left
 * lines of processes that have exited: those are ignored, and a file of whose writers none is
 * alive is removed when a process of another run first writes. Lines are appended whole in one
 * write (no process rewrites the file), so writers of one run do not overwrite each other.
 */
import { createHash } from "node:crypto";
import { appendFileSync, readdirSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { engineAddress, resourceType } from "./engine-watch";
import { onForget } from "./process-memory";
import type { Holder, Owner, Settlement } from "./ownership";

const PREFIX = "pulumi-semgrep-run-";
const SUFFIX = ".jsonl";

/** One line of the file: a claim a resource of another process holds. */
interface Line {
  pid: number;
  key: string;
  owner: Owner;
  type: string;
  shared: boolean;
  secret: boolean;
  settled: Settlement;
  value?: unknown;
  recorded?: unknown;
}

const hashed = (text: string) => createHash("sha256").update(text).digest("hex");

/** The run's file, or undefined when the process was not started by an engine (a unit test of one process). */
export function runFile(address = engineAddress()): string | undefined {
  return address ? join(tmpdir(), `${PREFIX}${hashed(address).slice(0, 24)}${SUFFIX}`) : undefined;
}

/** Whether process `pid` is alive (`kill 0` tests without signalling; EPERM: alive, another user's). */
function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The lines of `file` written by processes still alive, other than this one; none when it is absent or unreadable. */
function linesOf(file: string, live = true): Line[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const lines: Line[] = [];
  for (const row of text.split("\n")) {
    try {
      const line = JSON.parse(row) as Line;
      if (typeof line.pid === "number" && typeof line.key === "string") lines.push(line);
    } catch {
      // an empty or partial line (a writer killed mid-write): nothing to read
    }
  }
  if (!live) return lines;
  const living = new Map<number, boolean>();
  const isAlive = (pid: number) => living.get(pid) ?? living.set(pid, alive(pid)).get(pid)!;
  return lines.filter((line) => line.pid !== process.pid && isAlive(line.pid));
}

let swept = false;

/**
 * Removes the files of earlier runs whose writers have all exited (an engine killed before its
 * processes could clean up leaves one), once per process. The run's own file is left: its dead
 * lines are ignored, and a writer of this run may be appending to it.
 */
function sweep(own: string): void {
  if (swept) return;
  swept = true;
  let names: string[];
  try {
    names = readdirSync(tmpdir()).filter((name) => name.startsWith(PREFIX) && name.endsWith(SUFFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const file = join(tmpdir(), name);
    if (file === own) continue;
    try {
      // A minute's grace: a process of a new run on that port may just have written its first line.
      if (Date.now() - statSync(file).mtimeMs < 60_000) continue;
      if (linesOf(file, false).some((line) => alive(line.pid))) continue;
      unlinkSync(file);
    } catch {
      // gone already, or not ours to remove
    }
  }
}

/** What a settled claim records in the run's file (see the module's comment for what it holds). */
export interface Settled {
  /** The claim's in-process key (object and field). */
  key: string;
  owner: Owner;
  holder: Holder;
}

/** Appends, for the claims a resource of this process settled, one line each to the run's file. */
export function recordSettled(claims: readonly Settled[]): void {
  const file = runFile();
  if (!file || !claims.length) return;
  sweep(file);
  const rows = claims.map(({ key, owner, holder }) => {
    const line: Line = {
      pid: process.pid,
      key: hashed(key),
      owner: { kind: owner.kind, name: owner.name, ...(owner.parent ? { parent: owner.parent } : {}) },
      type: resourceType(owner.kind),
      shared: holder.shared,
      secret: holder.secret,
      settled: holder.settled!,
    };
    if (!holder.secret && holder.value !== undefined) line.value = holder.value;
    if (holder.recorded !== undefined) line.recorded = holder.recorded === null ? null : holder.secret ? "[secret]" : holder.recorded;
    return JSON.stringify(line) + "\n";
  });
  try {
    appendFileSync(file, rows.join(""), { mode: 0o600 });
  } catch {
    // No temporary directory to write: deletes in other processes then act as they would alone.
  }
}

/** The run's file as last read: its size and mtime, and its live lines by hashed key (a delete of many rules asks once per rule). */
let cache: { file: string; size: number; mtimeMs: number; byKey: Map<string, Line[]> } | undefined;
onForget(() => {
  cache = undefined;
  swept = false;
});

/** The live lines of the run's file by hashed key, read again only when the file changed. */
function linesByKey(file: string): Map<string, Line[]> {
  let size: number;
  let mtimeMs: number;
  try {
    ({ size, mtimeMs } = statSync(file));
  } catch {
    return new Map();
  }
  if (cache?.file === file && cache.size === size && cache.mtimeMs === mtimeMs) return cache.byKey;
  const byKey = new Map<string, Line[]>();
  for (const line of linesOf(file)) byKey.set(line.key, [...(byKey.get(line.key) ?? []), line]);
  cache = { file, size, mtimeMs, byKey };
  return byKey;
}

/**
 * The resources served by other provider processes of this run that hold the claim of `key` (its
 * in-process key), the latest line of each resource, as holders whose `type` names them.
 */
export function holdersElsewhere(key: string): Holder[] {
  const file = runFile();
  if (!file) return [];
  const latest = new Map<string, Line>();
  for (const line of linesByKey(file).get(hashed(key)) ?? [])
    latest.set(`${line.pid}\u0000${line.type}\u0000${line.owner.name}\u0000${line.owner.parent ?? ""}`, line);
  return [...latest.values()].map((line) => ({
    owner: line.owner,
    shared: line.shared,
    secret: line.secret,
    settled: line.settled,
    type: line.type,
    ...("value" in line ? { value: line.value } : {}),
    ...("recorded" in line ? { recorded: line.recorded } : {}),
  }));
}
