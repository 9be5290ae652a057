// The benchmark's v2 stack (unified policies, Policies V2): ONE DetectionPolicy of the code
// product whose `disabled` holds N rule paths (5,000 by default) and R RemediationPolicy
// resources (50 by default), driven through the real Pulumi CLI against the emulator's `large`
// preset, phase by phase: preview, up (create), noop-up, change-one (one rule moved out of
// `disabled`), refresh, destroy. Each phase's requests are split into reads, dry runs and writes
// and compared with the fewest the API allows (see minimumV2Requests); destroy must put both
// bundles back exactly (content and `state_version`). Used by `npm run bench` and, small, by the
// test suite.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pulumiWorkspace } from "../tools/pulumi-run.mjs";
import { runPhases, stateBytesByKind } from "./bench-core.mjs";

const { startEmulator } = createRequire(import.meta.url)("../../dist/emulator");

export const V2_PHASES = ["preview", "up", "noop-up", "change-one", "refresh", "destroy"];

const V2_COMMANDS = {
  preview: ["preview"],
  up: ["up", "--yes", "--skip-preview"],
  "noop-up": ["up", "--yes", "--skip-preview"],
  // What a user runs to change one rule: `pulumi up` with its preview, whose two phases each
  // start a provider process that checks (reads and dry-runs) every resource.
  "change-one": ["up", "--yes"],
  refresh: ["refresh", "--yes", "--skip-preview"],
  destroy: ["destroy", "--yes", "--skip-preview"],
};

/** The deployment of the preset. */
const DEPLOYMENT = "1";

/** The program of the v2 stack: its resources come from spec.json. */
const V2_PROGRAM = `
const semgrep = require("pulumi-semgrep");
const spec = require("./spec.json");
new semgrep.DetectionPolicy("code", { deploymentId: "${DEPLOYMENT}", product: "code", disabled: spec.disabled });
for (const policy of spec.remediation) new semgrep.RemediationPolicy(policy.slug, { deploymentId: "${DEPLOYMENT}", ...policy });
`;

const SEVERITIES = ["critical", "high", "medium", "low"];

/**
 * The `disabled` list of the stack: N paths, as a set different from the live one (so that
 * create writes the list and records the original, which destroy puts back; a list found already
 * as declared records none). The live list without its first rule, filled up with generated
 * paths when N is larger, plus one rule the bundle does not disable.
 * @param {string[]} live
 * @param {number} count
 */
function disabledPaths(live, count) {
  const paths = live.slice(1, count);
  for (let i = 0; paths.length < count - 1; i++) paths.push(`acme.bench.generated.rule-${String(i).padStart(5, "0")}`);
  return [...paths, "acme.bench.turned-off-by-the-stack"].slice(0, count);
}

/** R remediation policies with new slugs, of the shapes the vocabulary allows. */
function remediationPolicies(count) {
  return Array.from({ length: count }, (_, i) => {
    const n = String(i).padStart(3, "0");
    const block = i % 3 === 0;
    return {
      slug: `bench-v2-${n}`,
      policyName: `Bench policy ${n}`,
      description: `Benchmark remediation policy ${n}.`,
      filters: {
        mode: "all",
        conditions: [
          { type: "severity", values: [SEVERITIES[i % SEVERITIES.length]] },
          { type: "confidence", values: ["high"] },
        ],
      },
      actions: block ? [{ type: "pr_comment" }, { type: "block" }] : [{ type: "pr_comment" }],
    };
  });
}

const sameSet = (a, b) => a.length === b.length && new Set([...a, ...b]).size === new Set(a).size;

