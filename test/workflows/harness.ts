/**
 * Runs a workflow's steps through the real Pulumi CLI against the emulator and checks the five
 * promises (docs/concepts/promises.md) after each (promise 5, the policy pack, has its own
 * generator; "previews write nothing" is checked here in its place):
 *   1. after `up`, every declared value is live and the state's outputs say so; a following
 *      `preview --expect-no-changes` passes and writes nothing; a preview after projects changed
 *      out of band names each project a ProjectSettingsSet's selector newly matches (its values
 *      are the service's, predicted by model.ts, never the set's outputs);
 *   2. after `destroy`, the service equals the snapshot taken before the stack's first `up`,
 *      except values a message of the stack's runs names (a warning of the destroy, or the
 *      warning or note of an earlier run that said destroy would leave it); for a rule, the
 *      message must give the mode it had before (a wrong original handed over excuses nothing).
 *      A value an `up` cut short had changed is excused by nothing after a CI runner's cancel
 *      (SIGINT, SIGTERM: the provider has seconds to record what it wrote), and after a SIGKILL
 *      only by a warning of the destroy itself naming it;
 *   3. a program where two resources declare one value fails before any write to that value
 *      (its preview fails with no write at all when every side is known at preview; without a
 *      preview, the side checked first may set its own value, never the other's);
 *   4. no secret input's text appears in any output of any command, nor in `pulumi stack export`;
 *   5. `pulumi preview` and `pulumi refresh` write nothing.
 * A broken promise throws a {@link Broken} naming it, with the run's output.
 */
import { withoutSystemTags } from "../../provider/client";
import { PRESET_TEAMS, SETTINGS } from "./access-model";
import type { RunningEmulator } from "../../provider/emulator";
import { type CancelDelays, type Cut, cutRun, cutSaid, isWrite } from "./interrupts";
import { conflicts, declarations, type Program, secretTexts } from "./model";
import { keptBySets } from "./set-model";
import type { Stack } from "./stacks";
import { liveValues, namesOfValue, type WorldProject, worldProjects, type WorldRule } from "./world";

/** A promise the run broke. */
export class Broken extends Error {
  constructor(
    readonly promise: 1 | 2 | 3 | 4 | 5 | 0,
    message: string,
  ) {
    super(`promise ${promise || "(run failed)"}: ${message}`);
  }
}

interface Run {
  status: number | null;
  out: string;
  writes: string[];
}

const clip = (text: string, max = 6000) => (text.length > max ? `${text.slice(0, max / 2)}\n…\n${text.slice(-max / 2)}` : text);

/** The messages of a run's `Diagnostics:` sections, each on one line. */
export function diagnostics(out: string): string[] {
  const sections = [
    ...out.matchAll(/Diagnostics:\n([\s\S]*?)(?=\n(?:Resources|Outputs|Duration|Policies|Previewing|Updating|Destroying|Refreshing)\b|$)/g),
  ];
  return sections.flatMap((m) =>
    m[1]!
      .split(/\n(?= {2}\S)|(?=warning: )|(?=error: )/)
      .map((s) => s.replace(/\s+/g, " ").trim())
      .filter(Boolean),
  );
}

/** The words a message uses for a field of a project or bundle. */
const FIELD_WORDS: Record<string, RegExp> = {
  primaryBranch: /primary ?branch/i,
  tags: /tag/i,
  diffScan: /diff ?scan|managed ?scan/i,
  fullScan: /full ?scan|managed ?scan/i,
  rulesets: /rulesets/i,
  rules: /rules/i,
  disabled: /disabled/i,
  exceptions: /exception/i,
};

/** Whether a message names the value of `key` (its object, and its field where the object has several). */
export function names(message: string, key: string, before?: string): boolean {
  if (!namesOfValue(key).every((n) => message.includes(n))) return false;
  // A rule's message must give the mode to put back (or hide it, for secret modes): one naming only
  // the value the stack set (a wrong original handed over) does not excuse it.
  if (key.startsWith("rule:") && before !== undefined && !message.includes(before) && !message.includes("[secret]")) return false;
  const field = key.startsWith("project:") || key.startsWith("detection:") ? key.split(":").at(-1)! : undefined;
  return field === undefined || FIELD_WORDS[field]!.test(message);
}

