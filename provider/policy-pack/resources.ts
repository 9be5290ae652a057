/**
 * The package's resources as a policy pack sees them: the type token of each kind, and what the
 * resource's name and inputs are. The pack sees the inputs a program declares (the engine's
 * view before the provider runs), so a field left out is `undefined`.
 */
import type { ResourceKind } from "../core/kinds";

/** `pulumi-nodejs:dynamic/semgrep:<Kind>`, the type token of every resource of this package. */
export const typeToken = (kind: ResourceKind) => `pulumi-nodejs:dynamic/semgrep:${kind}`;

/** The kind of a resource of this package, from its type token; undefined for any other resource. */
export function kindOf(type: string): ResourceKind | undefined {
  const prefix = "pulumi-nodejs:dynamic/semgrep:";
  return type.startsWith(prefix) ? (type.slice(prefix.length) as ResourceKind) : undefined;
}

/** `PolicyRuleMode "block-eval"`: how a violation names the resource. */
export const describe = (type: string, name: string) => `${kindOf(type) ?? type} ${JSON.stringify(name)}`;

/** The inputs of a resource as a plain record (the pack's props are typed `any`). */
export type Inputs = Record<string, unknown>;

/**
 * The inputs the program gave as secrets: every resource class of the package passes their names
 * (`secretInputs`), and violations print `[secret]` in place of their values.
 */
export const secretInputsOf = (inputs: Inputs): string[] => (Array.isArray(inputs.secretInputs) ? (inputs.secretInputs as string[]) : []);
