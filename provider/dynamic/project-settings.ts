/** ProjectSettings in the provider process: primary branch, the whole tag set, managed-scan config. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { UpdateProjectRequest } from "../client";
import { PRIMARY_BRANCH_FOLLOWS_DEFAULT } from "../client/schemas";
import type { Props } from "./check";
import { diffDeclared, type FieldRule, sameSet } from "./diff";
import { deploymentSlug, primaryBranch, projectName, restoreOnDelete, tagList, toggle } from "./inputs";
import { about, unlessGone } from "./lookup";
import { type Claim, checkOwned, diffOwned, holderOf, known, noteFoundAsDeclared, settleOwner, warnHandedOver } from "./owned";
import { projectOf } from "./project-index";
import { keptProjectOutputs, type ManagedScans, projectObject, projectOutputs, projectResourceId, projectSubject, requireProject } from "./projects";
import { metaOutputs, refreshedMetaInputs, shown } from "./resource-meta";

const KIND = "ProjectSettings";

export const inputs = z.strictObject({
  deploymentSlug,
  projectName,
  primaryBranch: primaryBranch.optional(),
  tags: tagList.optional(),
  managedScanConfig: z.strictObject({ diffScan: toggle.optional(), fullScan: toggle.optional() }).optional(),
  restoreOnDelete,
});
type Inputs = z.output<typeof inputs>;

/** The fields a ProjectSettings can manage, by the names of its `managedFields` output. */
const MANAGED = ["primaryBranch", "tags", "managedScanConfig.diffScan", "managedScanConfig.fullScan"] as const;
type Managed = (typeof MANAGED)[number];
type Values = Partial<Record<Managed, unknown>>;

const followsDefault = (props: Props) => props.followsDefaultBranch === true && props.primaryBranch === props.defaultBranch;

const FIELDS: FieldRule[] = [
  { name: "deploymentSlug", replaces: true },
  { name: "projectName", replaces: true },
  // "None" holds once this resource has asked the project to follow its default branch, and it still does.
  {
    name: "primaryBranch",
    equal: (live, declared, olds) => (declared === PRIMARY_BRANCH_FOLLOWS_DEFAULT ? followsDefault(olds) : live === declared),
  },
  { name: "tags", equal: sameSet },
  { name: "managedScanConfig" },
];

/** Each managed field's value in `props`: declared inputs, or live outputs (which carry every field). */
function valuesOf(props: Props): Values {
  const scans = props.managedScanConfig as ManagedScans | undefined;
  return {
    primaryBranch: props.primaryBranch,
    tags: props.tags,
    "managedScanConfig.diffScan": scans?.diffScan,
    "managedScanConfig.fullScan": scans?.fullScan,
  };
}

const declaredFields = (declared: Props): Managed[] => MANAGED.filter((field) => valuesOf(declared)[field] !== undefined);

/** Whether a value of `field` is the one wanted (a ref, a tag set in any order, a toggle). */
function same(field: Managed, value: unknown, wanted: unknown): boolean {
  if (field === "tags") return sameSet(value, wanted);
  if (field === "primaryBranch") return value === wanted;
  return (value as { enabled?: boolean } | undefined)?.enabled === (wanted as { enabled?: boolean } | undefined)?.enabled;
}

/** The fields the resource managed: its `managedFields`, or, in state written before that output, those with an original. */
function managedFieldsOf(props: Props): Managed[] {
  if (Array.isArray(props.managedFields)) return MANAGED.filter((field) => (props.managedFields as string[]).includes(field));
  const originals = originalsOf(props);
  return MANAGED.filter((field) => originals[field] !== undefined);
}

/** Where each field's original is kept. */
const ORIGINAL_OUTPUT: Record<Managed, string> = {
  primaryBranch: "originalPrimaryBranch",
  tags: "originalTags",
  "managedScanConfig.diffScan": "originalManagedScanConfig.diffScan",
  "managedScanConfig.fullScan": "originalManagedScanConfig.fullScan",
};