/**
 * The fewest requests each phase can make (reads, dry runs, writes), from first principles and
 * the bundles before `up`.
 *
 * A provider process that runs the program's `check`s (the preview; the update of an `up`; both
 * phases of an `up` with its preview) must, for the service's validation to reach the preview
 * naming resource and field:
 *  - read each bundle the stack declares into once (`bundles`: the code detection policy and the
 *    remediation policies): a dry run sends a whole bundle, and the strict apply needs the live
 *    value of every field a resource leaves out; the read is shared by the resources of a bundle;
 *  - dry-run once per resource (`resources` = 1 + R): the engine calls `check` per resource, and
 *    no resource of a new stack gets anything but `check` at preview.
 * Writes: one PUT per resource whose declaration differs from the bundle (the DetectionPolicy when
 * its `disabled` differs as a set; a RemediationPolicy when its slug is new or its policy
 * differs). No read besides check's: each PUT answers the bundle and its new `state_version`,
 * which the next write to that bundle uses as `If-Match`.
 *
 *   preview    = bundles + resources                       reads + dry runs, no write
 *   up         = bundles + resources + changed             e.g. 2 + 51 + (1 + 50) = 104
 *   noop-up    = bundles + resources                       no write
 *   change-one = 2 x (bundles + resources) + 1             `pulumi up` with its preview: two processes check; one PUT of the code bundle
 *   refresh    = bundles                                   one read per bundle, shared by its resources; `refresh` does not check
 *   destroy    = per bundle with something to put back,    1 read + 1 PUT per resource that changed it (the DetectionPolicy
 *                                                          puts back the `disabled` it found; each created policy is removed)
 *
 * @param {{ disabled: string[], remediation: Array<{ slug: string }> }} live the bundles before `up`
 * @param {{ disabled: string[], remediation: Array<{ slug: string }> }} spec the stack before change-one
 * @param {string[]} changed the `disabled` list of change-one
 * @returns {Record<string, { reads: number, dryRuns: number, writes: number, requests: number }>}
 */
export function minimumV2Requests(live, spec, changed) {
  const liveSlugs = new Set(live.remediation.map((p) => p.slug));
  const adopted = spec.remediation.filter((p) => liveSlugs.has(p.slug));
  if (adopted.length) throw new Error(`the benchmark's remediation slugs must be new: ${adopted.map((p) => p.slug).join(", ")}`);
  const bundles = 1 + (spec.remediation.length ? 1 : 0);
  const resources = 1 + spec.remediation.length;
  const check = { reads: bundles, dryRuns: resources, writes: 0 };
  // The DetectionPolicy records what it found only when create changes it; destroy puts that back.
  const detectionWrite = sameSet(spec.disabled, live.disabled) ? 0 : 1;
  const detectionUndo = detectionWrite && !sameSet(changed, live.disabled) ? 1 : 0;
  const remediationWrites = spec.remediation.length; // every slug new: created, then removed
  const row = ({ reads, dryRuns, writes }) => ({ reads, dryRuns, writes, requests: reads + dryRuns + writes });
  return {
    preview: row(check),
    up: row({ ...check, writes: detectionWrite + remediationWrites }),
    "noop-up": row(check),
    "change-one": row({ reads: 2 * check.reads, dryRuns: 2 * check.dryRuns, writes: sameSet(changed, spec.disabled) ? 0 : 1 }),
    refresh: row({ reads: bundles, dryRuns: 0, writes: 0 }),
    destroy: row({
      reads: detectionUndo + (remediationWrites ? 1 : 0),
      dryRuns: 0,
      writes: detectionUndo + remediationWrites,
    }),
  };
}

/** The deployment's bundles as the API answers them (both detection products, and the remediation policies). */
async function bundlesOf(emulator) {
  const get = async (path) => {
    const answer = await fetch(`${emulator.url}/api/policies/v2/deployments/${DEPLOYMENT}/${path}`, {
      headers: { authorization: `Bearer ${emulator.token}` },
    });
    if (!answer.ok) throw new Error(`GET ${path}: ${answer.status} ${await answer.text()}`);
    return answer.json();
  };
  return { detection: await get("detection-policy"), remediation: await get("remediation-policies") };
}

/** A phase's requests by what they do: reads (GET), dry runs (`:dryRun` POSTs), writes (the rest). */
function tally(log) {
  const dryRuns = log.filter((r) => r.operation?.includes(".dryRun")).length;
  const reads = log.filter((r) => r.method === "GET").length;
  /** @type {Record<string, number>} */
  const operations = {};
  for (const r of log) operations[r.operation ?? `${r.method} ?`] = (operations[r.operation ?? `${r.method} ?`] ?? 0) + 1;
  return { reads, dryRuns, writes: log.length - reads - dryRuns, operations };
}

/**
 * @param {{ installedDir: string, disabled?: number, remediation?: number, log?: (line: string) => void }} options
 */
