/** Pulumi projects in temporary directories, driven through the real CLI (see test/tools/pulumi-run.mjs). */
export { type PulumiWorkspace, pulumiCliDir, pulumiWorkspace } from "../tools/pulumi-run.mjs";
