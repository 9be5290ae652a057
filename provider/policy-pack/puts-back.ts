/**
 * What a run puts back, from the stack's last state and the new program: the originals a rule-mode
 * resource recorded go back when it is removed from the program (or replaced), unless it had
 * `restoreOnDelete: false`, and a PolicyRuleModes puts back, on update, the originals of the rules
 * it no longer manages (an entry dropped from `modes`, a narrowed `select`, a rule added to
 * `exclude`), unless the program now gives it `restoreOnDelete: false`. Whether another resource of the program still sets
 * a rule (then nothing is put back: the provider hands it over) needs the rules, so the policy
 * decides that; here are the candidates.
 */
import type { ResourceKind } from "../core/kinds";
import type { ProgramResource } from "./program";
import { type Inputs, kindOf } from "./resources";
import { isSecretValue, type StateResource, stateResourceName } from "./stack-state";

/** A rule a run may put back to `mode`, the mode a resource of the stack found it in. */
export interface PutBack {
  /** `PolicyRuleMode "block-sql"`. */
  resource: string;
  /** The resource's URN when it is still in the program (violations name it), else undefined. */
  urn?: string;
  deploymentId: string;
  policyId: string;
  rulePath: string;
  mode: string;
  /** How the run puts it back: `removed`, `replaced` (a changed deployment, policy or rule), or `released` (no longer managed). */
  how: "removed" | "replaced" | "released";
}

/** A resource whose recorded originals are secret in the state: what it puts back cannot be read. */
export interface SecretOriginals {
  resource: string;
  urn?: string;
  how: PutBack["how"];
}

const RULE_MODE_KINDS: readonly ResourceKind[] = ["PolicyRuleMode", "PolicyRuleModes"];

/** The originals a rule-mode resource recorded, by rule path; `secret` when the state holds them encrypted. */
function recordedOriginals(kind: ResourceKind, state: StateResource): Map<string, string> | "secret" {
  const outputs = state.outputs ?? {};
  if (kind === "PolicyRuleMode") {
    const original = outputs.originalMode;
    if (isSecretValue(original)) return "secret";
    return new Map(typeof original === "string" ? [[String(state.inputs?.rulePath ?? outputs.rulePath), original]] : []);
  }
  const originals = outputs.originals;
  if (isSecretValue(originals)) return "secret";
  const byRule = new Map<string, string>();
  for (const [mode, paths] of Object.entries((originals as Record<string, unknown> | undefined) ?? {})) {
    if (Array.isArray(paths)) for (const path of paths) byRule.set(String(path), mode);
  }
  return byRule;
}

/**
 * How the run treats a stateful resource: kept (and whether its identity changed), or removed.
 * `kind` is what the program now declares: a PolicyRuleMode the program declares as a
 * PolicyRuleModes (an alias that changes the type, the fold of docs/concepts/ownership.md) is the
 * same resource, updated as a PolicyRuleModes whose one rule is the PolicyRuleMode's (the
 * provider reads its state so), so its identity is the deployment and policy, not the rule path.
 */
function fate(kind: ResourceKind, old: Inputs, now: ProgramResource | undefined): PutBack["how"] | "kept" {
  if (!now) return "removed";
  if (now.unknown || !now.inputs) return "kept";
  const identity = kind === "PolicyRuleMode" ? ["deploymentId", "policyId", "rulePath"] : ["deploymentId", "policyId"];
  if (identity.some((field) => String(old[field]) !== String(now.inputs![field]))) return "replaced";
  return kind === "PolicyRuleMode" ? "kept" : "released";
}

/**
 * The rules this run may put back, and the resources whose originals it cannot read: from every
 * PolicyRuleMode and PolicyRuleModes of the state, against the new program's resources.
 */
export function ruleModePutBacks(state: readonly StateResource[], program: readonly ProgramResource[]) {
  const byUrn = new Map(program.flatMap((resource) => [resource.urn, ...(resource.aliases ?? [])].map((urn) => [urn, resource] as const)));
  const putBacks: PutBack[] = [];
  const secret: SecretOriginals[] = [];
  for (const resource of state) {
    const kind = kindOf(resource.type);
    if (!kind || !RULE_MODE_KINDS.includes(kind)) continue;
    const old = resource.inputs ?? {};
    const now = byUrn.get(resource.urn);
    const how = fate((now && kindOf(now.type)) ?? kind, old, now);
    if (how === "kept") continue;
    // A delete (of a removed or replaced resource) puts back unless its state says restoreOnDelete
    // false; an update unless the program now says it (it leaves the rules it drops as they are).
    if ((how === "released" ? now?.inputs : old)?.restoreOnDelete === false) continue;
    // An update is the program's resource (named by its type now); a delete is the state's.
    const name = stateResourceName(how === "released" ? now! : resource);
    const urn = now?.urn; // the program's URN (an aliased resource's new one)
    const originals = recordedOriginals(kind, resource);
    if (originals === "secret") {
      secret.push({ resource: name, urn, how });
      continue;
    }
    const policy = { deploymentId: String(old.deploymentId), policyId: String(old.policyId) };
    for (const [rulePath, mode] of originals) putBacks.push({ resource: name, urn, ...policy, rulePath, mode, how });
  }
  return { putBacks, secret };
}
