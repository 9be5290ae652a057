/**
 * DetectionPolicy in the provider process: the rulesets, rules, disabled rules and exceptions of
 * one product's detection policy (Policies V2), each managed when declared. Writes go through
 * bundles.ts (read-modify-write with If-Match, serialized, retried on conflict).
 */
import type { CallContext, Secrecy } from "../runtime/call-context";
import { type DetectionPolicyBundle, detectionBundleInput } from "../../client";
import type { detectionPolicyKind } from "../kinds";
import { sameExceptions } from "../kinds/detection-exceptions";
import type { DetectionPolicyOriginals } from "../kinds/detection-policy";
import { editBundle, readBundle, type Versioned } from "./bundles";
import type { Props } from "../runtime/check";
import { sameSet } from "../runtime/diff";
import {
  DETECTION_FIELDS,
  type DetectionField,
  type DetectionFields,
  detectionEndpoint,
  detectionObject,
  fieldsOf,
  withFields,
} from "./detection-bundles";
import { noteDryRunDeletes, noteListChanges } from "./detection-notes";
import { claimsWithDryRun, dryRunVerdict, failuresOf } from "./dry-run";
import { apiClient } from "../runtime/credentials";
import { fieldsToUndo, planApply, planUndo } from "../runtime/fields";
import { type Checked, declaredOutputs, type Handler, type State } from "../runtime/handler";
import { about, unlessGone } from "../runtime/lookup";
import { managedFields } from "../runtime/managed";
import { diffManaged, known, noteFieldsFoundAsDeclared } from "../runtime/owned";
import type { Claim } from "../runtime/ownership";

const KIND = "DetectionPolicy";
type Kind = typeof detectionPolicyKind;
type Inputs = Checked<Kind>;
const outputs = declaredOutputs<Kind>();

const same = (field: DetectionField, a: unknown, b: unknown) => (field === "exceptions" ? sameExceptions(a, b) : sameSet(a, b));
const declaredFields = (props: Props): DetectionField[] => DETECTION_FIELDS.filter((field) => props[field] !== undefined);
const subject = (props: Props) => `DetectionPolicy ${String(props.product)} of deployment ${String(props.deploymentId)}`;
const endpointOf = (props: Props) => detectionEndpoint(String(props.deploymentId), props.product as Inputs["product"]);

/** Its managed fields, as the declaration gives them (runtime/managed.ts): values, originals, their outputs. */
const MANAGED = managedFields(KIND);
const managedFieldsOf = (props: Props) => MANAGED.managed(props) as DetectionField[];

function claimOf(secrecy: Secrecy, props: Props, field: DetectionField): Claim {
  return {
    object: detectionObject(props.deploymentId, props.product),
    field,
    value: props[field],
    secret: secrecy.secret(field),
  };
}

/** What a DetectionPolicy declares: each of its fields it gives (the whole list). */
const claimsOf = (secrecy: Secrecy, declared: Props): Claim[] =>
  known(declared.deploymentId, declared.product) ? declaredFields(declared).map((field) => claimOf(secrecy, declared, field)) : [];

/** A live list in the declared order when it holds the same items: reviewers compare it with the program. */
function inDeclaredOrder<T>(field: DetectionField, live: T[], declared: unknown): T[] {
  return Array.isArray(declared) && same(field, live, declared) ? (declared as T[]) : live;
}

function liveOutputs(written: Versioned<DetectionPolicyBundle>, declared: Props) {
  const live = fieldsOf(written.bundle);
  return {
    rulesets: inDeclaredOrder("rulesets", live.rulesets, declared.rulesets),
    rules: inDeclaredOrder("rules", live.rules, declared.rules),
    disabled: inDeclaredOrder("disabled", live.disabled, declared.disabled),
    exceptions: inDeclaredOrder("exceptions", live.exceptions, declared.exceptions),
    deploymentSlug: written.bundle.deployment_slug,
    stateVersion: written.stateVersion,
  };
}

/**
 * Applies the declared fields to the bundle as it is when this write's turn comes, recording what
 * it found of a field the first time a write changes it (see fields.ts planApply).
 */
