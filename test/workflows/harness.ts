/**
 * Runs a workflow's steps through the real Pulumi CLI against the emulator and checks the five
 * promises (docs/concepts/promises.md) after each (promise 5, the policy pack, has its own
 * generator; "previews write nothing" is checked here in its place):
 *   1. after `up`, every declared value is live and the state's outputs say so; a following
 *      `preview --expect-no-changes` passes and writes nothing;
 *   2. after `destroy`, the service equals the snapshot taken before the stack's first `up`,
 *      except values a message of the stack's runs names (a warning of the destroy, or the
 *      warning or note of an earlier run that said destroy would leave it); for a rule, the
 *      message must give the mode it had before (a wrong original handed over excuses nothing);
 *   3. a program where two resources declare one value fails before any write to that value
 *      (its preview fails with no write at all when every side is known at preview);
 *   4. no secret input's text appears in any output of any command, nor in `pulumi stack export`;
 *   5. `pulumi preview` and `pulumi refresh` write nothing.
 * A broken promise throws a {@link Broken} naming it, with the run's output.
 */
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { withoutSystemTags } from "../../provider/client";
import type { RunningEmulator } from "../../provider/emulator";
import type { ProgramWorkspace } from "../support/program";
import { conflicts, declarations, type Program, render, secretTexts } from "./model";
import { liveValues, namesOfValue, type WorldRule } from "./world";

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

/** Requests that change the service: every method but GET, less the Policies V2 dry runs (validation only). */
const isWrite = (r: { method: string; operation?: string }) => r.method !== "GET" && !(r.operation ?? "").includes("dryRun");
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

/** One workflow on one stack: the CLI, the emulator and what the promises need to remember. */
export class Workflow {
  /** The service before the stack's first `up` (since its creation or its last `destroy`). */
  snapshot: Map<string, string> | undefined;
  /** Messages of every run since the snapshot. */
  messages: string[] = [];
  /** Every secret text any program of the workflow gave. */
  secrets = new Set<string>();
  /** Texts any program gave in clear (not secrets, whatever another program did). */
  readonly clear = new Set<string>();
  program: Program = [];

  constructor(
    readonly workspace: ProgramWorkspace,
    readonly emulator: RunningEmulator,
    readonly rules: readonly WorldRule[],
  ) {}

  /** Runs `pulumi args`, with the request log cleared first; checks promise 4 on its output. */
  async run(args: string[], options: { interruptAfterWrites?: number } = {}): Promise<Run> {
    this.emulator.requests().length = 0;
    const result = options.interruptAfterWrites
      ? await this.interrupted(args, options.interruptAfterWrites)
      : await this.workspace.run(args, { allowFailure: true });
    const out = `$ pulumi ${args.join(" ")}\n${result.stdout}\n${result.stderr}`;
    const writes = this.emulator
      .requests()
      .filter(isWrite)
      .map((r) => `${r.method} ${r.path} ${r.status}`);
    this.messages.push(...diagnostics(result.stdout + "\n" + result.stderr));
    this.checkSecrets(out, `the output of pulumi ${args.join(" ")}`);
    return { status: result.status, out, writes };
  }

