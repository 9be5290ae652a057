/** ProjectSettings in the provider process: primary branch, the whole tag set, managed-scan config. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { UpdateProjectRequest } from "../client";
import { PRIMARY_BRANCH_FOLLOWS_DEFAULT } from "../client/schemas";
import { checkInputs, type Props } from "./check";
import { projectOf } from "./project-index";
import { changedFields, diffDeclared, type FieldRule, sameSet } from "./diff";
import { deploymentSlug, primaryBranch, projectName, restoreOnDelete, tagList, toggle } from "./inputs";
import { about, readUnlessGone } from "./lookup";
import { keptProjectOutputs, type ManagedScans, projectOutputs, projectResourceId, projectSubject, requireProject } from "./projects";

export const inputs = z.strictObject({
  deploymentSlug,
  projectName,
  primaryBranch: primaryBranch.optional(),
  tags: tagList.optional(),
  managedScanConfig: z.strictObject({ diffScan: toggle.optional(), fullScan: toggle.optional() }).optional(),
  restoreOnDelete,
});
type Inputs = z.output<typeof inputs>;

/** The values a resource found before it managed them, for the fields it manages. */
interface Originals {
  originalPrimaryBranch?: string;
  originalTags?: string[];
  originalManagedScanConfig?: ManagedScans;
}

const FIELDS: FieldRule[] = [
  { name: "deploymentSlug", replaces: true },
  { name: "projectName", replaces: true },
  {
    name: "primaryBranch",
    equal: (live: unknown, declared: unknown, olds: Props) =>
      declared === PRIMARY_BRANCH_FOLLOWS_DEFAULT ? live === olds.defaultBranch : live === declared,
  },
  { name: "tags", equal: sameSet },
  { name: "managedScanConfig" },
];

/** The PATCH body that makes `live` match what `declared` sets; empty when it already does. */
function changes(live: Props, declared: Inputs): UpdateProjectRequest {
  const body: UpdateProjectRequest = {};
  const changed = new Set(changedFields(live, declared, FIELDS).map((f) => f.name));
  if (changed.has("primaryBranch")) body.primary_branch = declared.primaryBranch;
  if (changed.has("tags")) body.tags = declared.tags;
  if (changed.has("managedScanConfig")) {
    const { diffScan, fullScan } = declared.managedScanConfig ?? {};
    body.managed_scan_config = { ...(diffScan ? { diff_scan: diffScan } : {}), ...(fullScan ? { full_scan: fullScan } : {}) };
  }
  return body;
}

/** What the resource found for each field it manages and has no original for yet. */
function recordOriginals(declared: Inputs, live: Props, previous: Originals = {}): Originals {
  const originals: Originals = {};
  if (declared.primaryBranch !== undefined) originals.originalPrimaryBranch = previous.originalPrimaryBranch ?? (live.primaryBranch as string);
  if (declared.tags !== undefined) originals.originalTags = previous.originalTags ?? (live.tags as string[]);
  if (declared.managedScanConfig !== undefined) {
    const liveScans = live.managedScanConfig as ManagedScans;
    const before = previous.originalManagedScanConfig ?? {};
    originals.originalManagedScanConfig = {
      ...(declared.managedScanConfig.diffScan ? { diffScan: before.diffScan ?? liveScans.diffScan } : {}),
      ...(declared.managedScanConfig.fullScan ? { fullScan: before.fullScan ?? liveScans.fullScan } : {}),
    };
  }
  return originals;
}

function outputs(declared: Inputs, live: Props, originals: Originals): Props {
  // `primaryBranch` holds the live ref; remember when the program asked to follow the default branch.
  const follows = declared.primaryBranch === PRIMARY_BRANCH_FOLLOWS_DEFAULT ? { followsDefaultBranch: true } : {};
  return { ...declared, ...live, ...originals, ...follows };
}

/**
 * The inputs that make the next diff right after a refresh: the live value of each managed field.
 * `read` sees only the outputs, where every live value is present; the recorded originals say
 * which fields the program manages.
 */