async function apply(ctx: CallContext, declared: Inputs, before: { managed: DetectionField[]; originals: Partial<DetectionFields> }) {
  const fields = declaredFields(declared);
  let plan: ReturnType<typeof planApply> | undefined;
  // What it records comes from the bundle before its own write, which a lost answer may hide.
  let recordedPlan: ReturnType<typeof planApply> | undefined;
  const written = await editBundle(endpointOf(declared), (bundle, { ownWriteMayHaveLanded }) => {
    const live = fieldsOf(bundle);
    plan = planApply(
      fields.map((field) => ({
        name: field,
        wanted: declared[field],
        have: live[field],
        differs: !same(field, live[field], declared[field]),
      })),
      before,
    );
    if (!ownWriteMayHaveLanded || !recordedPlan) recordedPlan = plan;
    return Object.keys(plan.changes).length ? withFields(bundle, plan.changes as Partial<DetectionFields>) : undefined;
  });
  const done = recordedPlan!;
  await noteFieldsFoundAsDeclared(ctx, detectionObject(declared.deploymentId, declared.product), done.foundAsDeclared);
  // Always an object here (none recorded: `{}`), where a kind of nested originals may leave its output unset.
  const { originals = {} } = MANAGED.originalOutputs(done.originals) as { originals?: DetectionPolicyOriginals };
  return outputs({ ...declared, ...liveOutputs(written, declared), originals, managedFields: fields });
}

/** The service's verdict on the bundle with the declared fields (dry-run.ts). */
async function dryRunFailures(ctx: CallContext, declared: Inputs) {
  const live = await readBundle(endpointOf(declared));
  const fields = Object.fromEntries(declaredFields(declared).map((field) => [field, declared[field]])) as Partial<DetectionFields>;
  const candidate = detectionBundleInput(withFields(live.bundle, fields));
  const { answer, errors } = await dryRunVerdict(() =>
    apiClient().policiesV2.dryRunDetectionPolicy(declared.deploymentId, declared.product, candidate),
  );
  if (answer) await noteDryRunDeletes(ctx, answer);
  return failuresOf(ctx, declared, errors);
}

export const detectionPolicy: Handler<Kind> = {
  /** What a DetectionPolicy in this state recorded as each field's original (`null` for none). */
  recorded: (props) => MANAGED.recorded(props),

  ...claimsWithDryRun(KIND, claimsOf, (declared, ctx) => dryRunFailures(ctx, declared)),

  diff: async (_id, olds, news, ctx) => {
    await noteListChanges(ctx, olds, news);
    // A field the program no longer declares is no longer managed: its original leaves the state.
    return diffManaged(ctx, olds, news, detectionObject(news.deploymentId, news.product));
  },

  create: (declared, ctx) =>
    about(subject(declared), async () => {
      const outs = await apply(ctx, declared, { managed: [], originals: {} });
      return { id: `${declared.deploymentId}/${declared.product}`, outs };
    }),

  read: (id, props) =>
    about(subject(props), async () => {
      const live = await unlessGone(() => readBundle(endpointOf(props)));
      if (!live) return { id: "" };
      const values = liveOutputs(live, props);
      return { id, props: { ...props, ...values }, inputs: MANAGED.refreshedInputs(props, values) };
    }),

  update: (_id, olds, declared, ctx) =>
    about(subject(declared), async () => {
      return {
        outs: await apply(ctx, declared, MANAGED.before(olds) as { managed: DetectionField[]; originals: Partial<DetectionFields> }),
      };
    }),

  delete: (_id, props: State<Kind>, ctx) =>
    about(subject(props), async () => {
      if (props.restoreOnDelete === false) return;
      const originals = MANAGED.originals(props);
      const managed = managedFieldsOf(props);
      const fields = fieldsToUndo(managed, { claim: (field) => claimOf(ctx, props, field), originals, last: props, same, managed });
      const back = (await planUndo(ctx, fields)) as Partial<DetectionFields>;
      if (Object.keys(back).length) await unlessGone(() => editBundle(endpointOf(props), (bundle) => withFields(bundle, back)));
    }),
};
