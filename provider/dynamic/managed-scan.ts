/** ManagedScan in the provider process: the diff-scan and full-scan toggles of one project. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { ManagedScanRequest, Project } from "../client";
import { checkInputs, type Props } from "./check";
import { projectOf } from "./project-index";
import { changedFields, covers, diffDeclared, type FieldRule } from "./diff";
import { deploymentSlug, projectName, restoreOnDelete, toggle } from "./inputs";
import { about, readUnlessGone } from "./lookup";
import { liveManagedScans, projectResourceId, projectSubject, requireProject } from "./projects";

export const inputs = z.strictObject({ deploymentSlug, projectName, diffScan: toggle.optional(), fullScan: toggle.optional(), restoreOnDelete });
type Inputs = z.output<typeof inputs>;

const FIELDS: FieldRule[] = [
  { name: "deploymentSlug", replaces: true },
  { name: "projectName", replaces: true },
  { name: "diffScan" },
  { name: "fullScan" },
];

type Toggles = Pick<Inputs, "diffScan" | "fullScan">;

function toRequest(toggles: Toggles): ManagedScanRequest {
  return { ...(toggles.diffScan ? { diff_scan: toggles.diffScan } : {}), ...(toggles.fullScan ? { full_scan: toggles.fullScan } : {}) };
}

function outputs(declared: Inputs, live: Props, originals: Props): Props {
  return { ...declared, diffScan: live.diffScan, fullScan: live.fullScan, projectId: live.projectId, ...originals };
}

const liveOf = (project: Project): Props => ({ ...liveManagedScans(project), projectId: project.id });

/** For each declared toggle, the value found before this resource managed it. */
function recordOriginals(declared: Inputs, live: Props, previous: Props = {}): Props {
  const originals: Props = {};
  if (declared.diffScan) originals.originalDiffScan = previous.originalDiffScan ?? live.diffScan;
  if (declared.fullScan) originals.originalFullScan = previous.originalFullScan ?? live.fullScan;
  return originals;
}

/** Only the declared toggles that differ from the live ones. */
function changes(live: Props, declared: Inputs): ManagedScanRequest {
  const changed = new Set(changedFields(live, declared, FIELDS).map((f) => f.name));
  return toRequest({ diffScan: changed.has("diffScan") ? declared.diffScan : undefined, fullScan: changed.has("fullScan") ? declared.fullScan : undefined });
}

export const managedScan = {
  check: (_olds: Props, news: Props) => checkInputs(inputs, news),

  diff: async (_id: string, olds: Props, news: Props) => diffDeclared(olds, news, FIELDS),

  create: (props: Props): Promise<pulumi.dynamic.CreateResult> => {
    const declared = props as Inputs;
    return about(projectSubject("ManagedScan", declared), async () => {
      let project = await requireProject(declared.deploymentSlug, declared.projectName);
      const live = liveManagedScans(project);
      const originals = recordOriginals(declared, live);
      const body = changes(live, declared);
      if (Object.keys(body).length) project = await projectOf(declared).updateManagedScans(body);
      return { id: projectResourceId(declared), outs: outputs(declared, liveOf(project), originals) };
    });
  },

  read: (id: string, props: Props): Promise<pulumi.dynamic.ReadResult> =>
    about(projectSubject("ManagedScan", props), async () => {
      const project = await readUnlessGone(projectOf(props).get);
      if (!project) return { id: "" };
      const live = liveManagedScans(project);
      const inputs: Props = { deploymentSlug: props.deploymentSlug, projectName: props.projectName, restoreOnDelete: props.restoreOnDelete };
      if (props.originalDiffScan !== undefined) inputs.diffScan = live.diffScan;
      if (props.originalFullScan !== undefined) inputs.fullScan = live.fullScan;
      return { id, props: { ...props, ...liveOf(project) }, inputs };
    }),

  update: (_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> => {
    const declared = news as Inputs;
    return about(projectSubject("ManagedScan", declared), async () => {
      const originals = recordOriginals(declared, olds, olds);
      const body = changes(olds, declared);
      if (!Object.keys(body).length) return { outs: outputs(declared, olds, originals) };
      const project = await projectOf(declared).updateManagedScans(body);
      return { outs: outputs(declared, liveOf(project), originals) };
    });
  },

  delete: (_id: string, props: Props): Promise<void> =>
    about(projectSubject("ManagedScan", props), async () => {
      if (props.restoreOnDelete === false) return;
      // Put back only the toggles that differ from the last known live value.
      const back = (original: unknown, live: unknown) => (covers(live, original) ? undefined : (original as Toggles["diffScan"]));
      const body = toRequest({ diffScan: back(props.originalDiffScan, props.diffScan), fullScan: back(props.originalFullScan, props.fullScan) });
      if (!Object.keys(body).length) return;
      await readUnlessGone(() => projectOf(props).updateManagedScans(body));
    }),
};
