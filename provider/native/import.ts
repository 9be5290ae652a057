/**
 * What `pulumi import semgrep:index:<Kind> <name> <id>` declares: the object's live values, as
 * `npx pulumi-semgrep adopt` would declare them, so that the generated code previews clean and
 * passes the kind's own check (a ProjectTags needs tags, a PolicyRuleModes its rules' modes).
 * A read by id alone manages nothing (what `X.get` wants); an import is the one read that must
 * say everything the object holds. The resource then records no original: it found every value
 * as declared, so `destroy` leaves the object as it is.
 */
import { declarable } from "../adopt/plan";
import { implicitSecrets, KINDS, type ResourceKind } from "../core/kinds";
import { managedTags } from "../core/kinds/project-settings";
import { notify } from "../core/runtime/notices";
import { policyRules } from "../core/handlers/rule-index";

type Props = Record<string, unknown>;

/** Where a kind's live values are not simply the outputs of the inputs' names. */
const LIVE_VALUES: Partial<Record<ResourceKind, (outputs: Props, identity: Props) => Promise<Props>>> = {
  // The service sets and keeps system tags: they are never declared.
  ProjectSettings: async (outputs) => ({
    tags: managedTags(outputs.tags),
    managedScanConfig: outputs.managedScanConfig,
    // Equal to the default branch, the service does not say whether the project follows it or pins it (as adopt).
    ...(outputs.primaryBranch !== outputs.defaultBranch && !outputs.followsDefaultBranch ? { primaryBranch: outputs.primaryBranch } : {}),
  }),
  ProjectTags: async (outputs) => ({ tags: managedTags(outputs.projectTags) }),
  PolicyRuleModes: async (_outputs, identity) => {
    const rules = await policyRules(String(identity.deploymentId), String(identity.policyId));
    const paths = [...rules.keys()].sort();
    return { modes: Object.fromEntries(paths.map((path) => [path, rules.get(path)!.policyMode])) };
  },
};

/**
 * What an imported resource records besides its inputs: that it found the object, as declared.
 * Where a kind records that it made the object (delete then removes it) and reads an absent
 * record as made (state of releases before the record existed), an import must say "found":
 * else `destroy` would remove a RemediationPolicy that existed long before the stack.
 */
const FOUND_RECORDS: Partial<Record<ResourceKind, Props>> = {
  RemediationPolicy: { created: false },
  NotificationRule: { created: false },
};

/** The state an imported resource is read with, to answer the outputs it stores: its inputs and what it found. */
export const importedState = (kind: ResourceKind, inputs: Props): Props => ({ ...inputs, ...FOUND_RECORDS[kind] });

/** The kind's inputs that name the object (a change replaces it). */
const identityInputs = (kind: ResourceKind) =>
  Object.entries(KINDS[kind].inputs as Record<string, { replaces?: boolean }>).flatMap(([name, field]) => (field.replaces ? [name] : []));

/**
 * The inputs an imported resource declares: its identity (from the read's inputs) and every
 * other input's live value that the kind's check takes as it is; a value it would refuse or
 * rewrite is left out with a note naming it, and so is one the kind holds as a secret.
 */
export async function importedInputs(kind: ResourceKind, outputs: Props, inputs: Props): Promise<Props> {
  const identity = Object.fromEntries(
    identityInputs(kind)
      .filter((n) => inputs[n] !== undefined)
      .map((n) => [n, inputs[n]]),
  );
  const settable = Object.keys(KINDS[kind].inputs).filter((n) => n !== "restoreOnDelete" && !(n in identity));
  const live = LIVE_VALUES[kind]
    ? await LIVE_VALUES[kind](outputs, identity)
    : Object.fromEntries(settable.map((n) => [n, outputs[n] ?? inputs[n]]));
  const wanted = Object.fromEntries(Object.entries(live).filter(([n, v]) => v !== undefined && settable.includes(n)));
  const notes: string[] = [];
  const leftOut: string[] = [];
  // Pulumi writes a secret's value into the generated code in clear (only wrapped in `secret`): an
  // input the kind holds as a secret for its value (declare.ts `secretWhen`: a rule's config with a
  // webhook URL) is left out, and stays a secret in the outputs (context.ts `secretOutputs`).
  for (const name of implicitSecrets(kind, { ...identity, ...wanted })) {
    delete wanted[name];
    notes.push(
      `${name} left out: its live value holds a secret, which the generated code would show in clear; ` +
        `declare it from a secret (a config value set with \`pulumi config set --secret\`) to manage it`,
    );
  }
  const declared = declarable(kind, identity, wanted, notes, leftOut, `${kind} ${JSON.stringify(inputs)}`) ?? {};
  for (const note of [...notes, ...leftOut]) await notify("warning", `read by id (pulumi import, a YAML get): ${note}`);
  return { ...identity, ...declared };
}
