/** ManagedScan in the provider process: the diff-scan and full-scan toggles of one project. */
import type { ManagedScanRequest, Project } from "../../client";
import { fieldRules, type managedScanKind } from "../kinds";
import type { ScanToggle } from "../kinds/projects";
import type { Props } from "../runtime/check";
import { diffDeclared } from "../runtime/diff";
import { type Checked, declaredOutputs, type Handler, type Outputs } from "../runtime/handler";
import { about, unlessGone } from "../runtime/lookup";
import { fieldsToUndo, planApply, planUndo } from "../runtime/fields";
import { checkOwned, diffDropping, known, noteFieldsFoundAsDeclared } from "../runtime/owned";
import type { Claim } from "../runtime/ownership";
import { projectOf } from "./project-index";
import { createOnProject, liveManagedScans, projectObject, projectSubject, readProject } from "./projects";
import { refreshedMetaInputs, secretInputsOf } from "../runtime/resource-meta";

const KIND = "ManagedScan";
type Kind = typeof managedScanKind;
type Inputs = Checked<Kind>;
const outputs = declaredOutputs<Kind>();

const TOGGLES = ["diffScan", "fullScan"] as const;
type Toggle = (typeof TOGGLES)[number];
type Toggles = Partial<Record<Toggle, ScanToggle>>;

const ORIGINAL_OUTPUT = { diffScan: "originalDiffScan", fullScan: "originalFullScan" } as const;

const declaredToggles = (props: Props): Toggle[] => TOGGLES.filter((t) => props[t] !== undefined);

/** The toggles the resource managed: its `managedFields`, or, in state written before that output, those with an original. */
function managedTogglesOf(props: Props): Toggle[] {
  if (Array.isArray(props.managedFields)) return TOGGLES.filter((t) => (props.managedFields as string[]).includes(t));
  return TOGGLES.filter((t) => props[ORIGINAL_OUTPUT[t]] !== undefined);
}

function toRequest(toggles: Toggles): ManagedScanRequest {
  return { ...(toggles.diffScan ? { diff_scan: toggles.diffScan } : {}), ...(toggles.fullScan ? { full_scan: toggles.fullScan } : {}) };
}

const liveOf = (project: Project): Pick<Outputs<Kind>, Toggle | "projectId"> => ({ ...liveManagedScans(project), projectId: project.id });
const enabled = (value: unknown) => (value as { enabled?: boolean } | undefined)?.enabled;
const sameToggle = (a: unknown, b: unknown) => enabled(a) === enabled(b);
/** Each toggle's original, as the outputs `props` record it (`originalDiffScan`, `originalFullScan`). */
const originalsOf = (props: Props): Toggles => Object.fromEntries(TOGGLES.map((t) => [t, props[ORIGINAL_OUTPUT[t]]]));

function claimOf(props: Props, toggle: Toggle): Claim {
  return { object: projectObject(props), field: toggle, value: props[toggle], secret: secretInputsOf(props).includes(toggle) };
}

/** What a ManagedScan in this state recorded as each toggle's original (`null` for none). */
const recorded = (outputs: Props) => Object.fromEntries(managedTogglesOf(outputs).map((t) => [t, outputs[ORIGINAL_OUTPUT[t]] ?? null]));

/**
 * Applies the declared toggles to a project whose last known values are `live`; the first write
 * that changes a toggle records what it had as its original (see fields.ts planApply).
 */
async function apply(declared: Inputs, live: Props, before: { managed: Toggle[]; originals: Props }): Promise<Outputs<Kind>> {
  const toggles = declaredToggles(declared);
  const fields = toggles.map((t) => ({ name: t, wanted: declared[t], have: live[t], differs: !sameToggle(live[t], declared[t]) }));
  const plan = planApply(fields, { managed: before.managed, originals: originalsOf(before.originals) });
  await noteFieldsFoundAsDeclared(KIND, declared, projectObject(declared), plan.foundAsDeclared, (t) => ORIGINAL_OUTPUT[t as Toggle]);
  const project = Object.keys(plan.changes).length
    ? await projectOf(declared).updateManagedScans(toRequest(plan.changes as Toggles))
    : undefined;
  const current = project ? liveOf(project) : (live as Pick<Outputs<Kind>, Toggle | "projectId">);
  const originals = plan.originals as Toggles;
  return outputs({
    ...declared,
    diffScan: current.diffScan,
    fullScan: current.fullScan,
    projectId: current.projectId,
    originalDiffScan: originals.diffScan,
    originalFullScan: originals.fullScan,
    managedFields: toggles,
  });
}

export const managedScan: Handler<Kind> = {
  recorded,

  check: (_olds, news) =>
    checkOwned(KIND, news, (declared) =>
      known(declared.deploymentSlug, declared.projectName) ? declaredToggles(declared).map((t) => claimOf(declared, t)) : [],
    ),

  diff: async (_id, olds, news) => {
    // A toggle the program no longer declares is no longer managed: its original leaves the state.
    const dropped = managedTogglesOf(olds).filter((t) => news[t] === undefined);
    return diffDropping(KIND, olds, news, diffDeclared(olds, news, fieldRules(KIND)), {
      object: projectObject(news),
      fields: dropped.map((t) => ({ name: t, original: olds[ORIGINAL_OUTPUT[t]], last: olds[t] })),
    });
  },

  create: (declared) => createOnProject(KIND, declared, (project) => apply(declared, liveOf(project), { managed: [], originals: {} })),

  read: (id, props) =>
    readProject(KIND, id, props, (project) => {
      const live = liveOf(project);
      const { deploymentSlug: slug, projectName: name, restoreOnDelete: restore } = props;
      const inputs: Props = { deploymentSlug: slug, projectName: name, restoreOnDelete: restore, ...refreshedMetaInputs(KIND, props) };
      for (const toggle of managedTogglesOf(props)) inputs[toggle] = live[toggle];
      return { props: { ...props, ...live }, inputs };
    }),

  update: (_id, olds, declared) =>
    about(projectSubject(KIND, declared), async () => {
      const outs = await apply(declared, olds, { managed: managedTogglesOf(olds), originals: olds });
      return { outs };
    }),

  delete: (_id, props) =>
    about(projectSubject(KIND, props), async () => {
      if (props.restoreOnDelete === false) return;
      const fields = fieldsToUndo(TOGGLES, {
        claim: (t) => claimOf(props, t),
        originals: originalsOf(props),
        last: props,
        same: (_t, a, b) => sameToggle(a, b),
      });
      const back = (await planUndo(KIND, props, fields)) as Toggles;
      if (Object.keys(back).length) await unlessGone(() => projectOf(props).updateManagedScans(toRequest(back)));
    }),
};
