/**
 * DetectionPolicyException in the provider process: one exception of a product's detection policy,
 * beside any others (additive, like ProjectTags). It adds the exception or sets its type; delete
 * removes what it added or puts back the type it changed.
 */
import { type DetectionPolicyBundle, detectionBundleInput } from "../../client";
import { type detectionPolicyExceptionKind, fieldRules } from "../kinds";
import { ABSENT } from "../kinds/declare";
import { exceptionKey, keyString, keyText } from "../kinds/detection-exceptions";
import { exceptionResourceId } from "../kinds/detection-policy-exception";
import { editBundle, readBundle, type Versioned } from "./bundles";
import type { Props } from "../runtime/check";
import { detectionEndpoint, detectionObject, fieldsOf, withFields } from "./detection-bundles";
import { apiClient } from "../runtime/credentials";
import { diffDeclared } from "../runtime/diff";
import { claimsWithDryRun, dryRunVerdict, failuresOf } from "./dry-run";
import { type Checked, declaredOutputs, type Handler } from "../runtime/handler";
import { planUndo } from "../runtime/fields";
import { about, unlessGone } from "../runtime/lookup";
import { journalBefore, journaledOriginal } from "../runtime/journal";
import { managedFields } from "../runtime/managed";
import { known, noteFoundAsDeclared } from "../runtime/owned";
import type { Claim } from "../runtime/ownership";
import type { CallContext, Secrecy } from "../runtime/call-context";

const KIND = "DetectionPolicyException";
type Kind = typeof detectionPolicyExceptionKind;
type Inputs = Checked<Kind>;
type ExceptionType = Inputs["exceptionType"];
const outputs = declaredOutputs<Kind>();
/** Its type, as the declaration gives it (runtime/managed.ts): its original (ABSENT for an exception it added), the refreshed inputs. */
const MANAGED = managedFields(KIND);

const endpointOf = (props: Props) => detectionEndpoint(String(props.deploymentId), props.product as Inputs["product"]);
const keyOf = (props: Props) => exceptionKey(props as Inputs);
const subject = (props: Props) =>
  `DetectionPolicyException ${keyText(keyOf(props))} in ${detectionObject(props.deploymentId, props.product)}`;

/** The claim field of this exception's type: `exception <key>`. */
const exceptionField = (props: Props) => `exception ${keyText(keyOf(props))}`;

/**
 * A share of the product's exceptions (in conflict with a DetectionPolicy that declares them all:
 * a conflict names `rule`, its value, where the engine would print none for `exceptions`, an
 * input this kind lacks), and this exception's type.
 */
function claimsOf(secrecy: Secrecy, declared: Props): Claim[] {
  if (!known(declared.deploymentId, declared.product, declared.projectName ?? declared.projectTagName, declared.rule, declared.ruleType))
    return [];
  const object = detectionObject(declared.deploymentId, declared.product);
  return [
    // A secret `rule` is named by no property (dispatch.ts), so the engine prints no value.
    { object, field: "exceptions", property: "rule", shared: true },
    {
      object,
      field: exceptionField(declared),
      property: "exceptionType",
      value: declared.exceptionType,
      secret: secrecy.secret("exceptionType"),
    },
  ];
}

/** The type of this resource's exception in the bundle, or undefined when the bundle does not hold it. */
function typeIn(bundle: DetectionPolicyBundle, props: Props): ExceptionType | undefined {
  const key = keyString(keyOf(props));
  return fieldsOf(bundle).exceptions.find((e) => keyString(exceptionKey(e)) === key)?.exceptionType;
}

/** The bundle with this exception of type `type`, or without it (`undefined`). */
function withException(bundle: DetectionPolicyBundle, props: Props, type: ExceptionType | undefined): DetectionPolicyBundle {
  const key = keyString(keyOf(props));
  const others = fieldsOf(bundle).exceptions.filter((e) => keyString(exceptionKey(e)) !== key);
  const mine =
    type === undefined
      ? []
      : [
          {
            ...(props.projectName !== undefined
              ? { projectName: String(props.projectName) }
              : { projectTagName: String(props.projectTagName) }),
            exceptionType: type,
            rule: String(props.rule),
            ruleType: props.ruleType as Inputs["ruleType"],
          },
        ];
  return withFields(bundle, { exceptions: [...others, ...mine] });
}

const liveOutputs = (live: Versioned<DetectionPolicyBundle>) => ({
  deploymentSlug: live.bundle.deployment_slug,
  stateVersion: live.stateVersion,
});

