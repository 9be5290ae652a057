/**
 * The five promises, checked over generated workflows (issue 21, B; widened by issue 34, E, and
 * issue 35): fast-check generates sequences of steps (program edits over all sixteen kinds, conflicts
 * with secret claims on either side, out-of-band changes followed by `refresh`, an `up` cut short
 * by a CI runner's cancel or by SIGKILL then recovered, `destroy`; for ProjectSettingsSet, a
 * project's field moved between a set and a single resource, a selector gaining or losing
 * projects, a set's field declared twice, a project created or re-tagged out of band between two
 * `up`s: set-edits.ts, projects-out-of-band.ts; for the access kinds of issue 36, a member moved
 * between a Team and a TeamMembers in one step or two, a project moved between teams, a secret
 * notification webhook, a member, project, org role, product configuration or rule declared twice,
 * and out-of-band role changes, a product switched off, a rule disabled: access-edits.ts,
 * access-model.ts), each step runs through the real
 * CLI against the emulator, through one front end: the dynamic classes (`index.js`) or the
 * native plugin (`Pulumi.yaml`), one model rendered for either. harness.ts checks the promises
 * after each step; every run ends with `destroy`. Updates run as `up` (with its own preview) or
 * `up --skip-preview`, as the step chose. A failure prints the seed, the shrunk sequence and the
 * failing step's program.
 *
 * `npm test` runs a fixed seed of each front end with a bounded budget (workflows.test.ts,
 * workflows-native.test.ts); `npm run soak -- --front-end dynamic|native --seed N --runs N` more.
 * Settings (environment): WORKFLOW_SEED, WORKFLOW_RUNS, WORKFLOW_STEPS (most steps per run),
 * WORKFLOW_SHRINK_SECONDS (shrinking budget), WORKFLOW_KNOWN_DEFECTS=none or WORKFLOW_SKIP_EDITS=a,b (see
 * known-defects.ts), WORKFLOW_CANCEL_DELAYS=term,kill (milliseconds from SIGINT to SIGTERM and
 * from SIGTERM to SIGKILL; by default the CI's 7.5 s and 2.5 s scaled down fivefold),
 * WORKFLOW_PROGRESS (a file each step is logged to as it starts).
 */
import { appendFileSync } from "node:fs";
import { accessOutOfBand } from "./access-model";
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../provider/emulator";
import { applyEdit, type Context, EDIT_KINDS, type EditKind, OTHER_STEPS, type StepKind } from "./edits";
import { Broken, Workflow } from "./harness";
import { cancelDelays, type Cut } from "./interrupts";
import { skippedSteps } from "./known-defects";
import { conflicts, declarations, type Kind, type Program } from "./model";
import { projectOutOfBand } from "./projects-out-of-band";
import { type FrontEnd, programFile } from "./render";
import { newStack } from "./stacks";
import { liveValues, SELECTOR_TAGS, type WorldRule, worldRules } from "./world";

const env = process.env;
/**
 * `npm test`'s seed of each front end (chosen again when issue 36 added the access kinds' steps,
 * which changed what every seed draws). 1658, dynamic: a secret selector conflict, a 40-rule
 * selector, a notification rule with a secret webhook URL; product settings with SCA PR blocking
 * flipped out of band (refresh, up); a Team adopting `appsec` with members, a member's team role
 * changed out of band, the member moved out of the Team and, a step later, into a new
 * TeamMembers. 619, native: a Team adopting `appsec` renamed with an alias, then a project moved
 * from it to a TeamProjects of the team; a secret mode conflict; two resources declaring one team
 * member (refused at preview); the AI code-sharing setting changed out of band. Steps left out run
 * as `add`.
 */
const SEEDS: Record<FrontEnd, number> = { dynamic: 1658, native: 619 };
const RUNS = Number(env.WORKFLOW_RUNS ?? 3);
const STEPS = Number(env.WORKFLOW_STEPS ?? 6);
const SHRINK_MS = Number(env.WORKFLOW_SHRINK_SECONDS ?? 120) * 1000;
const SKIPPED = skippedSteps();
const DELAYS = cancelDelays();

interface Model {
  program: Program;
  up: boolean;
}

/** What the running step and the workflow remember, for the failure report. */
interface Trace {
  said: string[];
  program: string;
}

/** The edits an `up` cut short applies, by the step's choice: a create of many rules (most often), an update, any create. */
const CUT_EDITS = ["selector-broad", "selector-broad", "change", "add"] as const;

