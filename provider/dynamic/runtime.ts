/**
 * `pulumi-semgrep/dynamic`: what every resource's `__provider` shim calls in the provider process.
 * Loaded by package name, so old state runs the installed package's code.
 */
import type * as pulumi from "@pulumi/pulumi";
import { DERIVED_OUTPUTS, type ResourceKind } from "../kinds";
import type { Props } from "./check";
import { configure, withCredentialsHint } from "./credentials";
import { managedScan } from "./managed-scan";
import { policyRuleMode } from "./policy-rule-mode";
import { projectSettings } from "./project-settings";
import { projectTags } from "./project-tags";
import { sbomExport } from "./sbom-export";

/** A resource kind's implementation of the dynamic-provider methods. */
export interface Handler {
  check(olds: Props, news: Props): pulumi.dynamic.CheckResult | Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Props): Promise<void>;
}

export const handlers: Record<ResourceKind, Handler> = {
  ProjectSettings: projectSettings,
  ProjectTags: projectTags,
  ManagedScan: managedScan,
  PolicyRuleMode: policyRuleMode,
  SbomExport: sbomExport,
};

type Method = keyof Handler | "configure";

/**
 * Where the checked inputs are among a method's arguments. They carry the placeholders of derived
 * outputs (resource-meta.ts), which matter to the engine only and must not overwrite the outputs
 * of the same names.
 */
const CHECKED_INPUTS_ARGUMENT: Partial<Record<Method, number>> = { create: 0, diff: 2, update: 2 };

/** Runs one dynamic-provider method of one resource kind. */
export async function run(kind: ResourceKind, method: Method, args: unknown[]): Promise<unknown> {
  if (method === "configure") return configure(args[0] as pulumi.dynamic.ConfigureRequest);
  const handler = handlers[kind];
  if (!handler)
    throw new Error(`pulumi-semgrep: unknown resource kind ${String(kind)}; is the installed pulumi-semgrep older than the program's?`);
  const fn = handler[method] as (...a: unknown[]) => unknown;
  if (typeof fn !== "function") throw new Error(`pulumi-semgrep: ${kind} has no method ${String(method)}`);
  const given = args.map(withoutProviderKey);
  const at = CHECKED_INPUTS_ARGUMENT[method];
  if (at !== undefined) given[at] = withoutPlaceholders(kind, given[at] as Props);
  try {
    return withoutUndefined(await fn.apply(handler, given));
  } catch (error) {
    throw withCredentialsHint(error);
  }
}

function withoutPlaceholders(kind: ResourceKind, inputs: Props): Props {
  return Object.fromEntries(Object.entries(inputs).filter(([key]) => !(key in DERIVED_OUTPUTS[kind])));
}

/** The host passes the serialized shim (`__provider`) along with the properties; handlers never need it. */
function withoutProviderKey(arg: unknown): unknown {
  if (!arg || typeof arg !== "object" || Array.isArray(arg) || !("__provider" in arg)) return arg;
  const { __provider: _shim, ...props } = arg as Props;
  return props;
}

/**
 * The host turns results into protobuf Structs, which have no `undefined`: an absent value is
 * simply left out.
 */
function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, withoutUndefined(v)]),
    );
  }
  return value;
}