function refreshedInputs(props: Props, live: Props): Props {
  const { originalPrimaryBranch, originalTags, originalManagedScanConfig } = pickOriginals(props);
  const inputs: Props = { deploymentSlug: props.deploymentSlug, projectName: props.projectName, restoreOnDelete: props.restoreOnDelete };
  if (originalPrimaryBranch !== undefined) {
    const stillFollows = props.followsDefaultBranch === true && live.primaryBranch === live.defaultBranch;
    inputs.primaryBranch = stillFollows ? PRIMARY_BRANCH_FOLLOWS_DEFAULT : live.primaryBranch;
  }
  if (originalTags !== undefined) inputs.tags = live.tags;
  if (originalManagedScanConfig !== undefined) {
    const liveScans = live.managedScanConfig as ManagedScans;
    inputs.managedScanConfig = {
      ...(originalManagedScanConfig.diffScan ? { diffScan: liveScans.diffScan } : {}),
      ...(originalManagedScanConfig.fullScan ? { fullScan: liveScans.fullScan } : {}),
    };
  }
  return inputs;
}

function pickOriginals(props: Props): Originals {
  const { originalPrimaryBranch, originalTags, originalManagedScanConfig } = props as Originals;
  return { originalPrimaryBranch, originalTags, originalManagedScanConfig };
}

export const projectSettings = {
  check: (_olds: Props, news: Props) => checkInputs(inputs, news),

  diff: async (_id: string, olds: Props, news: Props) => diffDeclared(olds, news, FIELDS),

  create: (props: Props): Promise<pulumi.dynamic.CreateResult> => {
    const declared = props as Inputs;
    return about(projectSubject("ProjectSettings", declared), async () => {
      let project = await requireProject(declared.deploymentSlug, declared.projectName);
      const live = projectOutputs(project);
      const originals = recordOriginals(declared, live);
      const body = changes(live, declared);
      if (Object.keys(body).length) project = await projectOf(declared).update(body);
      return { id: projectResourceId(declared), outs: outputs(declared, projectOutputs(project), originals) };
    });
  },

  read: (id: string, props: Props): Promise<pulumi.dynamic.ReadResult> =>
    about(projectSubject("ProjectSettings", props), async () => {
      const project = await readUnlessGone(projectOf(props).get);
      if (!project) return { id: "" };
      const live = { ...props, ...projectOutputs(project) };
      return { id, props: live, inputs: refreshedInputs(props, live) };
    }),

  update: (_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> => {
    const declared = news as Inputs;
    return about(projectSubject("ProjectSettings", declared), async () => {
      const originals = recordOriginals(declared, olds, pickOriginals(olds));
      const body = changes(olds, declared);
      if (!Object.keys(body).length) return { outs: outputs(declared, keptProjectOutputs(olds), originals) };
      const project = await projectOf(declared).update(body);
      return { outs: outputs(declared, projectOutputs(project), originals) };
    });
  },

  delete: (_id: string, props: Props): Promise<void> =>
    about(projectSubject("ProjectSettings", props), async () => {
      if (props.restoreOnDelete === false) return;
      // Put back only what differs from the last known live value: the fewest writes.
      const { originalPrimaryBranch, originalTags, originalManagedScanConfig } = pickOriginals(props);
      const liveScans = props.managedScanConfig as ManagedScans | undefined;
      const toggleBack = (name: keyof ManagedScans) => {
        const original = originalManagedScanConfig?.[name];
        return original && original.enabled !== liveScans?.[name]?.enabled ? original : undefined;
      };
      const diffScan = toggleBack("diffScan");
      const fullScan = toggleBack("fullScan");
      const body: UpdateProjectRequest = {
        ...(originalPrimaryBranch !== undefined && originalPrimaryBranch !== props.primaryBranch ? { primary_branch: originalPrimaryBranch } : {}),
        ...(originalTags !== undefined && !sameSet(originalTags, props.tags) ? { tags: originalTags } : {}),
        ...(diffScan || fullScan ? { managed_scan_config: { ...(diffScan ? { diff_scan: diffScan } : {}), ...(fullScan ? { full_scan: fullScan } : {}) } } : {}),
      };
      if (!Object.keys(body).length) return;
      await readUnlessGone(() => projectOf(props).update(body));
    }),
};
