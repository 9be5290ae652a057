/** ManagedScan in the provider process: the diff-scan and full-scan toggles of one project. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { ManagedScanRequest, Project } from "../client";
import type { Props } from "./check";
import { diffDeclared, type FieldRule } from "./diff";
import { deploymentSlug, projectName, restoreOnDelete, toggle } from "./inputs";
import { about, unlessGone } from "./lookup";
import { type Claim, checkOwned, diffOwned, holderOf, known, noteFoundAsDeclared, settleOwner, warnHandedOver } from "./owned";
import { projectOf } from "./project-index";
import { liveManagedScans, projectObject, projectResourceId, projectSubject, requireProject } from "./projects";
import { metaOutputs, refreshedMetaInputs, shown } from "./resource-meta";

const KIND = "ManagedScan";

export const inputs = z
  .strictObject({ deploymentSlug, projectName, diffScan: toggle.optional(), fullScan: toggle.optional(), restoreOnDelete })
  .refine((declared) => declared.diffScan !== undefined || declared.fullScan !== undefined, {
    message: "declare diffScan, fullScan or both: a ManagedScan without either manages nothing",
    path: ["diffScan"],
  });
type Inputs = z.output<typeof inputs>;

const TOGGLES = ["diffScan", "fullScan"] as const;
type Toggle = (typeof TOGGLES)[number];
type Toggles = Partial<Record<Toggle, { enabled: boolean }>>;

const ORIGINAL_OUTPUT = { diffScan: "originalDiffScan", fullScan: "originalFullScan" } as const;

const FIELDS: FieldRule[] = [
  { name: "deploymentSlug", replaces: true },
  { name: "projectName", replaces: true },
  { name: "diffScan" },
  { name: "fullScan" },
];

const declaredToggles = (props: Props): Toggle[] => TOGGLES.filter((t) => props[t] !== undefined);

/** The toggles the resource managed: its `managedFields`, or, in state written before that output, those with an original. */
function managedTogglesOf(props: Props): Toggle[] {
  if (Array.isArray(props.managedFields)) return TOGGLES.filter((t) => (props.managedFields as string[]).includes(t));
  return TOGGLES.filter((t) => props[ORIGINAL_OUTPUT[t]] !== undefined);
}

function toRequest(toggles: Toggles): ManagedScanRequest {
  return { ...(toggles.diffScan ? { diff_scan: toggles.diffScan } : {}), ...(toggles.fullScan ? { full_scan: toggles.fullScan } : {}) };
}

const liveOf = (project: Project): Props => ({ ...liveManagedScans(project), projectId: project.id });
const enabled = (value: unknown) => (value as { enabled?: boolean } | undefined)?.enabled;
const claimOf = (props: Props, toggle: Toggle): Claim => ({ object: projectObject(props), field: toggle });

/**
 * Applies the declared toggles to a project whose last known values are `live`; a toggle managed
 * for the first time records what it had as its original when this write changes it.
 */
async function apply(declared: Inputs, props: Props, live: Props, before: { managed: Toggle[]; originals: Props }): Promise<Props> {
  const changes: Toggles = {};
  const originals: Props = {};
  const foundAsDeclared: Toggle[] = [];
  for (const toggle of declaredToggles(declared)) {
    const differs = enabled(live[toggle]) !== declared[toggle]!.enabled;
    if (differs) changes[toggle] = declared[toggle];
    const output = ORIGINAL_OUTPUT[toggle];
    if (before.managed.includes(toggle)) originals[output] = before.originals[output];
    else if (differs) originals[output] = live[toggle];
    else foundAsDeclared.push(toggle);
  }
  if (foundAsDeclared.length) {
    const plural = foundAsDeclared.length > 1;
    const unset = `${foundAsDeclared.map((t) => ORIGINAL_OUTPUT[t]).join(", ")} ${plural ? "stay" : "stays"} unset`;
    await noteFoundAsDeclared(KIND, props, { what: `the ${foundAsDeclared.join(" and ")} of ${projectObject(declared)}`, plural, unset });
  }
  const project = Object.keys(changes).length ? await projectOf(declared).updateManagedScans(toRequest(changes)) : undefined;
  const current = project ? liveOf(project) : { diffScan: live.diffScan, fullScan: live.fullScan, projectId: live.projectId };
  return { ...declared, ...metaOutputs(props), ...current, ...originals, managedFields: declaredToggles(declared) };
}

export const managedScan = {
  check: (_olds: Props, news: Props) =>
    checkOwned(KIND, inputs, news, (declared) =>
      known(declared.deploymentSlug, declared.projectName) ? declaredToggles(declared).map((t) => claimOf(declared, t)) : [],
    ),

  diff: async (_id: string, olds: Props, news: Props) => {
    const result = diffDeclared(olds, news, FIELDS);
    // A toggle the program no longer declares is no longer managed: its original leaves the state.
    const dropped = managedTogglesOf(olds).some((t) => news[t] === undefined);
    return diffOwned(KIND, olds, news, { ...result, changes: result.changes || dropped });
  },

  create: (props: Props): Promise<pulumi.dynamic.CreateResult> => {
    const declared = props as Inputs;
    return about(projectSubject(KIND, declared), async () => {
      const project = await requireProject(declared.deploymentSlug, declared.projectName);
      const outs = await apply(declared, props, liveOf(project), { managed: [], originals: {} });
      settleOwner(KIND, props, "created");
      return { id: projectResourceId(declared), outs };
    });
  },

  read: (id: string, props: Props): Promise<pulumi.dynamic.ReadResult> =>
    about(projectSubject(KIND, props), async () => {
      const project = await unlessGone(projectOf(props).get);
      if (!project) return { id: "" };
      const live = liveOf(project);
      const { deploymentSlug: slug, projectName: name, restoreOnDelete: restore } = props;
      const inputs: Props = { deploymentSlug: slug, projectName: name, restoreOnDelete: restore, ...refreshedMetaInputs(KIND, props) };
      for (const toggle of managedTogglesOf(props)) inputs[toggle] = live[toggle];
      return { id, props: { ...props, ...live }, inputs };
    }),

  update: (_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> => {
    const declared = news as Inputs;
    return about(projectSubject(KIND, declared), async () => {
      const outs = await apply(declared, news, olds, { managed: managedTogglesOf(olds), originals: olds });
      settleOwner(KIND, news, "updated");
      return { outs };
    });
  },

  delete: (_id: string, props: Props): Promise<void> =>
    about(projectSubject(KIND, props), async () => {
      if (props.restoreOnDelete === false) return;
      const back: Toggles = {};
      for (const toggle of TOGGLES) {
        // Put back only the toggles that differ from the last known live value.
        const original = props[ORIGINAL_OUTPUT[toggle]] as { enabled: boolean } | undefined;
        if (!original || enabled(props[toggle]) === original.enabled) continue;
        const holder = holderOf(claimOf(props, toggle));
        if (!holder) {
          back[toggle] = original;
          continue;
        }
        const what = `the ${toggle} of ${projectObject(props)}`;
        const before = `its value before this stack managed it was ${shown(props, toggle, JSON.stringify(original))}`;
        await warnHandedOver({ kind: KIND, props, what, value: shown(props, toggle, JSON.stringify(props[toggle])), holder, before });
      }
      if (Object.keys(back).length) await unlessGone(() => projectOf(props).updateManagedScans(toRequest(back)));
    }),
};
