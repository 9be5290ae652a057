/**
 * The policy pack shipped in the package (`policy-pack/` at the package root runs it): the
 * policies that keep a pull request from weakening the security configuration. Loaded only by
 * `pulumi preview|up --policy-pack …`, never by the package's own entry point, so that
 * `@pulumi/policy` (an optional peer dependency) costs nothing to users who never run the pack.
 */
import { PolicyPack } from "@pulumi/policy";
import { criticalFindingsBlock } from "./policies/critical-findings-block";
import { criticalRulesNotWeakened } from "./policies/critical-rules-not-weakened";
import { diffScansEnabled } from "./policies/diff-scans-enabled";
import { protectedRulesNotDisabled } from "./policies/protected-rules-not-disabled";
import { restoreOnDelete } from "./policies/restore-on-delete";
import { protectedProductsNotWeakened } from "./policies/protected-products-not-weakened";
import { aiCodeSharingOff } from "./policies/ai-code-sharing-off";
import { protectedNotificationsKept } from "./policies/protected-notifications-kept";
import { orgAdminsAllowed } from "./policies/org-admins-allowed";
import { protectedProjectsTeamAccess } from "./policies/protected-projects-team-access";
import { listenForStack } from "./stack-state";

/** The pack's name, as `pulumi preview` prints it beside each violation. */
export const PACK_NAME = "semgrep";

export const POLICIES = [
  criticalRulesNotWeakened,
  protectedRulesNotDisabled,
  diffScansEnabled,
  criticalFindingsBlock,
  restoreOnDelete,
  protectedProjectsTeamAccess,
  protectedProductsNotWeakened,
  aiCodeSharingOff,
  protectedNotificationsKept,
  orgAdminsAllowed,
];

/**
 * Serves the pack to the Pulumi engine (prints the port of its gRPC server). `@pulumi/policy`
 * takes the pack's version from `package.json` in the working directory: `packDir` holds it. The
 * pack reads the stack's last state when the engine names the stack (stack-state.ts).
 */
export function servePolicyPack(packDir: string): PolicyPack {
  listenForStack(process.cwd()); // the program's directory, where the engine started the pack
  process.chdir(packDir);
  return new PolicyPack(PACK_NAME, { policies: POLICIES });
}