/** One front end's generator: its emulator, its counters, the smallest failure found. */
class Generator {
  emulator!: RunningEmulator;
  rules!: WorldRule[];
  names = 0;
  trace: Trace = { said: [], program: "" };
  /** The smallest failure so far (its steps, its program, its error), reported once shrinking ends or its budget does. */
  smallest: { said: string[]; program: string; message: string } | undefined;
  firstFailureAt: number | undefined;
  runsDone = 0;
  stepsDone = 0;
  runsStarted = 0;
  /** The first failure: which run, after how many steps. */
  firstFailure: { run: number; steps: number } | undefined;

  constructor(readonly frontEnd: FrontEnd) {}

  context(workflow: Workflow): Context {
    return {
      rules: this.rules,
      projects: workflow.projects(),
      name: (kind: Kind) => `${kind.replace(/[a-z]/g, "").toLowerCase()}-${++this.names}`,
    };
  }

  note(said: string): void {
    this.trace.said.push(said);
    if (env.WORKFLOW_PROGRESS)
      appendFileSync(env.WORKFLOW_PROGRESS, `${this.frontEnd} run ${this.runsStarted} step ${this.trace.said.length}: ${said}\n`);
  }

  /** Adds to what the last step said (what a cut did, known once it ran). */
  amend(more: string): void {
    this.trace.said[this.trace.said.length - 1] += ` (${more})`;
  }

  async runWorkflow(steps: Iterable<Step>): Promise<boolean> {
    // Past the shrinking budget, candidates pass without running: fast-check stops with the smallest failure found.
    if (this.firstFailureAt !== undefined && Date.now() - this.firstFailureAt > SHRINK_MS) return true;
    this.emulator.reset();
    this.runsStarted++;
    this.names = 0;
    this.trace = { said: [], program: "" };
    const stack = await newStack(this.frontEnd, this.emulator);
    const workflow = new Workflow(stack, this.emulator, this.rules, DELAYS);
    try {
      await fc.asyncModelRun(() => ({ model: { program: [], up: false }, real: workflow }), steps);
      this.trace.said.push("destroy (end of the workflow)");
      await workflow.destroy();
      this.runsDone++;
      this.stepsDone += this.trace.said.length;
      return true;
    } catch (error) {
      const message = error instanceof Broken ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
      this.firstFailureAt ??= Date.now();
      this.firstFailure ??= { run: this.runsStarted, steps: this.trace.said.length };
      if (!this.smallest || this.trace.said.length <= this.smallest.said.length)
        this.smallest = { said: [...this.trace.said], program: this.trace.program || stack.render(workflow.program), message };
      throw error;
    }
  }
}

/**
 * One step of a workflow: an edit then `up`; an out-of-band change then `refresh` and `up`; an
 * edit whose `up` is cut short, then the recovery; or `destroy`.
 */
class Step implements fc.AsyncCommand<Model, Workflow> {
  said?: string;
  /** What the step does: its kind, or `add` in place of a step left out (known-defects.ts). */
  readonly kind: StepKind;
  constructor(
    readonly generator: Generator,
    readonly drawn: StepKind,
    readonly n: number,
    readonly preview: boolean,
    readonly skipPreview: boolean,
  ) {
    this.kind = SKIPPED.has(drawn) ? "add" : drawn;
  }

  check(model: Readonly<Model>): boolean {
    if (this.kind === "destroy") return model.up;
    if (this.kind === "out-of-band") return model.up && model.program.length > 0;
    if (this.kind === "project-out-of-band") return model.up;
    // An edit that does not apply to the program (nothing to remove yet) adds a resource instead: runs stay long.
    return true;
  }

  async run(model: Model, workflow: Workflow): Promise<void> {
    const g = this.generator;
    if (this.kind === "destroy") {
      this.note("destroy");
      await workflow.destroy();
      model.up = false;
      return;
    }
    const up = this.skipPreview ? "up --skip-preview" : "up";
    if (this.kind === "out-of-band") {
      this.note(`out-of-band: ${outOfBand(workflow, this.n)}; refresh; up`);
      await workflow.refresh();
      await workflow.apply(workflow.program, { skipPreview: this.skipPreview });
      return;
    }
    if (this.kind === "project-out-of-band") {
      const before = liveValues(workflow.emulator.state());
      const { said, newlyMatched } = projectOutOfBand(workflow, this.n);
      workflow.changedOutOfBand(before);
      this.note(`project out of band: ${said}; ${this.preview ? "preview (names it); " : ""}${up}`);
      if (this.preview) await workflow.previewNames(newlyMatched);
      await workflow.apply(workflow.program, { skipPreview: this.skipPreview });
      return;
    }
    const cutHow = this.kind === "interrupt" ? "cancel" : this.kind === "kill" ? "kill" : undefined;
    const editKind: EditKind = this.kind === "interrupt" || this.kind === "kill" ? CUT_EDITS[this.n % CUT_EDITS.length]! : this.kind;
    const edit =
      applyEdit(editKind, this.n, workflow.program, g.context(workflow)) ??
      applyEdit("add", this.n, workflow.program, g.context(workflow))!;
    const cut: Cut | undefined = cutHow
      ? { how: cutHow, atWrite: 1 + (Math.floor(this.n / 3) % writesToCome(workflow, edit.program)) }
      : undefined;
    if (edit.invalid) this.note(`${edit.said}; preview (must fail)`);
    else if (conflicts(edit.program, g.rules, workflow.projects()).length)
      this.note(`${edit.said}; ${this.preview ? "preview; " : ""}${up} (must be refused)`);
    else if (cut)
      this.note(
        `${edit.said}; ${this.preview ? "preview; " : ""}${up} cut ${cut.how === "cancel" ? "as a CI runner cancels (SIGINT, SIGTERM, SIGKILL)" : "by SIGKILL"} at write ${cut.atWrite}; cancel; refresh --clear-pending-creates; ${up}`,
      );
    else this.note(`${edit.said}; ${this.preview ? "preview; " : ""}${up}`);
    g.trace.program = workflow.stack.render(edit.program);
    const cutSaid = await workflow.apply(edit.program, {
      preview: this.preview,
      skipPreview: this.skipPreview,
      cut,
      invalid: edit.invalid,
    });
    if (cutSaid) g.amend(cutSaid);
    model.program = workflow.program;
    model.up ||= workflow.program.length > 0;
  }

