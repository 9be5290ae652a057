/**
 * What the kinds that manage fields of one project (ProjectSettings, ManagedScan) do alike, all
 * but their delete: `check` declares their claims against the run's, `diff` is the one their
 * managed declaration derives, `create` takes the project over as found, `read` refreshes the live
 * values, `update` applies what is declared over the state's. A kind gives its API mapping: its
 * claims, its live values and how it applies a declaration.
 */
import type { Project } from "../../client";
import type { managedScanKind, projectSettingsKind } from "../kinds";
import type { CallContext } from "../runtime/call-context";
import type { Props } from "../runtime/check";
import type { Checked, Handler, Outputs } from "../runtime/handler";
import { about } from "../runtime/lookup";
import { managedFields } from "../runtime/managed";
import { checkOwned, diffManaged, known } from "../runtime/owned";
import type { Claim } from "../runtime/ownership";
import { createOnProject, projectObject, projectSubject, readProject } from "./projects";

type ProjectFieldKind = typeof projectSettingsKind | typeof managedScanKind;
/** The inputs both kinds identify their project by (checked before any method runs). */
type ProjectInputs = Props & { deploymentSlug: string; projectName: string };

export interface ProjectFields<D extends ProjectFieldKind> {
  kind: "ProjectSettings" | "ManagedScan";
  /** What a resource declaring `declared` claims of its project (its project named). */
  claims(ctx: CallContext, declared: Props): Claim[];
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

    check: (_olds, news, ctx) =>
      checkOwned(kind, ctx, news, (declared) => (known(declared.deploymentSlug, declared.projectName) ? fields.claims(ctx, declared) : [])),

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