/** An `up` cut short: the values it changed, and whether it ended killed (SIGKILL, nothing recorded) or stopped on a signal it could handle. */
interface CutUp {
  killed: boolean;
  changed: string[];
  /**
   * Where, in the workflow's messages, those of later steps begin (set once the `up` after the
   * recovery passed). A cancelled cut must record its originals, so nothing the cut, its recovery
   * or that `up` says excuses a value it leaves; a later step may still lose an original as any
   * step may (a rename without an alias, which warns naming each value with its original).
   */
  laterMessages?: number;
}

/** One workflow on one stack: the CLI, the emulator and what the promises need to remember. */
export class Workflow {
  /** The service before the stack's first `up` (since its creation or its last `destroy`). */
  snapshot: Map<string, string> | undefined;
  /** Messages of every run since the snapshot. */
  messages: string[] = [];
  /** The `up`s cut short since the snapshot. */
  cuts: CutUp[] = [];
  /** Every secret text any program of the workflow gave. */
  secrets = new Set<string>();
  /** Texts any program gave in clear (not secrets, whatever another program did). */
  readonly clear = new Set<string>();
  program: Program = [];

  constructor(
    readonly stack: Stack,
    readonly emulator: RunningEmulator,
    readonly rules: readonly WorldRule[],
    readonly delays: CancelDelays,
  ) {}

  /** The deployment's projects now, as a set's selector sees them. */
  projects(): WorldProject[] {
    return worldProjects(this.emulator.state());
  }

  /**
   * A change made on the service outside the stack (live values `before` → now): what destroy must
   * put back moves with it where no resource of the stack would undo it: a project created
   * (all its values), a value no resource declares, a tag of a set no resource declares whole.
   */
  changedOutOfBand(before: Map<string, string>): void {
    if (!this.snapshot) return;
    const after = liveValues(this.emulator.state());
    const declared = declarations(this.program, this.rules, this.projects()).expectations;
    const whole = new Set(declared.filter((e) => !e.declared.startsWith("⊇")).map((e) => e.key));
    for (const [key, value] of after) {
      const was = before.get(key);
      if (was === value) continue;
      if (was === undefined || !this.snapshot.has(key)) this.snapshot.set(key, value);
      else if (key.endsWith(":tags") && !whole.has(key)) {
        const [from, to] = [JSON.parse(was) as string[], JSON.parse(value) as string[]];
        const kept = (JSON.parse(this.snapshot.get(key)!) as string[]).filter((t) => to.includes(t) || !from.includes(t));
        this.snapshot.set(key, JSON.stringify([...new Set([...kept, ...to.filter((t) => !from.includes(t))])].sort()));
      } else if (!declared.some((e) => e.key === key)) this.snapshot.set(key, value);
    }
  }

  /** What sets with `restoreOnDelete: false` let go of between `from` and `to` stays as it was (`live`): destroy leaves it. */
  private keep(from: Program, to: Program, live: Map<string, string>, projects: readonly WorldProject[]): void {
    if (!this.snapshot) return;
    for (const [key, value] of keptBySets(from, to, live, projects, this.snapshot)) this.snapshot.set(key, value);
  }

  /** Runs `pulumi args`, with the request log cleared first; checks promise 4 on its output. */
  async run(args: string[]): Promise<Run> {
    this.emulator.requests().length = 0;
    return this.record(args, await this.stack.run(args, { allowFailure: true }));
  }

  /** What a run printed and wrote; its messages remembered, promise 4 checked on its output. */
  private record(args: string[], result: { status: number | null; stdout: string; stderr: string }): Run {
    const out = `$ pulumi ${args.join(" ")}\n${result.stdout}\n${result.stderr}`;
    const writes = this.emulator
      .requests()
      .filter(isWrite)
      .map((r) => `${r.method} ${r.path} ${r.status}`);
    this.messages.push(...diagnostics(result.stdout + "\n" + result.stderr));
    this.checkSecrets(out, `the output of pulumi ${args.join(" ")}`);
    return { status: result.status, out, writes };
  }