/** Sets the exception to the declared type; what it found decides what it records (unless it already manages it). */
async function apply(ctx: CallContext, declared: Inputs, before?: { added: boolean; original: ExceptionType | undefined }) {
  let found: ExceptionType | undefined;
  let attempted = false;
  const written = await editBundle(endpointOf(declared), (bundle, { ownWriteMayHaveLanded }) => {
    const live = typeIn(bundle, declared);
    // What it records comes from the bundle before its own write, which a lost answer may hide.
    if (!ownWriteMayHaveLanded || !attempted) found = live;
    attempted = true;
    if (live === declared.exceptionType) return undefined;
    if (!before) journalBefore({ exception: found ?? ABSENT });
    return withException(bundle, declared, declared.exceptionType);
  });
  if (before) return outputs({ ...declared, ...liveOutputs(written), added: before.added, originalExceptionType: before.original });
  // Found as declared: a killed run of this resource may have written it, and journaled what it found (journal.ts).
  const journaled = found === declared.exceptionType ? journaledOriginal("exception") : undefined;
  if (journaled) found = journaled.original === ABSENT ? undefined : (journaled.original as ExceptionType);
  if (found === declared.exceptionType) {
    await noteFoundAsDeclared(ctx, {
      what: `the exception ${keyText(keyOf(declared))} of ${detectionObject(declared.deploymentId, declared.product)}`,
      plural: false,
      unset: "added is false",
    });
  }
  return outputs({
    ...declared,
    ...liveOutputs(written),
    added: found === undefined,
    originalExceptionType: found === declared.exceptionType ? undefined : found,
  });
}

export const detectionPolicyException: Handler<Kind> = {
  /** What a DetectionPolicyException in this state recorded as its exception's original: ABSENT when it added it, `null` for none. */
  recorded: (props) => MANAGED.recorded(props, () => exceptionField(props)),

  // The service's verdict on the bundle with this exception (dry-run.ts).
  ...claimsWithDryRun(KIND, claimsOf, async (declared, ctx) => {
    const live = await readBundle(endpointOf(declared));
    const candidate = detectionBundleInput(withException(live.bundle, declared, declared.exceptionType));
    const { errors } = await dryRunVerdict(() =>
      apiClient().policiesV2.dryRunDetectionPolicy(declared.deploymentId, declared.product, candidate),
    );
    // withException puts this exception last: errors at that index name this resource's own field
    const index = (candidate.exceptions?.length ?? 0) - 1;
    return failuresOf(ctx, declared, errors, { prefix: "exceptions", index, rename: { project: "projectName" } });
  }),

  diff: async (_id, olds, news) => diffDeclared(olds, news, fieldRules(KIND)),

  create: (declared, ctx) =>
    about(subject(declared), async () => {
      const outs = await apply(ctx, declared);
      return { id: exceptionResourceId(declared), outs };
    }),

  read: (id, props) =>
    about(subject(props), async () => {
      const live = await unlessGone(() => readBundle(endpointOf(props)));
      const type = live && typeIn(live.bundle, props);
      if (!live || type === undefined) return { id: "" };
      return {
        id,
        props: { ...props, exceptionType: type, ...liveOutputs(live) },
        inputs: MANAGED.refreshedInputs(props, { exceptionType: type }),
      };
    }),

  update: (_id, olds, declared, ctx) =>
    about(subject(declared), async () => {
      // The first change of a type it found records that type (unless it added the exception itself).
      const original =
        olds.added === true
          ? undefined
          : (olds.originalExceptionType ?? (olds.exceptionType !== declared.exceptionType ? olds.exceptionType : undefined));
      const outs = await apply(ctx, declared, { added: olds.added === true, original });
      return { outs };
    }),

  delete: (_id, props, ctx) =>
    about(subject(props), async () => {
      if (props.restoreOnDelete === false) return;
      // What it found: absent (it added the exception), another type, or nothing recorded (found as declared).
      const original = MANAGED.originals(props).exceptionType;
      const claim = claimsOf(ctx, props)[1]!;
      const field = {
        name: "exception",
        claim,
        original,
        last: props.exceptionType,
        same: Object.is,
        show: String,
      };
      // Left to another resource of the run that holds it now (a rename without an alias, say), with a warning.
      const { exception } = await planUndo(ctx, [field]);
      if (exception === undefined) return;
      const back = exception === ABSENT ? undefined : (exception as ExceptionType);
      await unlessGone(() =>
        editBundle(endpointOf(props), (bundle) => (typeIn(bundle, props) === back ? undefined : withException(bundle, props, back))),
      );
    }),
};
