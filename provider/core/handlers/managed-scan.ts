/** ManagedScan in the provider process: the diff-scan and full-scan toggles of one project. */
import type { ManagedScanRequest, Project } from "../../client";
import type { managedScanKind } from "../kinds";
import type { ScanToggle } from "../kinds/projects";
import type { Props } from "../runtime/check";
import { type Checked, declaredOutputs, type Handler, type Outputs } from "../runtime/handler";
import { about, unlessGone } from "../runtime/lookup";
import { managedFields } from "../runtime/managed";
import { fieldsToUndo, planApply, planUndo } from "../runtime/fields";
import { known, noteFieldsFoundAsDeclared } from "../runtime/owned";
import type { Claim } from "../runtime/ownership";
import { projectFieldMethods } from "./project-fields";
import { projectOf } from "./project-index";
import { liveManagedScans, projectObject, projectSubject } from "./projects";
import type { CallContext, Secrecy } from "../runtime/call-context";

const KIND = "ManagedScan";
type Kind = typeof managedScanKind;
type Inputs = Checked<Kind>;
const outputs = declaredOutputs<Kind>();

/** Its toggles, as the declaration gives them (runtime/managed.ts): values, originals, their outputs. */
const MANAGED = managedFields(KIND);
type Toggle = "diffScan" | "fullScan";
type Toggles = Partial<Record<Toggle, ScanToggle>>;

function toRequest(toggles: Toggles): ManagedScanRequest {
  return { ...(toggles.diffScan ? { diff_scan: toggles.diffScan } : {}), ...(toggles.fullScan ? { full_scan: toggles.fullScan } : {}) };
}

const liveOf = (project: Project): Pick<Outputs<Kind>, Toggle | "projectId"> => ({ ...liveManagedScans(project), projectId: project.id });
const enabled = (value: unknown) => (value as { enabled?: boolean } | undefined)?.enabled;
const sameToggle = (a: unknown, b: unknown) => enabled(a) === enabled(b);
function claimOf(secrecy: Secrecy, props: Props, toggle: string): Claim {
  return { object: projectObject(props), field: toggle, value: props[toggle], secret: secrecy.secret(toggle) };
}

/** What a ManagedScan declares: each toggle it sets. */
const claimsOf = (secrecy: Secrecy, declared: Props): Claim[] =>
  known(declared.deploymentSlug, declared.projectName) ? MANAGED.declared(declared).map((t) => claimOf(secrecy, declared, t)) : [];

/**
 * Applies the declared toggles to a project whose last known values are `live`; the first write
 * that changes a toggle records what it had as its original (see fields.ts planApply).
 */
async function apply(
  ctx: CallContext,
  declared: Inputs,
  live: Props,
  before: { managed: string[]; originals: Props },
): Promise<Outputs<Kind>> {
  const toggles = MANAGED.declared(declared);
  const fields = toggles.map((t) => ({
    name: t,
    wanted: declared[t as Toggle],
    have: live[t],
    differs: !sameToggle(live[t], declared[t as Toggle]),
  }));
  const plan = planApply(fields, before);
  await noteFieldsFoundAsDeclared(ctx, projectObject(declared), plan.foundAsDeclared);
  const project = Object.keys(plan.changes).length
    ? await projectOf(declared).updateManagedScans(toRequest(plan.changes as Toggles))
    : undefined;
  const current = project ? liveOf(project) : (live as Pick<Outputs<Kind>, Toggle | "projectId">);
  return outputs({
    ...declared,
    diffScan: current.diffScan,
    fullScan: current.fullScan,
    projectId: current.projectId,
    ...MANAGED.originalOutputs(plan.originals),
    managedFields: toggles,
  });
}

export const managedScan: Handler<Kind> = {
  ...projectFieldMethods<Kind>({ kind: KIND, claims: claimsOf, live: liveOf, apply }),

  delete: (_id, props, ctx) =>
    about(projectSubject(KIND, props), async () => {
      if (props.restoreOnDelete === false) return;
      const fields = fieldsToUndo(MANAGED.names, {
        claim: (t) => claimOf(ctx, props, t),
        originals: MANAGED.originals(props),
        last: props,
        same: (_t, a, b) => sameToggle(a, b),
        managed: MANAGED.managed(props),
      });
      const back = (await planUndo(ctx, fields)) as Toggles;
      if (Object.keys(back).length) await unlessGone(() => projectOf(props).updateManagedScans(toRequest(back)));
    }),
};
