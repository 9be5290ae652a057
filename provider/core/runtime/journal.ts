/**
 * A local journal of originals: before each write, the value it replaces, on this machine, so
 * that after a SIGKILL (nothing reaches the stack's state then) the recovery `up` on the same
 * machine records what a killed run found, and `destroy` puts it back. Each resource has one
 * file of JSON lines (`{"o": object, "v": original, "p": run}`, run: the writing process), removed when the resource is
 * deleted or no original is left in it.
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
 *
 * A create or update that ends whole, with the engine still there to record its answer, drops
 * the file: its state holds every original, and lines kept longer would outlive that state (a
 * destroy run on another machine, values set by hand since) and give a later create of the same
 * resource a wrong original. One cut short (a cancel, a signal, the engine gone), or failed, keeps
 * its lines; an unfailed one marks them with a digest of the outputs it returned
 * (`{"d": digest}`), and the next call given a state with those very outputs drops the lines up
 * to that mark (settleJournal): the engine recorded the answer after all. (A CLI killed between
 * the provider's answer and the engine's checkpoint, a window of the checkpoint's write, leaves
 * neither: the recovery finds the values as declared, and destroy names them.) With checkpoints
 * skipped (`PULUMI_SKIP_CHECKPOINTS`), the engine records nothing until the run ends, so every
 * create or update keeps its lines, marked, for the next run to settle.
 * The directory is checked, and its file names listed, once per process, so that a resource with
 * no journal (nearly all of them, nearly always) costs no file-system call.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash, randomBytes } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";
import { canonicalJson } from "./canonical";
import { engineReachable } from "./engine-watch";
import { interruption } from "./interrupts";
import { notifyOnce } from "./notices";
import { onForget } from "./process-memory";

/**
 * This process's mark on the lines it writes (`p`), which it never reads as a killed run's: its
 * pid and a random part, since a recovery's provider may get the killed one's pid again (a
 * container starts its processes in the same order).
 */
const RUN = `${process.pid}-${randomBytes(4).toString("hex")}`;

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

/** The journal directory this process checked (once), and the names of the files in it. */
let checked: { dir: string | undefined; files: Set<string> } | undefined;
onForget(() => (checked = undefined));

/** The journal directory, checked once per process, and the names of its files, listed then and kept up to date by this process. */
function journals(): { dir: string | undefined; files: Set<string> } {
  if (checked) return checked;
  const dir = journalDir();
  let files: string[] = [];
  try {
    files = dir ? readdirSync(dir) : [];
  } catch {
    // unreadable: as if empty (the journal's writes will say why, once)
  }
  return (checked = { dir, files: new Set(files) });
}

/** The path of the journal of `key` when the directory is trusted; `existing`: only when the file is there. */
function journalPath(key: string, existing: boolean): string | undefined {
  const { dir, files } = journals();
  if (!dir || (existing && !files.size)) return undefined;
  const name = fileName(key);
  return existing && !files.has(name) ? undefined : join(dir, name);
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

const fileName = (key: string) => `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.jsonl`;
const basename = (path: string) => path.slice(path.lastIndexOf("/") + 1);

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
  const existing = journalPath(key, true);
  const journaled = existing ? readJournal(existing) : new Map();
  let failed = false;
  return {
    journaled,
    before(object, original) {
      if (failed) return;
      failed = !append(key, { o: object, ...(original === undefined ? { secret: true as const } : { v: original }), p: RUN });
    },
  };
}

/** A line of a journal: the original of an object a write replaced (or that it was secret), by the writing process. */
interface Entry {
  o: string;
  v?: string;
  secret?: true;
  p?: number | string;
}

/** The mark a create or update appends as it ends: the digest of the outputs it returned. */
interface Mark {
  d: string;
  p?: number | string;
}

type Line = Entry | Mark;

const isEntry = (line: Line): line is Entry => "o" in line;

/**
 * Appends `line` to the journal of `key`, opened for this line alone (no descriptor outlives the
 * call) and written with one write(2): a process killed right after it still leaves the line on
 * disk. False when there is no journal to write to (said once).
 */
function append(key: string, line: Line): boolean {
  const path = journalPath(key, false);
  if (!path) return false;
  const fd = openTrusted(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);
  if (fd === undefined) return false;
  journals().files.add(basename(path));
  try {
    writeSync(fd, `${JSON.stringify(line)}\n`);
    return true;
  } catch (error) {
    // A full disk: the writes go on as they would without a journal, said once.
    void distrust(path, `cannot be written (${String(error)})`);
    return false;
  } finally {
    closeSync(fd);
  }
}

