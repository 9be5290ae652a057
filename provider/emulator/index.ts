/** `pulumi-semgrep/emulator`: a local, faithful emulator of the Semgrep web API. */
export { startEmulator, DEFAULT_TOKEN, type EmulatorOptions, type RunningEmulator, type RequestLogEntry } from "./server";
export { isWriteRequest, type FaultSettings, type FaultKind } from "./faults";
export { buildPreset, DEMO_DEPLOYMENT, SAST_POLICY_ID, SECRETS_POLICY_ID, STRICT_POLICY_ID, SYSTEM_REMEDIATION_SLUG } from "./presets";
export type { EmulatorState, PresetName } from "./model";