  /** `pulumi args` killed with its process group once `writes` writes have reached the service (answers slowed down meanwhile). */
  private async interrupted(args: string[], writes: number): Promise<{ status: number | null; stdout: string; stderr: string }> {
    this.emulator.setFaults({ latencyMs: 150 });
    const child = spawn("pulumi", [...args, "--non-interactive"], {
      cwd: this.workspace.dir,
      env: this.workspace.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    // "exit", not "close": the provider process (a process group of its own) may hold the pipes a moment longer.
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    let done = false;
    void exited.then(() => (done = true));
    const deadline = Date.now() + 60_000;
    while (!done && this.emulator.requests().filter(isWrite).length < writes && Date.now() < deadline) await sleep(5);
    if (!done) process.kill(-child.pid!, "SIGKILL");
    const status = await exited;
    await sleep(200);
    child.stdout.destroy();
    child.stderr.destroy();
    this.emulator.setFaults({ latencyMs: 0 });
    return { status, stdout, stderr };
  }

  /** Promise 4 on one text: no secret text of any program of the workflow in it, unless a program gave it in clear. */
  checkSecrets(text: string, where: string): void {
    for (const secret of this.secrets)
      if (text.includes(secret))
        throw new Broken(4, `the secret text ${JSON.stringify(secret)} appears in clear in ${where}:\n${clip(excerpt(text, secret))}`);
  }

  /** Makes `program` the stack's program (index.js) and learns its secret texts. */
  write(program: Program): void {
    const { secret, clear } = secretTexts(program, this.rules);
    for (const text of clear) this.clear.add(text);
    for (const text of secret) if (!this.clear.has(text)) this.secrets.add(text);
    for (const text of this.clear) this.secrets.delete(text);
    this.workspace.write(render(program));
  }

  /** Applies `program` with `up` and checks promises 1, 3 and 5; a conflicting program is checked to fail and is then reverted. */
  async apply(program: Program, options: { preview?: boolean; interruptAfterWrites?: number; invalid?: boolean } = {}): Promise<void> {
    this.write(program);
    if (options.invalid) return this.invalid();
    const found = conflicts(program, this.rules);
    if (found.length) return this.refused(program, found);
    if (options.preview) await this.preview(false);
    if (!this.snapshot) this.startSnapshot();
    if (options.interruptAfterWrites) {
      await this.run(["up", "--yes", "--skip-preview"], { interruptAfterWrites: options.interruptAfterWrites });
      await this.run(["cancel", "--yes"]);
      const refresh = await this.run(["refresh", "--yes", "--skip-preview", "--clear-pending-creates"]);
      if (refresh.status !== 0) throw new Broken(0, `refresh after the interrupted up failed:\n${clip(refresh.out)}`);
    }
    const up = await this.run(["up", "--yes", "--skip-preview"]);
    if (up.status !== 0) throw new Broken(0, `up failed:\n${clip(up.out)}`);
    this.program = program;
    await this.checkLive();
    await this.preview(true);
  }

  /** A program with a typo: its preview fails and writes nothing (promise 4 is checked on its output by `run`); then the program is reverted. */
  private async invalid(): Promise<void> {
    const preview = await this.run(["preview"]);
    if (preview.writes.length) throw new Broken(5, `the preview of an invalid program wrote: ${preview.writes.join(", ")}`);
    if (preview.status === 0) throw new Broken(0, `the preview of an invalid program passed:\n${clip(preview.out)}`);
    this.write(this.program);
  }

  /** Before the stack's first `up`: what destroy must put back. */
  private startSnapshot(): void {
    this.snapshot = liveValues(this.emulator.state());
    this.messages = [];
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

  /** Promise 3: the preview (when every side is known there) and the up fail, and neither changes a conflicting value; then the program is reverted. */
  private async refused(program: Program, found: ReturnType<typeof conflicts>): Promise<void> {
    const what = found.map((c) => `${c.key} declared by ${c.owners.join(" and ")}`).join("; ");
    if (found.some((c) => c.atPreview)) {
      const preview = await this.run(["preview"]);
      if (preview.writes.length) throw new Broken(5, `the preview of a conflicting program wrote: ${preview.writes.join(", ")}`);
      if (preview.status === 0) throw new Broken(3, `the preview of a program with a conflict passed (${what}):\n${clip(preview.out)}`);
    }
    const before = liveValues(this.emulator.state());
    if (!this.snapshot) this.startSnapshot();
    const up = await this.run(["up", "--yes"]);
    const after = liveValues(this.emulator.state());
    const flipped = found
      .filter((c) => before.get(c.key) !== after.get(c.key))
      .map((c) => `${c.key}: ${before.get(c.key)} → ${after.get(c.key)}`);
    if (up.status === 0)
      throw new Broken(3, `an up with a conflict passed (${what}); values changed: ${flipped.join(", ") || "none"}:\n${clip(up.out)}`);
    if (flipped.length) throw new Broken(3, `an up with a conflict (${what}) failed but changed ${flipped.join(", ")}:\n${clip(up.out)}`);
    if (found.some((c) => c.atPreview) && up.writes.length)
      throw new Broken(3, `an up with a conflict known at preview (${what}) wrote: ${up.writes.join(", ")}`);
    this.write(this.program);
  }

  /** Promise 1: every declared value is live, and the state's outputs say what is live; promise 4 on the exported state. */
  async checkLive(): Promise<void> {
    const live = liveValues(this.emulator.state());
    const wrong = declarations(this.program, this.rules).expectations.filter((e) => !e.holds(live.get(e.key)));
    if (wrong.length)
      throw new Broken(
        1,
        `after up, not live as declared: ${wrong.map((e) => `${e.key} is ${live.get(e.key)}, ${e.owner} declares ${e.declared}`).join("; ")}`,
      );
    this.checkSecrets(await this.workspace.exported(), "the exported state (pulumi stack export)");
    const state = await this.workspace.resources({ showSecrets: true });
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
    const destroy = await this.run(["destroy", "--yes", "--skip-preview"]);
    if (destroy.status !== 0) throw new Broken(0, `destroy failed:\n${clip(destroy.out)}`);
    const snapshot = this.snapshot;
    this.snapshot = undefined;
    if (!snapshot) return;
    const live = liveValues(this.emulator.state());
    const keys = new Set([...snapshot.keys(), ...live.keys()]);
    const left = [...keys].filter((k) => snapshot.get(k) !== live.get(k));
    const silent = left.filter((k) => !this.messages.some((m) => names(m, k, snapshot.get(k))));
    if (silent.length)
      throw new Broken(
        2,
        `after destroy, not as before the stack's first up, and no message named it: ${silent.map((k) => `${k} was ${snapshot.get(k) ?? "absent"}, is ${live.get(k) ?? "absent"}`).join("; ")}\n${clip(destroy.out)}`,
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
  if (kind === "RemediationPolicy") {
    const policy = live.get(`remediation:${String(props.slug)}`);
    if (!policy || (JSON.parse(policy) as { name: string }).name !== outputs.policyName)
      stale.push(`policyName says ${JSON.stringify(outputs.policyName)}, live is ${policy}`);
  }
  return stale;
}
