/** ProjectSettings in the provider process: primary branch, the whole tag set, managed-scan config. */
import type { UpdateProjectRequest } from "../../client";
import type { CallContext, Secrecy } from "../runtime/call-context";
import { isSystemTag, PRIMARY_BRANCH_FOLLOWS_DEFAULT } from "../../client/schemas";
import type { projectSettingsKind } from "../kinds";
import { branchHolds, followsDefault, managedTags } from "../kinds/project-settings";
import type { Props } from "../runtime/check";
import { sameSet } from "../runtime/diff";
import { type FieldToApply, fieldsToUndo, planApply, planUndo } from "../runtime/fields";
import { type Checked, declaredOutputs, type Handler, type Outputs } from "../runtime/handler";
import { about, unlessGone } from "../runtime/lookup";
import { managedFields } from "../runtime/managed";
import { known, noteFieldsFoundAsDeclared } from "../runtime/owned";
import { type Claim, holderOf } from "../runtime/ownership";
import { notify } from "../runtime/notices";
import { projectFieldMethods } from "./project-fields";
import { projectOf } from "./project-index";
import { keptProjectOutputs, projectObject, projectOutputs, projectSubject, heldTags, tagClaim } from "./projects";

const KIND = "ProjectSettings";

type Kind = typeof projectSettingsKind;
type Inputs = Checked<Kind>;
const outputs = declaredOutputs<Kind>();

/** Its managed fields, as the declaration gives them (runtime/managed.ts): values, originals, their outputs. */
const MANAGED = managedFields(KIND);
type Values = Record<string, unknown>;
const inputOf = (field: string) => field.split(".")[0]!;

/** Whether two values of `field` are the same (a ref, a tag set in any order, the system tags aside, a toggle). */
function same(field: string, a: unknown, b: unknown): boolean {
  if (field === "tags") return sameSet(managedTags(a), managedTags(b));
  if (field.startsWith("managedScanConfig."))
    return (a as { enabled?: boolean } | undefined)?.enabled === (b as { enabled?: boolean } | undefined)?.enabled;
  return a === b || JSON.stringify(a) === JSON.stringify(b); // a branch, or any plain value a new field holds
}

/** A field as claims name it: a toggle by its short name, as ManagedScan declares it. */
const claimField = (field: string) => field.replace("managedScanConfig.", "");

/**
 * The PATCH body that sets these field values. A tag set keeps the system tags the project has
 * (`liveTags`, its last known tags): the service keeps them whatever the PATCH sends, and a client
 * that sends them back never asks for their removal.
 */
function request(values: Values, liveTags: unknown): UpdateProjectRequest {
  const body: UpdateProjectRequest = {};
  if (values.primaryBranch !== undefined) body.primary_branch = values.primaryBranch as string;
  if (values.tags !== undefined) {
    const system = Array.isArray(liveTags) ? (liveTags as string[]).filter(isSystemTag) : [];
    body.tags = [...(managedTags(values.tags) ?? []), ...system];
  }
  const diffScan = values["managedScanConfig.diffScan"] as { enabled: boolean } | undefined;
  const fullScan = values["managedScanConfig.fullScan"] as { enabled: boolean } | undefined;
  if (diffScan || fullScan) {
    body.managed_scan_config = { ...(diffScan ? { diff_scan: diffScan } : {}), ...(fullScan ? { full_scan: fullScan } : {}) };
  }
  return body;
}

/** A field of this project, as conflicts and hand-overs name it (a toggle by its short name, as ManagedScan declares it). */
function claimOf(secrecy: Secrecy, props: Props, field: string): Claim {
  return {
    object: projectObject(props),
    field: claimField(field),
    property: field,
    value: MANAGED.values(props)[field],
    secret: secrecy.secret(inputOf(field)),
  };
}

/** What a ProjectSettings declares: its fields, and each of its tags (so that a ProjectTags' delete leaves them alone). */
function claimsOf(secrecy: Secrecy, declared: Props): Claim[] {
  if (!known(declared.deploymentSlug, declared.projectName)) return [];
  const secret = secrecy.secret("tags");
  const tags = Array.isArray(declared.tags) ? declared.tags.filter((t) => known(t)).map((t) => tagClaim(declared, String(t), secret)) : [];
  return [...MANAGED.declared(declared).map((field) => claimOf(secrecy, declared, field)), ...tags];
}

/**
 * Applies the declared fields to a project whose last known values are `live` (see planApply).
 * `primaryBranch: "None"` is written unless this resource already made the project follow its
 * default branch: the service shows a followed branch and one pinned to the same name alike.
 */
