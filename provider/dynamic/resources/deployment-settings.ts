import type { ArgsOf } from "../../core/kinds/declare";
import { deploymentSettingsKind } from "../../core/kinds";
import provider from "../shims/DeploymentSettings";
import { type ResourceClass, resourceClass } from "./resource-class";
export type {
  AiSettings,
  DeploymentSettingsOriginals,
  SastSettings,
  ScaSettings,
  SecretsSettings,
} from "../../core/kinds/deployment-settings";

/** Arguments of a {@link DeploymentSettings}. */
export type DeploymentSettingsArgs = ArgsOf<typeof deploymentSettingsKind>;

/**
 * The product configuration of a deployment (experimental API): which products scan, who may
 * triage their findings, SCA PR blocking, the malware firewall, AI code sharing. One per
 * deployment (a second in the stack is refused at preview). Each field is managed only when
 * declared: the value found is recorded when first changed and put back on delete; every field
 * not declared is left as it is, nested settings included.
 *
 * @example
 * ```ts
 * import { DeploymentSettings } from "pulumi-semgrep";
 *
 * new DeploymentSettings("products", {
 *   deploymentId: "1",
 *   sca: { enabled: true, blockPrEnabled: true, malwareFirewallEnabled: true },
 *   secrets: { enabled: true, triagePermission: "TRIAGE_PERMISSION_NONE" },
 *   ai: { legacyAllowOpenaiCodeSharing: false },
 * });
 * ```
 */
export const DeploymentSettings: ResourceClass<typeof deploymentSettingsKind> = resourceClass(deploymentSettingsKind, provider);
export type DeploymentSettings = InstanceType<typeof DeploymentSettings>;