  /**
   * `pulumi args` cut as `cut` says, then the README's recovery: `pulumi cancel` (a file backend
   * has no lock for it to release: its error is ignored) and `pulumi refresh
   * --clear-pending-creates`, which must pass. Remembers the values the cut run changed for
   * promise 2. Returns what happened, in words.
   */
  private async cutUp(args: string[], cut: Cut): Promise<string> {
    const before = liveValues(this.emulator.state());
    this.emulator.requests().length = 0;
    const run = await cutRun(this.stack, this.emulator, args, cut, this.delays);
    this.record(args, run);
    const after = liveValues(this.emulator.state());
    if (run.signals.length) {
      const changed = [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k));
      this.cuts.push({ killed: run.signals.includes("SIGKILL"), changed });
    }
    await this.run(["cancel", "--yes"]);
    const refresh = await this.run(["refresh", "--yes", "--skip-preview", "--clear-pending-creates"]);
    if (refresh.status !== 0) throw new Broken(0, `refresh after the cut up (${cutSaid(cut, run)}) failed:\n${clip(refresh.out)}`);
    return cutSaid(cut, run);
  }

  /** Promise 4 on one text: no secret text of any program of the workflow in it, unless a program gave it in clear. */
  checkSecrets(text: string, where: string): void {
    for (const secret of this.secrets)
      if (text.includes(secret))
        throw new Broken(4, `the secret text ${JSON.stringify(secret)} appears in clear in ${where}:\n${clip(excerpt(text, secret))}`);
  }

  /** Makes `program` the stack's program and learns its secret texts. */
  write(program: Program): void {
    const { secret, clear } = secretTexts(program, this.rules);
    for (const text of clear) this.clear.add(text);
    for (const text of secret) if (!this.clear.has(text)) this.secrets.add(text);
    for (const text of this.clear) this.secrets.delete(text);
    this.stack.write(program);
  }

  /**
   * Applies `program` with `up` (its own preview first, or `--skip-preview`) and checks promises
   * 1, 3 and 5; a conflicting program is checked to fail and is then reverted. With `cut`, a
   * first `up` is cut short and recovered from before the `up` that must pass. Returns what a cut
   * did, in words.
   */
  async apply(
    program: Program,
    options: { preview?: boolean; skipPreview?: boolean; cut?: Cut; invalid?: boolean } = {},
  ): Promise<string | undefined> {
    this.write(program);
    if (options.invalid) return void (await this.invalid());
    const upArgs = ["up", "--yes", ...(options.skipPreview ? ["--skip-preview"] : [])];
    const found = conflicts(program, this.rules, this.projects());
    if (found.length) return void (await this.refused(program, found, upArgs, options.preview));
    if (options.preview) await this.preview(false);
    if (!this.snapshot) this.startSnapshot();
    const [liveBefore, projectsBefore] = [liveValues(this.emulator.state()), this.projects()];
    const cut = options.cut ? await this.cutUp(upArgs, options.cut) : undefined;
    const up = await this.run(upArgs);
    if (up.status !== 0) throw new Broken(0, `up failed${cut ? ` (after an up cut: ${cut})` : ""}:\n${clip(up.out)}`);
    if (cut) for (const c of this.cuts) c.laterMessages ??= this.messages.length;
    this.keep(this.program, program, liveBefore, projectsBefore);
    this.program = program;
    await this.checkLive();
    await this.preview(true);
    return cut;
  }

  /** A program with a typo: its preview fails and writes nothing (promise 4 is checked on its output by `run`); then the program is reverted. */
  private async invalid(): Promise<void> {
    const preview = await this.run(["preview"]);
    if (preview.writes.length) throw new Broken(5, `the preview of an invalid program wrote: ${preview.writes.join(", ")}`);
    if (preview.status === 0) throw new Broken(0, `the preview of an invalid program passed:\n${clip(preview.out)}`);
    this.write(this.program);
  }

  /** A preview after projects changed out of band: it writes nothing, and names each project a selector newly matches (issue 35). */
  async previewNames(projects: readonly string[]): Promise<void> {
    const preview = await this.run(["preview"]);
    if (preview.writes.length) throw new Broken(5, `pulumi preview wrote: ${preview.writes.join(", ")}\n${clip(preview.out)}`);
    if (preview.status !== 0) throw new Broken(0, `preview failed:\n${clip(preview.out)}`);
    const unnamed = projects.filter((p) => !preview.out.includes(p));
    if (unnamed.length)
      throw new Broken(1, `the preview does not name ${unnamed.join(", ")}, newly matched by a selector:\n${clip(preview.out)}`);
  }

  /** Before the stack's first `up`: what destroy must put back. */
  private startSnapshot(): void {
    this.snapshot = liveValues(this.emulator.state());
    this.messages = [];
    this.cuts = [];
  }

  /** Promise 5 (and, with `noChanges`, the second half of promise 1): a preview that passes and writes nothing. */
  async preview(noChanges: boolean): Promise<void> {
    const preview = await this.run(noChanges ? ["preview", "--expect-no-changes"] : ["preview"]);
    if (preview.writes.length) throw new Broken(5, `pulumi preview wrote: ${preview.writes.join(", ")}\n${clip(preview.out)}`);
    if (preview.status !== 0)
      throw new Broken(
        noChanges ? 1 : 0,
        `${noChanges ? "the preview after up proposes changes (a second up would not be a no-op)" : "preview failed"}:\n${clip(preview.out)}`,
      );
  }

  /**
   * Promise 3: the preview (when asked, and every side is known there) and the up fail, and
   * neither changes a conflicting value, but for the side checked first by an `up
   * --skip-preview`, which may set its own; then the program is reverted.
   */
  private async refused(program: Program, found: ReturnType<typeof conflicts>, upArgs: string[], preview = false): Promise<void> {
    const what = found.map((c) => `${c.key} declared by ${c.owners.join(" and ")}`).join("; ");
    if (preview && found.some((c) => c.atPreview)) {
      const preview = await this.run(["preview"]);
      if (preview.writes.length) throw new Broken(5, `the preview of a conflicting program wrote: ${preview.writes.join(", ")}`);
      if (preview.status === 0) throw new Broken(3, `the preview of a program with a conflict passed (${what}):\n${clip(preview.out)}`);
    }
    const before = liveValues(this.emulator.state());
    if (!this.snapshot) this.startSnapshot();
    const up = await this.run(upArgs);
    const after = liveValues(this.emulator.state());
    const changed = found.filter((c) => before.get(c.key) !== after.get(c.key));
    const flipped = (conflicts: typeof found) => conflicts.map((c) => `${c.key}: ${before.get(c.key)} → ${after.get(c.key)}`).join(", ");
    if (up.status === 0)
      throw new Broken(3, `an up with a conflict passed (${what}); values changed: ${flipped(changed) || "none"}:\n${clip(up.out)}`);
    const previewed = !upArgs.includes("--skip-preview");
    // Without a preview, the resource checked first may have written (docs/concepts/promises.md, 3): its own value, never a third.
    const { expectations } = declarations(program, this.rules, this.projects());
    const bySide = (c: (typeof found)[number]) =>
      expectations.some((e) => e.key === c.key && c.owners.includes(e.owner) && e.holds(after.get(c.key)));
    const wrong = previewed ? changed : changed.filter((c) => !bySide(c));
    if (wrong.length) throw new Broken(3, `an up with a conflict (${what}) failed but changed ${flipped(wrong)}:\n${clip(up.out)}`);
    if (previewed && found.some((c) => c.atPreview) && up.writes.length)
      throw new Broken(3, `an up with a conflict known at preview (${what}) wrote: ${up.writes.join(", ")}`);
    this.write(this.program);
  }

  /** Promise 1: every declared value is live, and the state's outputs say what is live; promise 4 on the exported state. */
  async checkLive(): Promise<void> {
    const live = liveValues(this.emulator.state());
    const wrong = declarations(this.program, this.rules, this.projects()).expectations.filter((e) => !e.holds(live.get(e.key)));
    if (wrong.length)
      throw new Broken(
        1,
        `after up, not live as declared: ${wrong.map((e) => `${e.key} is ${live.get(e.key)}, ${e.owner} declares ${e.declared}`).join("; ")}`,
      );
    this.checkSecrets(await this.stack.exported(), "the exported state (pulumi stack export)");
    const state = await this.stack.resources({ showSecrets: true });
    for (const decl of this.program) {
      const outputs = unwrapSecrets(state[decl.name]?.outputs) as Record<string, unknown> | undefined;
      if (!outputs) throw new Broken(1, `after up, the state has no ${decl.kind} "${decl.name}"`);
      const stale = staleOutputs(decl.kind, decl.props, outputs, live);
      if (stale.length) throw new Broken(1, `after up, the state of ${decl.kind} "${decl.name}" is not what is live: ${stale.join("; ")}`);
    }
  }

  /** `pulumi refresh` (promise 5: it writes nothing). */
  async refresh(): Promise<void> {
    const refresh = await this.run(["refresh", "--yes", "--skip-preview"]);
    if (refresh.writes.length) throw new Broken(5, `pulumi refresh wrote: ${refresh.writes.join(", ")}`);
    if (refresh.status !== 0) throw new Broken(0, `refresh failed:\n${clip(refresh.out)}`);
  }

  /** `pulumi destroy` and promise 2. */
  async destroy(): Promise<void> {
    this.keep(this.program, [], liveValues(this.emulator.state()), this.projects());
    const destroy = await this.run(["destroy", "--yes", "--skip-preview"]);
    if (destroy.status !== 0) throw new Broken(0, `destroy failed:\n${clip(destroy.out)}`);
    const snapshot = this.snapshot;
    this.snapshot = undefined;
    if (!snapshot) return;
    const live = liveValues(this.emulator.state());
    const keys = new Set([...snapshot.keys(), ...live.keys()]);
    const left = [...keys].filter((k) => snapshot.get(k) !== live.get(k));
    const killed = new Set(this.cuts.filter((c) => c.killed).flatMap((c) => c.changed));
    const cancelled = new Set(this.cuts.filter((c) => !c.killed).flatMap((c) => c.changed));
    // The messages that may excuse a value: any, but for one a cancelled cut changed, only those after its recovery.
    const laterMessages = (k: string) =>
      this.messages.slice(
        Math.max(0, ...this.cuts.filter((c) => !c.killed && c.changed.includes(k)).map((c) => c.laterMessages ?? Infinity)),
      );
    const destroyMessages = diagnostics(destroy.out);
    const excused = (k: string) =>
      killed.has(k)
        ? // After a SIGKILL, the original may be lost (without a local journal): the destroy must say what it leaves.
          destroyMessages.some((m) => names(m, k))
        : laterMessages(k).some((m) => names(m, k, snapshot.get(k)));
    const silent = left.filter((k) => !excused(k));
    const why = (k: string) =>
      killed.has(k)
        ? " (changed by an up killed with SIGKILL: destroy's own output must name it)"
        : cancelled.has(k)
          ? " (changed by an up cut by SIGINT or SIGTERM, which leave time to record its original)"
          : "";
    if (silent.length)
      throw new Broken(
        2,
        `after destroy, not as before the stack's first up, and no message named it: ${silent.map((k) => `${k} was ${snapshot.get(k) ?? "absent"}, is ${live.get(k) ?? "absent"}${why(k)}`).join("; ")}\n${clip(destroy.out)}`,
      );
  }
}

