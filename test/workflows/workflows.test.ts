/**
 * The workflow generator (generator.ts) through the dynamic front end: each step's program is the
 * `index.js` of a TypeScript user of the package's classes. workflows-native.test.ts runs the
 * same model through the native plugin.
 */
import { describeWorkflows } from "./generator";

describeWorkflows("dynamic");
