/**
 * What the kinds that manage fields of one project (ProjectSettings, ManagedScan) do alike, all
 * but their delete: `claims` (which an import's check uses too) and `check`, which declares them
 * against the run's; `diff`, the one their managed declaration derives; `create`, which takes the
 * project over as found; `read`, which refreshes the live values; `update`, which applies what is
 * declared over the state's. A kind gives its API mapping: its claims, its live values and how it
 * applies a declaration.
 */
import type { Project } from "../../client";
import type { managedScanKind, projectSettingsKind } from "../kinds";
import type { CallContext, Secrecy } from "../runtime/call-context";
import type { Props } from "../runtime/check";
import type { Checked, Handler, Outputs } from "../runtime/handler";
import { about } from "../runtime/lookup";
import { managedFields } from "../runtime/managed";
import { checkOwned, diffManaged } from "../runtime/owned";
import type { Claim } from "../runtime/ownership";
import { createOnProject, projectObject, projectSubject, readProject } from "./projects";

type ProjectFieldKind = typeof projectSettingsKind | typeof managedScanKind;
/** The inputs both kinds identify their project by (checked before any method runs). */
type ProjectInputs = Props & { deploymentSlug: string; projectName: string };

export interface ProjectFields<D extends ProjectFieldKind> {
  kind: "ProjectSettings" | "ManagedScan";
  /** What a resource declaring `declared` claims of its project (none until its project is known). */
  claims(secrecy: Secrecy, declared: Props): Claim[];
  /** The project's live values, as this kind's outputs name them. */
  live(project: Project): Props;
  /** Applies the declared fields to a project whose last known values are `live`, given what the state recorded. */
  apply(ctx: CallContext, declared: Checked<D>, live: Props, before: { managed: string[]; originals: Props }): Promise<Outputs<D>>;
  /** A managed field as claims name it (default: itself). */
  claimField?: (field: string) => string;
}

export function projectFieldMethods<D extends ProjectFieldKind>(fields: ProjectFields<D>): Omit<Handler<D>, "delete"> {
  const { kind, live, apply } = fields;
  const managed = managedFields(kind);
  return {
    recorded: (outputs) => managed.recorded(outputs, fields.claimField),

    claims: (declared, secrecy) => fields.claims(secrecy, declared),

    check: (_olds, news, ctx) => checkOwned(kind, ctx, news, (declared) => fields.claims(ctx, declared)),

    // A field the program no longer declares is no longer managed: its original leaves the state.
    diff: async (_id, olds, news, ctx) => diffManaged(ctx, olds, news, projectObject(news)),

    create: (declared, ctx) =>
      createOnProject<Outputs<D>>(kind, declared as ProjectInputs, (project) =>
        apply(ctx, declared, live(project), { managed: [], originals: {} }),
      ),

    read: (id, props) =>
      readProject(kind, id, props, (project) => {
        const values = { ...props, ...live(project) };
        return { props: values, inputs: managed.refreshedInputs(props, values) };
      }),

    update: (_id, olds, declared, ctx) =>
      about(projectSubject(kind, declared), async () => ({ outs: await apply(ctx, declared, olds, managed.before(olds)) })),
  };
}
