/**
 * The product settings the pack's settings policies judge: what a DeploymentSettings declares, what
 * it was before this change (the stack's last state of the resource, else the live configuration
 * read through the API), and what a DeploymentSettings removed from the program puts back on
 * delete (its `original`). The service's own configuration is read once per deployment and run.
 */
import type { StackValidationArgs } from "@pulumi/policy";
import type { ProductConfig } from "../client";
import { liveReader } from "./live-reads";
import type { Inputs } from "./resources";
import { type Credentials } from "./severities";
import { isSecretValue, removedFromProgram, stateOf, stateResourceName } from "./stack-state";

/** The sections a policy reads, each a record of field → value (any may be absent). */
export type Settings = Partial<Record<"sast" | "sca" | "secrets" | "ai", Record<string, unknown>>>;

export const PRODUCTS = ["sast", "sca", "secrets"] as const;

/** Triage permissions from the strictest to the loosest: a step right loosens who may ignore findings. */
const TRIAGE_ORDER = ["TRIAGE_PERMISSION_NONE", "TRIAGE_PERMISSION_REQUEST", "TRIAGE_PERMISSION_IGNORE"];

/** Whether `now` lets more people ignore findings than `before`; without `before`, only the loosest value does. */
export function loosens(now: unknown, before: unknown): boolean {
  const rank = (value: unknown) => TRIAGE_ORDER.indexOf(String(value));
  if (rank(now) < 0) return false;
  return rank(before) < 0 ? rank(now) === TRIAGE_ORDER.length - 1 : rank(now) > rank(before);
}

const sectionsOf = (value: Inputs | ProductConfig): Settings => ({
  sast: value.sast as Record<string, unknown> | undefined,
  sca: value.sca as Record<string, unknown> | undefined,
  secrets: value.secrets as Record<string, unknown> | undefined,
  ai: value.ai as Record<string, unknown> | undefined,
});

/** The live configuration, or why it could not be read; once per deployment, address and token. */
const liveSettings = liveReader<Settings | string>(
  async (client, deploymentId) => sectionsOf(await client.products.get(deploymentId)),
  (error) => error.message,
);

/**
 * The configuration before this change, for the resource `urn` of `deploymentId`: the state's
 * live outputs when the stack holds it, else the service's, else why neither is known.
 */
export async function settingsBefore(urn: string, deploymentId: string, credentials: Credentials | undefined): Promise<Settings | string> {
  const previous = await stateOf(urn);
  if (previous?.outputs && !isSecretValue(previous.outputs.sca)) return sectionsOf(previous.outputs);
  if (!credentials) return "without Semgrep credentials the pack cannot read the deployment's configuration";
  return liveSettings(credentials, deploymentId);
}

/** A DeploymentSettings the change removes from the program, and what its delete puts back. */
export interface SettingsPutBack {
  resource: string;
  /** The values it puts back, by section; "secret" when the state holds them encrypted. */
  original: Settings | "secret";
  /** The live values it found at its last read, which the put-back replaces. */
  current: Settings;
}

/** The DeploymentSettings of the stack's last state that this change removes (and that put back on delete). */
export async function settingsPutBacks(args: StackValidationArgs): Promise<SettingsPutBack[] | string> {
  const removed = await removedFromProgram(args.resources, "DeploymentSettings");
  if ("error" in removed) return removed.error;
  return removed
    .filter((r) => r.inputs?.restoreOnDelete !== false)
    .map((r) => {
      const original = r.outputs?.original;
      return {
        resource: stateResourceName(r),
        original: isSecretValue(original) ? "secret" : sectionsOf((original ?? {}) as Inputs),
        current: sectionsOf(r.outputs ?? {}),
      };
    });
}