export async function runBenchV2({ installedDir, disabled: disabledCount = 5000, remediation: remediationCount = 50, log = () => {} }) {
  if (!(disabledCount >= 2)) throw new Error("the v2 stack needs at least 2 disabled rules (change-one moves one out)");
  const emulator = await startEmulator({ preset: "large", policiesV2: true });
  try {
    const before = await bundlesOf(emulator);
    const live = { disabled: before.detection.code.bundle.disabled, remediation: before.remediation.bundle.policies };
    const spec = { disabled: disabledPaths(live.disabled, disabledCount), remediation: remediationPolicies(remediationCount) };
    // change-one: the first rule of the list is turned back on.
    const changed = spec.disabled.slice(1);
    const minimum = minimumV2Requests(live, spec, changed);
    const resources = 1 + remediationCount;
    log(
      `v2 stack: ${resources} resources (1 DetectionPolicy with ${disabledCount} disabled rules, ${remediationCount} RemediationPolicy); ` +
        `the preset's code bundle disables ${live.disabled.length}`,
    );
    const stack = await pulumiWorkspace(
      { "Pulumi.yaml": "name: bench-v2\nruntime: nodejs\n", "index.js": V2_PROGRAM, "spec.json": JSON.stringify(spec) },
      { SEMGREP_APP_URL: emulator.url, SEMGREP_APP_TOKEN: emulator.token },
      join(installedDir, "node_modules"),
    );
    let stateBytes = 0;
    /** @type {Record<string, { count: number, bytes: number }>} */
    let byKind = {};
    let changeApplied = false;
    const phases = await runPhases(stack, emulator, {
      phases: V2_PHASES,
      commands: V2_COMMANDS,
      tally,
      before: async (phase) => {
        if (phase === "change-one") writeFileSync(join(stack.dir, "spec.json"), JSON.stringify({ ...spec, disabled: changed }));
      },
      between: async (phase) => {
        log(`  v2 ${phase} done`);
        if (phase === "up") {
          const exported = (await stack.run(["stack", "export"])).stdout;
          stateBytes = Buffer.byteLength(exported);
          byKind = stateBytesByKind(exported);
        }
        if (phase === "change-one") changeApplied = sameSet((await bundlesOf(emulator)).detection.code.bundle.disabled, changed);
      },
    });
    for (const phase of V2_PHASES) phases[phase].minimumRequests = minimum[phase].requests;
    const after = await bundlesOf(emulator);
    const detection = byKind.DetectionPolicy ?? { count: 0, bytes: 0 };
    const remediation = byKind.RemediationPolicy ?? { count: 0, bytes: 0 };
    return {
      resources,
      disabledRules: disabledCount,
      remediationPolicies: remediationCount,
      phases,
      minimum,
      stateBytes,
      stateBytesPerResource: Math.round(stateBytes / resources),
      stateBytesDetectionPolicy: detection.bytes,
      stateBytesPerDisabledRule: Number((detection.bytes / disabledCount).toFixed(1)),
      stateBytesPerRemediationPolicy: remediation.count ? Math.round(remediation.bytes / remediation.count) : 0,
      changeOneApplied: changeApplied,
      destroyRestoredBundles: JSON.stringify(after) === JSON.stringify(before),
    };
  } finally {
    await emulator.close();
  }
}

/** A short table of a v2 result. */
export function formatV2Table(result) {
  const cols = ["requests", "reads", "dry runs", "writes", "minimum", "wall s"];
  const lines = [
    `v2: 1 DetectionPolicy (code, ${result.disabledRules} disabled rules) + ${result.remediationPolicies} RemediationPolicy`,
    `${"phase".padEnd(10)} ${cols.map((c) => c.padStart(8)).join(" ")}`,
  ];
  for (const phase of V2_PHASES) {
    const p = result.phases[phase];
    const values = [p.requests, p.reads, p.dryRuns, p.writes, p.minimumRequests].map((v) => String(v).padStart(8));
    lines.push(`${phase.padEnd(10)} ${values.join(" ")} ${p.wallSeconds.toFixed(2).padStart(8)}`);
  }
  lines.push(
    `state bytes: ${result.stateBytes} in total, ${result.stateBytesPerResource} per resource; DetectionPolicy ${result.stateBytesDetectionPolicy} ` +
      `(${result.stateBytesPerDisabledRule} per disabled rule); RemediationPolicy ${result.stateBytesPerRemediationPolicy} each`,
    `change-one applied: ${result.changeOneApplied}; destroy restored the bundles exactly: ${result.destroyRestoredBundles}`,
  );
  return lines.join("\n");
}
