/**
 * Facts about each resource kind that both sides need: the resource classes in the program's
 * process and their implementations in the provider process. No imports, so either side can
 * load it without the other's dependencies.
 */

export type ResourceKind = "ProjectSettings" | "ProjectTags" | "ManagedScan" | "PolicyRuleMode" | "SbomExport";

/**
 * Outputs computed from an input of another name, by kind: output → the input it derives from.
 * A dynamic provider cannot return secrets; the engine makes an output secret only when an input
 * of the same name is. So where its source input is a secret, each class passes, under each of
 * these output names, an input that is a secret `null`, and the output is stored encrypted like
 * its source.
 */
export const DERIVED_OUTPUTS: Record<ResourceKind, Readonly<Record<string, string>>> = {
  ProjectSettings: {
    originalPrimaryBranch: "primaryBranch",
    followsDefaultBranch: "primaryBranch",
    originalTags: "tags",
    originalManagedScanConfig: "managedScanConfig",
  },
  ProjectTags: { addedTags: "tags" },
  ManagedScan: { originalDiffScan: "diffScan", originalFullScan: "fullScan" },
  PolicyRuleMode: { originalMode: "mode" },
  SbomExport: {},
};

/**
 * Outputs that hold a whole set other resources of the stack may add to (a project's tags, or
 * the set found before this resource managed it), by kind: stored as secrets, since another
 * resource's tags may be secrets and this resource cannot know. Not when the resource declares
 * the input of the same name (then the set is its own).
 */
export const SHARED_SET_OUTPUTS: Record<ResourceKind, readonly string[]> = {
  ProjectSettings: ["tags", "originalTags"],
  ProjectTags: ["projectTags"],
  ManagedScan: [],
  PolicyRuleMode: [],
  SbomExport: [],
};

/** Inputs, besides the sources of derived outputs, whose values the provider's messages may quote. */
const QUOTED_INPUTS: Record<ResourceKind, readonly string[]> = {
  ProjectSettings: [],
  ProjectTags: [],
  ManagedScan: [],
  PolicyRuleMode: [],
  SbomExport: ["formatVersion"],
};

/** The inputs whose values can appear in the provider's messages, hidden there when given as secrets. */
export function valueInputs(kind: ResourceKind): string[] {
  return [...new Set([...Object.values(DERIVED_OUTPUTS[kind]), ...QUOTED_INPUTS[kind]])];
}
