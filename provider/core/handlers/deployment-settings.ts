/**
 * DeploymentSettings in the provider process: the fields of a deployment's product configuration
 * a program declares, each recorded when first changed and put back on delete. The claims,
 * originals and dropped fields follow from the declaration's `managed` (runtime/managed.ts); this
 * is the API mapping: what a field's path is in the client's configuration, and what to send.
 */
import type { ProductConfig, ProductConfigChange } from "../../client";
import type { deploymentSettingsKind } from "../kinds";
import { sameSetting } from "../kinds/deployment-settings";
import type { CallContext, Secrecy } from "../runtime/call-context";
import type { Props } from "../runtime/check";
import { type FieldToApply, fieldsToUndo, type Plan, planApply, planUndo } from "../runtime/fields";
import { type Checked, declaredOutputs, type Handler, type Outputs } from "../runtime/handler";
import { about, unlessGone } from "../runtime/lookup";
import { managedFields } from "../runtime/managed";
import { checkOwned, diffManaged, known, noteFieldsFoundAsDeclared } from "../runtime/owned";
import type { Claim } from "../runtime/ownership";
import { apiClient } from "../runtime/credentials";

const KIND = "DeploymentSettings";
type Kind = typeof deploymentSettingsKind;
const outputs = declaredOutputs<Kind>();
/** Its managed fields, as the declaration gives them: values, originals, their outputs. */
const MANAGED = managedFields(KIND);
type Values = Record<string, unknown>;

const objectOf = (props: Props) => `the product configuration of deployment ${String(props.deploymentId)}`;
const subject = (props: Props) => `DeploymentSettings of deployment ${String(props.deploymentId)}`;

/** The claim every DeploymentSettings makes: the deployment's configuration has one declarer. */
const WHOLE = "settings (one DeploymentSettings per deployment)";

/** A field of the configuration, as conflicts and hand-overs name it (`sca.blockPrEnabled`). */
function claimOf(secrecy: Secrecy, props: Props, field: string): Claim {
  return {
    object: objectOf(props),
    field,
    property: field,
    value: MANAGED.values(props)[field],
    secret: secrecy.secret(field.split(".")[0]!),
  };
}

/** What a DeploymentSettings declares: the whole configuration (so that a second one is refused), and each field it names. */
function claimsOf(secrecy: Secrecy, declared: Props): Claim[] {
  if (!known(declared.deploymentId)) return [];
  const whole: Claim = { object: objectOf(declared), field: WHOLE, property: "deploymentId" };
  return [whole, ...MANAGED.declared(declared).map((field) => claimOf(secrecy, declared, field))];
}

/** The live configuration as the outputs hold it. */
function liveOutputs(config: ProductConfig) {
  const { mdrEnabled, ...ai } = config.ai;
  return {
    sast: config.sast,
    sca: config.sca,
    secrets: config.secrets,
    ai,
    hasDeveloperTriage: config.hasDeveloperTriage,
    approversTag: config.approversTag,
    mdrEnabled,
  };
}

/** The change that sets these field values (by path) and leaves every other field as it is. */
function changeOf(values: Values): ProductConfigChange {
  const change: Record<string, Record<string, unknown> | unknown> = {};
  for (const [path, value] of Object.entries(values)) {
    const [section, field] = path.split(".") as [string, string | undefined];
    if (field === undefined) change[section] = value;
    else change[section] = { ...((change[section] as Record<string, unknown> | undefined) ?? {}), [field]: value };
  }
  return change as ProductConfigChange;
}

const read = (props: Props) => apiClient().products.get(String(props.deploymentId));

/** The plan of an apply over a configuration whose values are `live` (see planApply). */
function planOver(declared: Checked<Kind>, live: Props, before: { managed: string[]; originals: Values }): Plan {
  const wanted = MANAGED.values(declared);
  const have = MANAGED.values(live);
  const fields: FieldToApply[] = MANAGED.declared(declared).map((field) => ({
    name: field,
    wanted: wanted[field],
    have: have[field],
    differs: !sameSetting(have[field], wanted[field]),
  }));
  return planApply(fields, before);
}

/**
 * Applies the declared fields in one read-modify-write, planned over the configuration the
 * write's own read finds, so that nothing changed since is lost: a `GET` and, when something
 * differs, a `PUT`. An update whose declared values all hold in the state (`last`) makes no request.
 */
async function apply(
  ctx: CallContext,
  declared: Checked<Kind>,
  before: { managed: string[]; originals: Values },
  last?: Props,
): Promise<Outputs<Kind>> {
  const done = (plan: Plan, live: Props) =>
    outputs({
      ...declared,
      ...liveValuesOf(live),
      ...MANAGED.originalOutputs(plan.originals),
      managedFields: MANAGED.declared(declared),
    } as Outputs<Kind>);
  if (last) {
    const plan = planOver(declared, last, before);
    if (!Object.keys(plan.changes).length) return done(plan, last);
  }
  let plan: Plan | undefined;
  const { config } = await apiClient().products.edit(declared.deploymentId, (current) => {
    plan = planOver(declared, liveOutputs(current), before);
    return Object.keys(plan.changes).length ? changeOf(plan.changes) : undefined;
  });
  await noteFieldsFoundAsDeclared(ctx, objectOf(declared), plan!.foundAsDeclared);
  return done(plan!, liveOutputs(config));
}

/** The live outputs of a state or a fresh read. */
const liveValuesOf = (live: Props) => ({
  sast: live.sast,
  sca: live.sca,
  secrets: live.secrets,
  ai: live.ai,
  hasDeveloperTriage: live.hasDeveloperTriage,
  approversTag: live.approversTag,
  mdrEnabled: live.mdrEnabled,
});

export const deploymentSettings: Handler<Kind> = {
  recorded: (state) => MANAGED.recorded(state),

  claims: (declared, secrecy) => claimsOf(secrecy, declared),

  check: (_olds, news, ctx) => checkOwned(KIND, ctx, news, (declared) => claimsOf(ctx, declared)),

  // A field the program no longer declares is no longer managed: its original leaves the state.
  diff: (_id, olds, news, ctx) => diffManaged(ctx, olds, news, objectOf(news)),

  create: (declared, ctx) =>
    about(subject(declared), async () => {
      const outs = await apply(ctx, declared, { managed: [], originals: {} });
      return { id: String(declared.deploymentId), outs };
    }),

  read: (id, props) =>
    about(subject(props), async () => {
      const config = await unlessGone(() => read(props));
      if (!config) return { id: "" };
      const values = { ...props, ...liveOutputs(config) };
      return { id, props: values, inputs: MANAGED.refreshedInputs(props, values) };
    }),

  update: (_id, olds, declared, ctx) =>
    about(subject(declared), async () => ({ outs: await apply(ctx, declared, MANAGED.before(olds), olds) })),

  delete: (_id, props, ctx) =>
    about(subject(props), async () => {
      if (props.restoreOnDelete === false) return;
      const fields = fieldsToUndo(MANAGED.names, {
        claim: (field) => claimOf(ctx, props, field),
        originals: MANAGED.originals(props),
        last: MANAGED.values(props),
        same: (_field, a, b) => sameSetting(a, b),
        managed: MANAGED.managed(props),
      });
      const back = await planUndo(ctx, fields);
      if (Object.keys(back).length) await unlessGone(() => apiClient().products.update(String(props.deploymentId), changeOf(back)));
    }),
};