function originalsOf(props: Props): Values {
  return valuesOf({ primaryBranch: props.originalPrimaryBranch, tags: props.originalTags, managedScanConfig: props.originalManagedScanConfig });
}

function originalOutputs(originals: Values): Props {
  const diffScan = originals["managedScanConfig.diffScan"];
  const fullScan = originals["managedScanConfig.fullScan"];
  return {
    originalPrimaryBranch: originals.primaryBranch,
    originalTags: originals.tags,
    originalManagedScanConfig: diffScan || fullScan ? { diffScan, fullScan } : undefined,
  };
}

/** The PATCH body that sets these field values. */
function request(values: Values): UpdateProjectRequest {
  const body: UpdateProjectRequest = {};
  if (values.primaryBranch !== undefined) body.primary_branch = values.primaryBranch as string;
  if (values.tags !== undefined) body.tags = values.tags as string[];
  const diffScan = values["managedScanConfig.diffScan"] as { enabled: boolean } | undefined;
  const fullScan = values["managedScanConfig.fullScan"] as { enabled: boolean } | undefined;
  if (diffScan || fullScan) {
    body.managed_scan_config = { ...(diffScan ? { diff_scan: diffScan } : {}), ...(fullScan ? { full_scan: fullScan } : {}) };
  }
  return body;
}

/** What a claim of `field` on this project is called, for conflicts and hand-overs. */
function claimOf(props: Props, field: Managed): Claim {
  const short = field.replace("managedScanConfig.", "");
  return { object: projectObject(props), field: short, property: field };
}

/**
 * Applies the declared fields to a project whose last known values are `live`. A field is
 * written when it differs (`primaryBranch: "None"` unless this resource already made the project
 * follow its default branch, since the service shows a pinned and a following branch alike). A
 * field managed for the first time records what it had, as its original, when this write changes
 * it; one found as declared records nothing (see noteFoundAsDeclared).
 */
async function apply(declared: Inputs, props: Props, live: Props, before: { managed: Managed[]; originals: Values }): Promise<Props> {
  const wanted = valuesOf(declared);
  const have = valuesOf(live);
  const changes: Values = {};
  const originals: Values = {};
  const foundAsDeclared: Managed[] = [];
  for (const field of declaredFields(declared)) {
    const follows = field === "primaryBranch" && wanted.primaryBranch === PRIMARY_BRANCH_FOLLOWS_DEFAULT;
    const differs = follows ? !followsDefault(live) : !same(field, have[field], wanted[field]);
    if (differs) changes[field] = wanted[field];
    if (before.managed.includes(field)) {
      originals[field] = before.originals[field];
    } else if (follows ? have.primaryBranch !== live.defaultBranch : differs) {
      // (A primary branch equal to the default one may be following it or pinned to it: unknown.)
      originals[field] = have[field];
    } else {
      foundAsDeclared.push(field);
    }
  }
  if (foundAsDeclared.length) {
    const plural = foundAsDeclared.length > 1;
    const unset = `${foundAsDeclared.map((f) => ORIGINAL_OUTPUT[f]).join(", ")} ${plural ? "stay" : "stays"} unset`;
    await noteFoundAsDeclared(KIND, props, { what: `the ${foundAsDeclared.join(" and ")} of ${projectObject(declared)}`, plural, unset });
  }
  const project = Object.keys(changes).length ? await projectOf(declared).update(request(changes)) : undefined;
  const follows = declared.primaryBranch === PRIMARY_BRANCH_FOLLOWS_DEFAULT ? { followsDefaultBranch: true } : {};
  return {
    ...declared,
    ...metaOutputs(props),
    ...(project ? projectOutputs(project) : keptProjectOutputs(live)),
    ...originalOutputs(originals),
    managedFields: declaredFields(declared),
    ...follows,
  };
}

