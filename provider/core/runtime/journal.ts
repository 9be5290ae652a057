/**
 * A local journal of originals: before each write, the value it replaces, on this machine, so
 * that after a SIGKILL (nothing reaches the stack's state then) the recovery `up` on the same
 * machine records what a killed run found, and `destroy` puts it back. Each resource has one
 * file of JSON lines (`{"o": object, "v": original, "p": pid}`); a line is dropped once a state
 * given to the provider records that original (dropRecorded), the file once a create or update
 * ends with every write done (its outputs record them all) or the resource is deleted.
 *
 * Where: `$XDG_STATE_HOME/pulumi-semgrep`, else `~/.local/state/pulumi-semgrep`, a directory
 * private to its user (0700). It is made with mkdir (which, like O_EXCL, fails on anything
 * already there, and follows no symlink at its last component), then checked with lstat: a
 * directory of this user with no group or other access. Files are opened with O_NOFOLLOW and
 * checked the same way (fstat). Anything else (a symlink, another owner, a wider mode) is
 * ignored with a one-line warning, and the run goes on without a journal.
 *
 * A secret's text is never written: for a secret value only the fact that a write happened is
 * kept (`{"o": object, "secret": true}`), so a recovery knows it cannot restore that one.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";
import { engineReachable } from "./engine-watch";
import { interruption } from "./interrupts";
import { notifyOnce } from "./notices";

/** What a killed run wrote, as its journal says: the original of each object, or `secret` where it kept none. */
export type Journaled = ReadonlyMap<string, { original: string } | { secret: true }>;

/** The directory of the journals, made private if absent; undefined when there is none to trust. */
export function journalDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  let base: string;
  try {
    base = env.XDG_STATE_HOME || join(homedir(), ".local", "state");
  } catch {
    return undefined; // no home directory: no journal
  }
  const dir = join(base, "pulumi-semgrep");
  try {
    mkdirSync(base, { recursive: true, mode: 0o700 });
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return distrust(dir, `cannot be made (${String(error)})`);
  }
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) return distrust(dir, "is not a directory");
  return trusted(dir, stat) ? dir : distrust(dir, "is not this user's alone (owner or mode 0700)");
}

/** Owned by this user, with no access for group or others. */
const trusted = (path: string, stat: { uid: number; mode: number }) => stat.uid === process.getuid?.() && (stat.mode & 0o077) === 0;

function distrust(path: string, why: string): undefined {
  void notifyOnce(
    `journal:${path}`,
    "warning",
    `pulumi-semgrep keeps no journal of originals in ${path}: it ${why}; a run killed with SIGKILL cannot then be restored exactly on this machine.`,
  );
  return undefined;
}

const fileOf = (dir: string, key: string) => join(dir, `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.jsonl`);

/** Opens `path` without following a symlink and checks it is this user's alone; the descriptor, or undefined (warned). */
function openTrusted(path: string, flags: number): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, flags | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? undefined : distrust(path, `cannot be opened (${String(code)})`);
  }
  if (trusted(path, fstatSync(fd))) return fd;
  closeSync(fd);
  return distrust(path, "is not this user's alone (owner or mode 0600)");
}

/** The journal of the resource `key` names (its kind, name and object): what killed runs wrote, and a way to add to it. */
export function openJournal(key: string): { journaled: Journaled; before(object: string, original: string | undefined): void } {
  const dir = journalDir();
  const path = dir && fileOf(dir, key);
  const journaled = path ? readJournal(path) : new Map();
  let failed = false;
  return {
    journaled,
    before(object, original) {
      if (!path || failed) return;
      // Opened for each line (no descriptor outlives the call), one write(2) per line: a process
      // killed right after it still leaves the line on disk.
      const fd = openTrusted(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);
      if (fd === undefined) return void (failed = true);
      try {
        const line: Line = { o: object, ...(original === undefined ? { secret: true as const } : { v: original }), p: process.pid };
        writeSync(fd, `${JSON.stringify(line)}\n`);
      } catch (error) {
        // A full disk: the writes go on as they would without a journal, said once.
        failed = true;
        void distrust(path, `cannot be written (${String(error)})`);
      } finally {
        closeSync(fd);
      }
    },
  };
}

/** One line of a journal: the object written, its original (or that it was secret), the writing process. */
interface Line {
  o: string;
  v?: string;
  secret?: true;
  p?: number;
}

/** Every whole line of the journal at `path` (a line cut short by a kill is skipped). */
function readLines(path: string): Line[] {
  const fd = openTrusted(path, constants.O_RDONLY);
  if (fd === undefined) return [];
  try {
    return readFileSync(fd, "utf8")
      .split("\n")
      .flatMap((text) => {
        try {
          const line = JSON.parse(text) as Partial<Line>;
          return typeof line.o === "string" && (typeof line.v === "string" || line.secret === true) ? [line as Line] : [];
        } catch {
          return [];
        }
      });
  } finally {
    closeSync(fd);
  }
}