  private note(said: string): void {
    this.said = this.drawn === this.kind ? said : `${said} [in place of ${this.drawn}, left out]`;
    this.generator.note(this.said);
  }

  toString(): string {
    return this.said ?? `${this.kind}(${this.n}${this.preview ? ", preview" : ""}${this.skipPreview ? ", skip-preview" : ""})`;
  }
}

/** About how many writes applying `program` takes: the values it declares that are not yet live (one write each at most). */
function writesToCome(workflow: Workflow, program: Program): number {
  const live = liveValues(workflow.emulator.state());
  const { expectations } = declarations(program, workflow.rules, workflow.projects());
  return Math.max(1, expectations.filter((e) => !e.holds(live.get(e.key))).length);
}

/** Changes one value the program declares on the service itself, as a person in Semgrep's UI would. Returns what it did. */
function outOfBand(workflow: Workflow, n: number): string {
  const { expectations } = declarations(workflow.program, workflow.rules, workflow.projects());
  if (!expectations.length) return "nothing declared";
  const target = expectations[n % expectations.length]!;
  const state = workflow.emulator.state();
  const [kind, ...rest] = target.key.split(":");
  if (kind === "rule") {
    const rule = state.policies.flatMap((p) => p.rules).find((r) => r.path === rest.join(":"))!;
    rule.policyMode = rule.policyMode === "MODE_MONITOR" ? "MODE_COMMENT" : "MODE_MONITOR";
    return `rule ${rule.path} set to ${rule.policyMode}`;
  }
  if (kind === "project") {
    const field = rest.at(-1)!;
    const project = state.projects.find((p) => p.name === rest.slice(0, -1).join(":"))!;
    if (field === "primaryBranch") project.primaryBranch = "refs/heads/out-of-band";
    // A team tag a set's selector matches on is changed only by the project-out-of-band step (which tells the snapshot).
    const dropped = project.tags.find((t) => !(SELECTOR_TAGS as readonly string[]).includes(t));
    if (field === "tags")
      project.tags = dropped !== undefined ? project.tags.filter((t) => t !== dropped) : [...project.tags, "out-of-band"];
    if (field === "diffScan") project.managedScanConfig.diff_scan.enabled = !project.managedScanConfig.diff_scan.enabled;
    if (field === "fullScan") project.managedScanConfig.full_scan.enabled = !project.managedScanConfig.full_scan.enabled;
    return `${field} of project ${project.name} changed`;
  }
  if (kind === "detection") {
    const bundle = state.detectionPolicies.find((d) => d.product === rest[0])!;
    const field = rest[1] as "rulesets" | "rules" | "disabled" | "exceptions";
    if (field === "exceptions") bundle.exceptions = bundle.exceptions.slice(1);
    else if (field === "rulesets" && bundle.product === "code")
      bundle.rulesets = [...bundle.rulesets.filter((x) => x !== "p/r2c-ci"), "p/r2c-ci"].sort();
    else if (field !== "rulesets") bundle[field] = bundle[field].length ? bundle[field].slice(1) : ["acme.out-of-band"];
    return `${field} of the ${bundle.product} detection policy changed`;
  }
  if (["team", "user", "settings", "notification"].includes(kind!))
    return accessOutOfBand(
      state,
      target.key,
      workflow.program.find((d) => `${d.kind} "${d.name}"` === target.owner),
      n,
    );
  const policy = state.remediationPolicies.find((p) => p.slug === rest.join(":"));
  if (policy) policy.name = "Changed in the UI";
  return `remediation policy ${rest.join(":")} renamed`;
}