const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";
/** `pulumi stack export --show-secrets` values with the secrets unwrapped (their `plaintext` is JSON). */
function unwrapSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  if (!value || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (SECRET_SIGNATURE in record && typeof record.plaintext === "string") return unwrapSecrets(JSON.parse(record.plaintext));
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, unwrapSecrets(v)]));
}

/** Around the first place `secret` appears in `text`. */
function excerpt(text: string, secret: string): string {
  const at = text.indexOf(secret);
  return text.slice(Math.max(0, at - 1500), at + secret.length + 500);
}

/** The outputs of a resource that disagree with the live values it declares (the state must say what is live). */
function staleOutputs(kind: string, props: Record<string, unknown>, outputs: Record<string, unknown>, live: Map<string, string>): string[] {
  const stale: string[] = [];
  const compare = (what: string, output: unknown, key: string, normalize = (v: unknown) => JSON.stringify(v)) => {
    if (normalize(output) !== live.get(key)) stale.push(`${what} says ${JSON.stringify(output)}, live ${key} is ${live.get(key)}`);
  };
  const sorted = (v: unknown) => JSON.stringify([...((v as string[]) ?? [])].sort());
  // The state's whole tag set may lack a system tag the service added after the write (a ManagedScan of the run): not the stack's.
  const managedTags = (v: unknown) => sorted(withoutSystemTags((v as string[]) ?? []));
  const project = `project:${String(props.projectName)}`;
  if (kind === "PolicyRuleMode") compare("mode", outputs.mode, `rule:${String(props.rulePath)}`, (v) => String(v));
  if (kind === "PolicyRuleModes" && Object.keys((outputs.deviations ?? {}) as object).length)
    stale.push(`deviations is ${JSON.stringify(outputs.deviations)} after up`);
  if (kind === "ProjectSettings") {
    // A followed branch is null in the emulator's model and the default branch in the API's answer: the state says it follows.
    if (props.primaryBranch === "None")
      compare("followsDefaultBranch", outputs.followsDefaultBranch === true ? null : false, `${project}:primaryBranch`);
    else if (props.primaryBranch !== undefined) compare("primaryBranch", outputs.primaryBranch, `${project}:primaryBranch`);
    if (props.tags !== undefined) compare("tags", outputs.tags, `${project}:tags`, managedTags);
  }
  if (kind === "ManagedScan")
    for (const field of ["diffScan", "fullScan"])
      if (props[field] !== undefined) compare(field, (outputs[field] as { enabled?: boolean } | undefined)?.enabled, `${project}:${field}`);
  if (kind === "ProjectTags") {
    const tags = JSON.parse(live.get(`${project}:tags`) ?? "[]") as string[];
    const missing = ((outputs.tags ?? []) as string[]).filter((t) => !tags.includes(t));
    if (missing.length) stale.push(`tags says ${JSON.stringify(outputs.tags)}, live tags lack ${missing.join(", ")}`);
  }
  if (kind === "DetectionPolicy")
    for (const field of ["rulesets", "rules", "disabled"])
      if (props[field] !== undefined) compare(field, outputs[field], `detection:${String(props.product)}:${field}`, sorted);
  if (kind === "UserRole") compare("role", outputs.role, `user:${String(props.userId)}:role`, (v) => String(v));
  if (kind === "DeploymentSettings")
    for (const path of Object.keys(SETTINGS)) {
      const [section, field] = path.split(".");
      const declared = field === undefined ? props[section!] : (props[section!] as Record<string, unknown> | undefined)?.[field];
      const output = field === undefined ? outputs[section!] : (outputs[section!] as Record<string, unknown> | undefined)?.[field];
      if (declared !== undefined) compare(path, output, `settings:${path}`);
    }
  if (kind === "TeamMembers") {
    const team = JSON.parse(live.get(`team:${PRESET_TEAMS[String(props.teamId)]}:members`) ?? "{}") as Record<string, string>;
    const wrong = Object.entries((outputs.members ?? {}) as Record<string, string>).filter(([u, role]) => team[u] !== role);
    if (wrong.length) stale.push(`members says ${JSON.stringify(outputs.members)}, live is ${JSON.stringify(team)}`);
  }
  if (kind === "RemediationPolicy") {
    const policy = live.get(`remediation:${String(props.slug)}`);
    if (!policy || (JSON.parse(policy) as { name: string }).name !== outputs.policyName)
      stale.push(`policyName says ${JSON.stringify(outputs.policyName)}, live is ${policy}`);
  }
  return stale;
}