/** What killed runs wrote, by object: the first line of each (the first write found the original); this process's own lines are no killed run's. */
function readJournal(path: string): Map<string, { original: string } | { secret: true }> {
  const journaled = new Map<string, { original: string } | { secret: true }>();
  for (const line of readLines(path)) {
    if (journaled.has(line.o) || line.p === process.pid) continue;
    journaled.set(line.o, line.v === undefined ? { secret: true } : { original: line.v });
  }
  return journaled;
}

/** Drops the lines of objects the state given to the provider records (`recorded`), or the whole journal with `recorded` undefined (the resource is deleted). */
export function dropRecorded(key: string, recorded?: (object: string) => boolean): void {
  try {
    dropLines(key, recorded);
  } catch (error) {
    // Housekeeping: a line left behind costs nothing but a note at a later recovery.
    void notifyOnce(`journal:drop`, "warning", `pulumi-semgrep could not update its journal of originals: ${String(error)}`);
  }
}

function dropLines(key: string, recorded?: (object: string) => boolean): void {
  const dir = journalDir();
  if (!dir) return;
  const path = fileOf(dir, key);
  if (!recorded) return rmSync(path, { force: true });
  const lines = readLines(path);
  const kept = lines.filter((line) => !recorded(line.o));
  if (kept.length === lines.length) return;
  if (!kept.length) return rmSync(path, { force: true });
  const next = `${path}.${process.pid}`;
  const fd = openSync(next, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, kept.map((line) => `${JSON.stringify(line)}\n`).join(""));
  } finally {
    closeSync(fd);
  }
  renameSync(next, path);
}

/**
 * The journal of the resource whose create or update is under way (the dispatcher runs each in
 * {@link journaling}), for the kinds whose fields the runtime applies (fields.ts planApply): a
 * field's original goes to it before the write that replaces it, and a field a later create or
 * update finds as declared takes its original from it when a killed run of the same resource
 * wrote it. One file per resource (its kind, name, parent and identity inputs), one object per
 * field, the original as JSON; a secret field's original is not written (`secret` only).
 */
interface CallJournal {
  key: string;
  /** The top-level inputs given as secrets: a field under one of them journals no value. */
  secret: readonly string[];
  /** What killed runs of this resource wrote, read once per call. */
  journaled?: Journaled;
  /** Whether the call journaled an original (it was about to write). */
  wrote?: boolean;
  /** The fields whose originals came from the journal (said once the call ends), and those it could not restore (secret). */
  restored: Map<string, unknown>;
  lostSecret: string[];
}

const calls = new AsyncLocalStorage<CallJournal>();

/** The journal's key of a resource: its kind, name, parent and the inputs that identify its object. */
export function resourceJournalKey(kind: string, name: string, parent: string | undefined, identity: Record<string, unknown>): string {
  return JSON.stringify([kind, name, parent ?? null, Object.entries(identity).sort(([a], [b]) => a.localeCompare(b))]);
}

/**
 * Runs a create or update of the resource `key` names with its journal at hand (planApply's
 * {@link journalBefore} and {@link journaledOriginal}); then drops the journal when the call
 * succeeded uninterrupted (its outputs record every original) and says which originals came from it.
 */
export async function journaling<T>(
  key: string,
  secret: readonly string[],
  work: () => Promise<T>,
  say: (restored: ReadonlyMap<string, unknown>, lostSecret: readonly string[]) => Promise<void>,
): Promise<T> {
  const call: CallJournal = { key, secret, restored: new Map(), lostSecret: [] };
  const result = await calls.run(call, work);
  // Ended after a cancel, a signal or the engine's end, its answer may reach no state (a create the
  // engine no longer waits for): the journal stays until a later call of the resource ends whole.
  if (!interruption() && (!call.wrote || (await engineReachable()))) dropRecorded(key);
  if (call.restored.size || call.lostSecret.length) await say(call.restored, call.lostSecret);
  return result;
}

const isSecretField = (call: CallJournal, field: string) => call.secret.includes(field.split(".")[0]!);

/**
 * Journals, before the write that replaces them, the originals a create or update is about to
 * record, by field (or by object: a field's name holds no secret text, an object's name must not).
 * A field under a secret input keeps no value; `secret` says so for all of them at once.
 */
export function journalBefore(originals: Readonly<Record<string, unknown>>, secret?: boolean): void {
  const call = calls.getStore();
  if (!call || Object.values(originals).every((original) => original === undefined)) return;
  const journal = openJournal(call.key);
  for (const [field, original] of Object.entries(originals)) {
    if (original === undefined) continue;
    call.wrote = true;
    journal.before(field, (secret ?? isSecretField(call, field)) ? undefined : JSON.stringify(original));
  }
}

/**
 * The original of `field` a killed run of this resource journaled before it wrote the value now
 * found (`undefined` when none); recorded as restored, or as lost when it was a secret's.
 */
export function journaledOriginal(field: string, shown = field): { original: unknown } | undefined {
  const call = calls.getStore();
  if (!call) return undefined;
  call.journaled ??= openJournal(call.key).journaled;
  const entry = call.journaled.get(field);
  if (!entry) return undefined;
  if (!("original" in entry)) {
    call.lostSecret.push(shown);
    return undefined;
  }
  const original: unknown = JSON.parse(entry.original);
  call.restored.set(shown, original);
  return { original };
}