/**
 * The inputs that make the next diff right after a refresh: the live value of each managed field.
 * `read` sees only the outputs, where every live value is present; `managedFields` says which
 * the program manages.
 */
function refreshedInputs(props: Props, live: Props): Props {
  const managed = managedFieldsOf(props);
  const values = valuesOf(live);
  const { deploymentSlug: slug, projectName: name, restoreOnDelete: restore } = props;
  const inputs: Props = { deploymentSlug: slug, projectName: name, restoreOnDelete: restore, ...refreshedMetaInputs(KIND, props) };
  if (managed.includes("primaryBranch")) inputs.primaryBranch = followsDefault(live) ? PRIMARY_BRANCH_FOLLOWS_DEFAULT : live.primaryBranch;
  if (managed.includes("tags")) inputs.tags = live.tags;
  const scans = {
    ...(managed.includes("managedScanConfig.diffScan") ? { diffScan: values["managedScanConfig.diffScan"] } : {}),
    ...(managed.includes("managedScanConfig.fullScan") ? { fullScan: values["managedScanConfig.fullScan"] } : {}),
  };
  if (Object.keys(scans).length) inputs.managedScanConfig = scans;
  return inputs;
}

export const projectSettings = {
  check: (_olds: Props, news: Props) =>
    checkOwned(KIND, inputs, news, (declared) =>
      known(declared.deploymentSlug, declared.projectName) ? declaredFields(declared).map((field) => claimOf(declared, field)) : [],
    ),

  diff: async (_id: string, olds: Props, news: Props) => {
    const result = diffDeclared(olds, news, FIELDS);
    // A field the program no longer declares is no longer managed: its original leaves the state.
    const dropped = managedFieldsOf(olds).some((field) => !declaredFields(news).includes(field));
    return diffOwned(KIND, olds, news, { ...result, changes: result.changes || dropped });
  },

  create: (props: Props): Promise<pulumi.dynamic.CreateResult> => {
    const declared = props as Inputs;
    return about(projectSubject(KIND, declared), async () => {
      const project = await requireProject(declared.deploymentSlug, declared.projectName);
      const outs = await apply(declared, props, projectOutputs(project), { managed: [], originals: {} });
      settleOwner(KIND, props, "created");
      return { id: projectResourceId(declared), outs };
    });
  },

  read: (id: string, props: Props): Promise<pulumi.dynamic.ReadResult> =>
    about(projectSubject(KIND, props), async () => {
      const project = await unlessGone(projectOf(props).get);
      if (!project) return { id: "" };
      const live = { ...props, ...projectOutputs(project) };
      return { id, props: live, inputs: refreshedInputs(props, live) };
    }),

  update: (_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> => {
    const declared = news as Inputs;
    return about(projectSubject(KIND, declared), async () => {
      const outs = await apply(declared, news, olds, { managed: managedFieldsOf(olds), originals: originalsOf(olds) });
      settleOwner(KIND, news, "updated");
      return { outs };
    });
  },

  delete: (_id: string, props: Props): Promise<void> =>
    about(projectSubject(KIND, props), async () => {
      if (props.restoreOnDelete === false) return;
      const live = valuesOf(props);
      const back: Values = {};
      for (const [field, original] of Object.entries(originalsOf(props)) as Array<[Managed, unknown]>) {
        // Put back only what differs from the last known value: the fewest writes.
        if (original === undefined || same(field, live[field], original)) continue;
        const holder = holderOf(claimOf(props, field));
        if (!holder) {
          back[field] = original;
          continue;
        }
        const input = field.split(".")[0]!;
        const what = `the ${field} of ${projectObject(props)}`;
        const before = `its value before this stack managed it was ${shown(props, input, JSON.stringify(original))}`;
        await warnHandedOver({ kind: KIND, props, what, value: shown(props, input, JSON.stringify(live[field])), holder, before });
      }
      if (Object.keys(back).length) await unlessGone(() => projectOf(props).update(request(back)));
    }),
};
