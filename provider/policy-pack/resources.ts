/**
 * The package's resources as a policy pack sees them: the type token of each kind, and what the
 * resource's name and inputs are. The pack sees the inputs a program declares (the engine's
 * view before the provider runs), so a field left out is `undefined`.
 */
import { RESOURCE_KINDS, type ResourceKind } from "../core/kinds";

/** `pulumi-nodejs:dynamic/semgrep:<Kind>`, the type token of the dynamic resources (the TypeScript classes). */
export const typeToken = (kind: ResourceKind) => `pulumi-nodejs:dynamic/semgrep:${kind}`;

/** `semgrep:index:<Kind>`, the type token of the native plugin's resources (YAML and the generated SDKs). */
export const nativeTypeToken = (kind: ResourceKind) => `semgrep:index:${kind}`;

/** The prefixes of the two front ends' type tokens: one kind is the same resource in both. */
const TYPE_PREFIXES = ["pulumi-nodejs:dynamic/semgrep:", "semgrep:index:"];

/** The kind of a resource of this package, from its type token (either front end's); undefined for any other resource. */
export function kindOf(type: string): ResourceKind | undefined {
  const prefix = TYPE_PREFIXES.find((p) => type.startsWith(p));
  const kind = prefix && type.slice(prefix.length);
  return kind && (RESOURCE_KINDS as string[]).includes(kind) ? (kind as ResourceKind) : undefined;
}

/** `PolicyRuleMode "block-eval"`: how a violation names the resource. */
export const describe = (type: string, name: string) => `${kindOf(type) ?? type} ${JSON.stringify(name)}`;

/** The inputs of a resource as a plain record (the pack's props are typed `any`). */
export type Inputs = Record<string, unknown>;

/**
 * The inputs the program gave as secrets, and violations print `[secret]` in place of their
 * values: every dynamic resource class passes their names (`secretInputs`); for the native
 * plugin's resources the pack adds the same list from the engine's secret marks (secret-marks.ts).
 */
export const secretInputsOf = (inputs: Inputs): string[] => (Array.isArray(inputs.secretInputs) ? (inputs.secretInputs as string[]) : []);
