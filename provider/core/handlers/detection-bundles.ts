/**
 * A product's detection policy bundle as the resources see it: the endpoint that reads and writes
 * it (bundles.ts), and the conversion between the API's snake_case bundle and the resources'
 * camelCase fields.
 */
import { type DetectionPolicyBundle, detectionBundleInput, type DetectionProduct } from "../../client";
import { type DetectionExceptionArgs, exceptionsOf } from "../kinds/detection-exceptions";
import type { BundleEndpoint } from "./bundles";
import { apiClient } from "../runtime/credentials";

/** `the code detection policy of deployment 1`: the object a detection resource's claims and messages name. */
export const detectionObject = (deploymentId: unknown, product: unknown) =>
  `the ${String(product)} detection policy of deployment ${String(deploymentId)}`;

export function detectionEndpoint(deploymentId: string, product: DetectionProduct): BundleEndpoint<DetectionPolicyBundle> {
  return {
    name: detectionObject(deploymentId, product),
    key: `${deploymentId}/detection-policy/${product}`,
    read: async () => {
      const { bundle, state_version } = await apiClient().policiesV2.getDetectionPolicy(deploymentId, product);
      return { bundle, stateVersion: state_version };
    },
    write: async (bundle, ifMatch) => {
      const { bundle: written, state_version } = await apiClient().policiesV2.applyDetectionPolicy(
        deploymentId,
        product,
        detectionBundleInput(bundle),
        {
          ifMatch,
        },
      );
      return { bundle: written, stateVersion: state_version };
    },
  };
}

/** The fields of a detection bundle a resource can declare, in the resources' spelling. */
export interface DetectionFields {
  rulesets: string[];
  rules: string[];
  disabled: string[];
  exceptions: DetectionExceptionArgs[];
}
export const DETECTION_FIELDS = ["rulesets", "rules", "disabled", "exceptions"] as const;
export type DetectionField = (typeof DETECTION_FIELDS)[number];

export function fieldsOf(bundle: DetectionPolicyBundle): DetectionFields {
  return {
    rulesets: bundle.rulesets,
    rules: bundle.rules,
    disabled: bundle.disabled,
    exceptions: exceptionsOf(bundle.exceptions),
  };
}

/** The bundle with some fields replaced. */
export function withFields(bundle: DetectionPolicyBundle, fields: Partial<DetectionFields>): DetectionPolicyBundle {
  const exceptions = fields.exceptions?.map((e) => ({
    exception_type: e.exceptionType,
    project: e.projectName,
    project_tag_name: e.projectName === undefined ? e.projectTagName : undefined,
    rule: e.rule,
    rule_type: e.ruleType,
  }));
  return {
    ...bundle,
    ...(fields.rulesets ? { rulesets: fields.rulesets } : {}),
    ...(fields.rules ? { rules: fields.rules } : {}),
    ...(fields.disabled ? { disabled: fields.disabled } : {}),
    ...(exceptions ? { exceptions } : {}),
  };
}
