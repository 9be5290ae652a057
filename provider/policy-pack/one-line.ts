/**
 * A policy's unexpected failure as one violation line of that policy: `@pulumi/policy` turns a
 * thrown error into a stack trace while the run's summary can still show the pack green.
 */
import type { ReportViolation, ResourceValidationPolicy, StackValidationArgs } from "@pulumi/policy";
import { redactingReport, redactorForArgs } from "./redact";

/** A policy with both halves (one name, one config): `@pulumi/policy` runs validateResource per resource and validateStack last. */
export type ResourceAndStackPolicy = ResourceValidationPolicy & {
  validateStack: (args: StackValidationArgs, report: ReportViolation) => Promise<void>;
};

/**
 * `check`, reporting any error it throws as one line naming `policy` (a value unknown at preview
 * stays @pulumi/policy's advisory), every message with the texts of secret inputs redacted.
 */
export const oneLine =
  <A>(policy: string, check: (args: A, report: ReportViolation) => Promise<void> | void) =>
  async (args: A, given: ReportViolation): Promise<void> => {
    const report = redactingReport(given, redactorForArgs(args));
    try {
      await check(args, report);
    } catch (error) {
      if ((error as Error)?.constructor?.name === "UnknownValueError") throw error;
      report(`${policy} could not run: ${(error as Error)?.message ?? String(error)}`);
    }
  };
