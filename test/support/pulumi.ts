/** Pulumi projects in temporary directories, driven through the real CLI (see test/tools/pulumi-run.mjs). */
export { offlinePulumiEnv, type PulumiWorkspace, pulumiCliDir, pulumiWorkspace, runPulumi } from "../tools/pulumi-run.mjs";
