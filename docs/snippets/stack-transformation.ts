// Moving a stack to the generated SDK (docs/guides/moving-to-the-sdk.md), before the resources: every
// semgrep:index:<Kind> of the SDK keeps the state of the dynamic class it replaces. Type-checked by
// `npm run typecheck`, and run through the CLI by test/e2e/node-sdk.test.ts.
import * as pulumi from "@pulumi/pulumi";

pulumi.runtime.registerStackTransformation(({ type, props, opts }) =>
  type.startsWith("semgrep:index:")
    ? { props, opts: pulumi.mergeOptions(opts, { aliases: [{ type: type.replace("semgrep:index:", "pulumi-nodejs:dynamic/semgrep:") }] }) }
    : undefined,
);