async function apply(
  ctx: CallContext,
  declared: Inputs,
  live: Props,
  before: { managed: string[]; originals: Values },
): Promise<Outputs<Kind>> {
  const wanted = MANAGED.values(declared);
  const have = MANAGED.values(live);
  const fields: FieldToApply[] = MANAGED.declared(declared).map((field) => {
    // The tags found are recorded without the system tags: destroy puts back only the stack's.
    const found = field === "tags" ? managedTags(have.tags) : have[field];
    if (field !== "primaryBranch") return { name: field, wanted: wanted[field], have: found, differs: !same(field, found, wanted[field]) };
    const follows = wanted.primaryBranch === PRIMARY_BRANCH_FOLLOWS_DEFAULT;
    // A branch equal to the default one may have been followed or pinned: nothing to record then.
    return {
      name: field,
      wanted: wanted[field],
      // A project this resource made follow its default branch: what a change replaces is "None", not the branch it shows.
      have: followsDefault(live) ? PRIMARY_BRANCH_FOLLOWS_DEFAULT : have[field],
      differs: !branchHolds(live, wanted[field]),
      recordable: !follows || have[field] !== live.defaultBranch,
    };
  });
  const plan = planApply(fields, before);
  await noteFieldsFoundAsDeclared(ctx, projectObject(declared), plan.foundAsDeclared);
  if (plan.unrecordable.length) {
    await notify(
      "info",
      `${ctx.name}: the primary branch of ` +
        `${projectObject(declared)} was ${String(have.primaryBranch)}, its default branch; ` +
        "the service does not say whether it followed the default branch or was pinned to it, " +
        "so nothing is recorded to put back on delete (originalPrimaryBranch stays unset).",
    );
  }
  const project = Object.keys(plan.changes).length ? await projectOf(declared).update(request(plan.changes, live.tags)) : undefined;
  const follows = declared.primaryBranch === PRIMARY_BRANCH_FOLLOWS_DEFAULT ? { followsDefaultBranch: true } : {};
  return outputs({
    ...declared,
    ...(project ? projectOutputs(project) : keptProjectOutputs(live)),
    ...MANAGED.originalOutputs(plan.originals),
    managedFields: MANAGED.declared(declared),
    ...follows,
  });
}

/**
 * Undoing the whole tag set when a ProjectTags of the run now holds the project's tags: the
 * original set plus the tags ProjectTags resources hold, so that neither side loses its own.
 */
async function undoTagsBesideProjectTags(ctx: CallContext, props: Props, original: string[]): Promise<string[] | undefined> {
  const live = managedTags(props.tags) ?? [];
  const held = heldTags(props).filter(({ tag }) => !original.includes(tag));
  const restored = [...original, ...held.map(({ tag }) => tag)];
  if (held.length) {
    const kept = held.map(({ tag, secret }) => (secret ? "[secret]" : JSON.stringify(tag))).join(", ");
    await notify(
      "warning",
      `${ctx.name} was deleted: it put back the tags of ` +
        `${projectObject(props)} it found, and kept ${kept}, which ProjectTags of the stack declare. ` +
        "A ProjectTags that found such a tag already there did not add it, so destroying it will leave the tag.",
    );
  }
  return sameSet(restored, live) ? undefined : restored;
}

export const projectSettings: Handler<Kind> = {
  ...projectFieldMethods<Kind>({ kind: KIND, claims: claimsOf, live: projectOutputs, apply, claimField }),

  delete: (_id, props, ctx) =>
    about(projectSubject(KIND, props), async () => {
      if (props.restoreOnDelete === false) return;
      // A project this resource made follow its default branch shows that branch, but holds "None".
      const live = { ...MANAGED.values(props), ...(followsDefault(props) ? { primaryBranch: PRIMARY_BRANCH_FOLLOWS_DEFAULT } : {}) };
      const originals = MANAGED.originals(props);
      const back: Values = {};
      // The tag set left to ProjectTags of the run (shared holders), not to another ProjectSettings.
      const tagsHolder = originals.tags !== undefined ? holderOf(claimOf(ctx, props, "tags")) : undefined;
      if (tagsHolder?.shared) {
        const tags = await undoTagsBesideProjectTags(ctx, props, originals.tags as string[]);
        if (tags) back.tags = tags;
      }
      const undone = MANAGED.names.filter((field) => !(field === "tags" && tagsHolder?.shared));
      const fields = fieldsToUndo(undone, {
        claim: (field) => claimOf(ctx, props, field),
        originals,
        last: live,
        same,
        managed: MANAGED.managed(props),
      });
      Object.assign(back, await planUndo(ctx, fields));
      if (Object.keys(back).length) await unlessGone(() => projectOf(props).update(request(back, props.tags)));
    }),
};