/**
 * Every kind is drawn, those left out too (they run as `add`): a seed draws the same sequences
 * whatever known-defects.ts lists, so the step that finds a defect is where it was once its
 * entry is removed.
 */
const stepKinds: StepKind[] = [...EDIT_KINDS, ...OTHER_STEPS];
/**
 * Edits weigh more than the other steps; adds most (a program must grow before the rest applies),
 * and moves of rules as much (the hand-over between resources is the hardest promise to keep);
 * secret conflicts as much as changes (a leak is the costliest broken promise). The four steps of
 * ProjectSettingsSet (three edits and project-out-of-band) weigh as the other edits: together
 * about a seventh of the steps, so that the older kinds keep six in seven (and `add` a set one
 * time in ten).
 */
const weight = (kind: StepKind) =>
  kind === "add" || kind === "move-rule"
    ? 6
    : ["change", "remove", "move-tag", "secret-conflict"].includes(kind)
      ? 3
      : kind === "interrupt" || kind === "kill" || kind === "destroy"
        ? 1
        : 2;

/** One step as drawn: its kind, its choice, whether a preview comes first, whether `up` skips its own. */
export interface Drawn {
  kind: StepKind;
  n: number;
  preview: boolean;
  skipPreview: boolean;
}

/** The steps a seed draws, each made into a `T` (a Step; or a record, to list a seed's steps without running them). */
export function stepsArbitrary<T>(make: (drawn: Drawn) => T): fc.Arbitrary<T> {
  return fc.oneof(
    ...stepKinds.map((kind) => ({
      weight: weight(kind),
      arbitrary: fc
        .tuple(fc.nat({ max: 999 }), fc.boolean(), fc.boolean())
        .map(([n, preview, skipPreview]) => make({ kind, n, preview, skipPreview })),
    })),
  );
}

/** Registers the generator's test for `frontEnd`: a fixed seed within `npm test`'s budget, or what the settings ask. */
export function describeWorkflows(frontEnd: FrontEnd): void {
  const SEED = Number(env.WORKFLOW_SEED ?? SEEDS[frontEnd]);
  const g = new Generator(frontEnd);
  const stepArbitrary = stepsArbitrary((d) => new Step(g, d.kind, d.n, d.preview, d.skipPreview));

  describe(`workflows through the ${frontEnd} front end`, () => {
    beforeAll(async () => {
      g.emulator = await startEmulator({ preset: "demo", retryAfterSeconds: 0, policiesV2: "both" });
      // The world stays as the preset made it between runs.
      g.rules = worldRules(g.emulator.state());
    });
    afterAll(async () => g.emulator?.close());

    it(`keep the five promises (seed ${SEED}, ${RUNS} runs of at most ${STEPS} steps${SKIPPED.size ? `, without ${[...SKIPPED].join(", ")}` : ""})`, async () => {
      const details = await fc.check(
        fc.asyncProperty(fc.commands([stepArbitrary], { maxCommands: STEPS, size: "max" }), (steps) =>
          g.runWorkflow(steps as Iterable<Step>),
        ),
        { seed: SEED, numRuns: RUNS, endOnFailure: false },
      );
      console.log(`workflows (${frontEnd}): seed ${SEED}, ${g.runsDone} passing runs, ${g.stepsDone} steps`);
      if (!details.failed && !g.smallest) return;
      const report = [
        `A workflow broke a promise through the ${frontEnd} front end. Seed ${SEED} (replay: ${env.WORKFLOW_SKIP_EDITS !== undefined ? `WORKFLOW_SKIP_EDITS=${env.WORKFLOW_SKIP_EDITS} ` : ""}npm run soak -- --front-end ${frontEnd} --seed ${SEED} --runs ${RUNS} --steps ${STEPS}${SKIPPED.size ? "" : " --all-edits"}).`,
        `First failure in run ${g.firstFailure?.run} of the seed, at its step ${g.firstFailure?.steps}; ${g.runsStarted} runs in all (shrinking included).`,
        `Smallest failing sequence found${g.firstFailureAt !== undefined && Date.now() - g.firstFailureAt > SHRINK_MS ? " (shrinking budget spent)" : ""}:`,
        ...(g.smallest?.said ?? []).map((s, i) => `  ${i + 1}. ${s}`),
        g.smallest?.message ?? String(details.errorInstance),
        `The failing step's program (${programFile(frontEnd)}):`,
        g.smallest?.program ?? "",
        fc.defaultReportMessage(details) ?? "",
      ].join("\n");
      throw new Error(report);
    }, 3_600_000);
  });
}
