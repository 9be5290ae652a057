/**
 * The argument types programs compile against (the README: every input may be a `pulumi.Input`,
 * an `Output` or a secret). Checked by `npm run typecheck`, which `npm test` runs: a boolean input
 * typed `Input<true> | Input<false>` (a distributed conditional type) refuses `pulumi.secret(false)`.
 */
import * as pulumi from "@pulumi/pulumi";
import { expect, expectTypeOf, it } from "vitest";
import type { ManagedScanArgs, PolicyRuleModeArgs, RemediationPolicyArgs } from "../../provider/dynamic/resources";

it("boolean inputs take an Output<boolean>, such as pulumi.secret(false)", () => {
  expectTypeOf<pulumi.Output<boolean>>().toExtend<NonNullable<RemediationPolicyArgs["active"]>>();
  expectTypeOf<pulumi.Output<boolean>>().toExtend<NonNullable<PolicyRuleModeArgs["restoreOnDelete"]>>();
  expectTypeOf<pulumi.Output<boolean>>().toExtend<NonNullable<ManagedScanArgs["restoreOnDelete"]>>();
  const args: Pick<RemediationPolicyArgs, "active" | "restoreOnDelete"> = {
    active: pulumi.secret(false),
    restoreOnDelete: pulumi.output(true),
  };
  expect(pulumi.Output.isInstance(args.active)).toBe(true);
});