/** Every whole line of the journal at `path` (a line cut short by a kill is skipped). */
function readLines(path: string): Line[] {
  const fd = openTrusted(path, constants.O_RDONLY);
  if (fd === undefined) return [];
  try {
    return readFileSync(fd, "utf8")
      .split("\n")
      .flatMap((text): Line[] => {
        try {
          const line = JSON.parse(text) as Partial<Entry & Mark>;
          if (typeof line.d === "string") return [line as Mark];
          return typeof line.o === "string" && (typeof line.v === "string" || line.secret === true) ? [line as Entry] : [];
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
    if (!isEntry(line) || journaled.has(line.o) || line.p === RUN) continue;
    journaled.set(line.o, line.v === undefined ? { secret: true } : { original: line.v });
  }
  return journaled;
}

/** Drops the lines of objects the state given to the provider records (`recorded`), or the whole journal with `recorded` undefined (the resource is deleted). */
export function dropRecorded(key: string, recorded?: (object: string) => boolean): void {
  keeping(key, (lines) => (recorded ? lines.filter((line) => !isEntry(line) || !recorded(line.o)) : []));
}

/**
 * Drops the lines a state given to the provider (`state`, a resource's outputs as a create or
 * update of it returned them) has made needless: those written up to the call that returned
 * exactly these outputs, whose originals the state now records. Called with every state the
 * engine hands over (diff, read, update); costs nothing for a resource with no journal.
 */
export function settleJournal(key: string, state: Readonly<Record<string, unknown>>): void {
  keeping(key, (lines) => {
    const digest = digestOf(state);
    const at = lines.findLastIndex((line) => !isEntry(line) && line.d === digest);
    return at < 0 ? lines : lines.slice(at + 1);
  });
}

/** Rewrites the journal of `key` (when it has one) with the lines `keep` keeps of it; removed when no original is left in it. */
function keeping(key: string, keep: (lines: Line[]) => Line[]): void {
  const path = journalPath(key, true);
  if (!path) return;
  try {
    const lines = readLines(path);
    const kept = keep(lines);
    if (kept.length === lines.length) return;
    if (!kept.some(isEntry)) {
      rmSync(path, { force: true });
      journals().files.delete(basename(path));
      return;
    }
    const next = `${path}.${process.pid}`;
    const fd = openSync(next, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      writeSync(fd, kept.map((line) => `${JSON.stringify(line)}\n`).join(""));
    } finally {
      closeSync(fd);
    }
    renameSync(next, path);
  } catch (error) {
    // Housekeeping: a line left behind costs nothing but a note at a later recovery.
    void notifyOnce(`journal:drop`, "warning", `pulumi-semgrep could not update its journal of originals: ${String(error)}`);
  }
}

/** A digest of a resource's outputs, the same for the outputs a call returned and the state the engine recorded of them (keys in any order, undefined left out). */
function digestOf(outputs: Readonly<Record<string, unknown>>): string {
  return createHash("sha256").update(canonicalJson(outputs)).digest("hex").slice(0, 32);
}

/**
 * The journal of the resource whose create or update is under way (the dispatcher runs each in
 * {@link journaling}): a value's original goes to it before the write that replaces it, and a
 * value a later create or update finds as declared takes its original from it when a killed run
 * of the same resource wrote it. One file per resource (its kind, name, parent and identity
 * inputs); a kind names its objects (a field, a rule, a digest of a tag), the original as JSON
 * for the fields the runtime applies (fields.ts planApply). A secret's original is not written.
 */
interface CallJournal {
  key: string;
  /** The top-level inputs given as secrets: a field under one of them journals no value. */
  secret: readonly string[];
  /** What killed runs of this resource wrote, read once per call. */
  journaled?: Journaled;
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
 * Runs a create or update of the resource `key` names with its journal at hand ({@link callJournal},
 * planApply's {@link journalBefore} and {@link journaledOriginal}); then, when the resource has a
 * journal, marks the outputs the call returned (`outputsOf`), whose state makes the lines so far
 * needless (settleJournal), and says which originals came from it.
 */
export async function journaling<T>(
  key: string,
  secret: readonly string[],
  work: () => Promise<T>,
  outputsOf: (result: T) => Readonly<Record<string, unknown>> | undefined,
  say: (restored: ReadonlyMap<string, unknown>, lostSecret: readonly string[]) => Promise<void>,
): Promise<T> {
  const call: CallJournal = { key, secret, restored: new Map(), lostSecret: [] };
  // A call that failed makes no mark, even with a partial state: a write that failed (its retries
  // spent) may have landed, and that state does not record its original; the line stays for the
  // next call, until a later call's own outputs reach a state.
  const result = await calls.run(call, work);
  // Nothing journaled, by this call or a killed one: nothing to drop or mark, and no probe of the engine.
  if (journalPath(key, true)) {
    // Ended whole with the engine there to record its answer: the state holds every original, and
    // lines kept longer would outlive that state (a destroy on another machine, values set by hand
    // since) to give a later create of the same resource a wrong original. Ended after a cancel, a
    // signal or the engine's end, its answer may reach no state: the lines stay, marked.
    // With checkpoints skipped, the engine records the answer only when the whole run ends: a
    // run killed before that records none, so the lines stay, marked, as after a cut.
    const outputs = outputsOf(result);
    if (!interruption() && !checkpointsSkipped() && (await engineReachable())) dropRecorded(key);
    else if (outputs) append(key, { d: digestOf(outputs), p: RUN });
  }
  if (call.restored.size || call.lostSecret.length) await say(call.restored, call.lostSecret);
  return result;
}

/**
 * Whether the engine writes the state only at the end of the run (`PULUMI_SKIP_CHECKPOINTS`, which
 * the engine's plugins inherit with the rest of the CLI's environment): a value the CLI reads as true.
 */
const checkpointsSkipped = () => ["true", "1"].includes((process.env.PULUMI_SKIP_CHECKPOINTS ?? "").toLowerCase());

/** The journal of the resource whose create or update is under way, for a kind that journals objects of its own (a rule of a policy); undefined outside one. */
export function callJournal(): ReturnType<typeof openJournal> | undefined {
  const call = calls.getStore();
  return call && openJournal(call.key);
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
    journal.before(field, (secret ?? isSecretField(call, field)) ? undefined : JSON.stringify(original));
  }
}

/**
 * The write `field`'s lines were written for was refused (the service answered it with an error,
 * so it did not land): they go, so that no later create of this resource takes them for what a
 * killed run wrote.
 */
export function journalWithdraw(field: string): void {
  const call = calls.getStore();
  if (call) dropRecorded(call.key, (object) => object === field);
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
