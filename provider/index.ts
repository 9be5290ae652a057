/**
 * pulumi-semgrep: manage Semgrep AppSec Platform configuration as code with Pulumi.
 *
 * Resources: ProjectSettings, ProjectSettingsSet, ProjectTags, ManagedScan, PolicyRuleMode, PolicyRuleModes, SbomExport,
 * DetectionPolicy, DetectionPolicyException, RemediationPolicy, DeploymentSettings, NotificationRule.
 * The typed API client is also reachable as `pulumi-semgrep/client`, and the local API emulator
 * as `pulumi-semgrep/emulator`.
 */
export * from "./dynamic/resources";
export * from "./functions";
export * from "./client";
