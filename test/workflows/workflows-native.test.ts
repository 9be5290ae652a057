/**
 * The workflow generator (generator.ts) through the native front end: each step's program is the
 * `Pulumi.yaml` of a YAML user of the plugin, installed from this machine's release tarball.
 * workflows.test.ts runs the same model through the dynamic classes.
 */
import { describeWorkflows } from "./generator";

describeWorkflows("native");
