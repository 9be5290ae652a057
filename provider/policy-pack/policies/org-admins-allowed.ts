/**
 * `org-admins-allowed` (mandatory): a UserRole may make a user an org admin only when the user is
 * one of `allowedAdmins` (user ids, logins or emails). A user already an org admin (the stack's
 * last state, or the live deployment) is not added by declaring it: only a new admin is refused.
 * Looking a user up needs Semgrep credentials (the environment of the Pulumi run, or `token` and
 * `url` in the policy's config); without them a user not named by id is refused (fail closed).
 * A UserRole removed from the program puts back the role it found: one that demoted an org admin
 * makes that user an admin again on delete, which the same rule judges (login and email from its state).
 */
import type { ReportViolation, ResourceValidationArgs, StackValidationArgs } from "@pulumi/policy";
import { SemgrepClient } from "../../client";
import { reportUnknownKeys, schemaOf, stringList, withDefaults } from "../config";
import { oneLine, type ResourceAndStackPolicy } from "../one-line";
import { describe, type Inputs, kindOf } from "../resources";
import { credentialsFrom, type Credentials } from "../severities";
import { isSecretValue, removedFromProgram, stateOf, stateResourceName } from "../stack-state";

export const NAME = "org-admins-allowed";

const configSchema = schemaOf({
  allowedAdmins: stringList("Users who may be made org admins: user ids, logins or emails (getUsers lists them)."),
  token: { type: "string", description: "Semgrep API token for the user lookups; default SEMGREP_APP_TOKEN, else SEMGREP_API_TOKEN." },
  url: { type: "string", description: "Semgrep's address; default SEMGREP_APP_URL, else SEMGREP_URL, else https://semgrep.dev." },
});

interface Config {
  allowedAdmins: string[];
  token?: string;
  url?: string;
}

/** The live user (its role, login and email), or why it could not be read. */
async function liveUser(credentials: Credentials, deploymentId: string, userId: string) {
  const client = new SemgrepClient({ token: credentials.token, baseUrl: credentials.url, env: {}, tokenSource: credentials.tokenSource });
  try {
    const [user] = await client.users.list(deploymentId, { memberIds: [userId] }).toArray(1);
    return user ?? `user ${userId} is not a user of deployment ${deploymentId}`;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.close();
  }
}

async function validate(args: ResourceValidationArgs, report: ReportViolation): Promise<void> {
  if (kindOf(args.type) !== "UserRole") return;
  const given = args.getConfig<object>();
  reportUnknownKeys(NAME, configSchema, given, report);
  const config = withDefaults<Config>(configSchema, given);
  const props = args.props as Inputs;
  if (props.role !== "ORG_ROLE_ADMIN") return;
  const userId = String(props.userId);
  if (config.allowedAdmins.includes(userId)) return;
  // Declaring an admin the stack already holds as one adds no one.
  const previous = await stateOf(args.urn);
  if (previous?.outputs?.role === "ORG_ROLE_ADMIN" && String(previous.outputs.userId) === userId) return;
  const resource = describe(args.type, args.name);
  const refuse = (why: string) =>
    report(`${resource} makes user ${userId} an org admin: ${why}. Org admins may be added only for the users of allowedAdmins.`);
  const credentials = credentialsFrom(config);
  if (!credentials)
    return refuse("the user is not in allowedAdmins by id, and without Semgrep credentials this policy cannot look up its login or email");
  const user = await liveUser(credentials, String(props.deploymentId), userId);
  if (typeof user === "string") return refuse(`the user could not be looked up (${user})`);
  if (user.orgRole === "ORG_ROLE_ADMIN") return; // already an admin: adopted, not added
  if ([user.login, user.email].some((name) => name && config.allowedAdmins.includes(name))) return;
  refuse(`${user.login || user.email || "the user"} is not in allowedAdmins`);
}

/** The stack half: a UserRole this change removes, whose delete puts back an org admin role it had taken away. */
async function validateStack(args: StackValidationArgs, report: ReportViolation): Promise<void> {
  const given = args.getConfig<object>();
  const config = withDefaults<Config>(configSchema, given);
  const removed = await removedFromProgram(args.resources, "UserRole");
  if ("error" in removed) {
    report(
      `this policy cannot read the stack's last state, so it cannot tell whether a UserRole this change removes puts back an org admin: ${removed.error}.`,
    );
    return;
  }
  for (const r of removed) {
    if (r.inputs?.restoreOnDelete === false) continue;
    const outputs = r.outputs ?? {};
    const original = outputs.originalRole;
    if (original !== "ORG_ROLE_ADMIN" && !isSecretValue(original)) continue;
    if (!isSecretValue(outputs.role) && outputs.role === "ORG_ROLE_ADMIN") continue; // an admin still: no one added
    const userId = String(outputs.userId ?? r.inputs?.userId);
    const names = [userId, outputs.login, outputs.email].filter((n): n is string => typeof n === "string" && n !== "");
    if (names.some((n) => config.allowedAdmins.includes(n))) continue;
    const resource = stateResourceName(r);
    report(
      isSecretValue(original)
        ? `${resource} is removed from the program and the role its delete puts back is secret in the state: review it (\`pulumi stack export --show-secrets\`); org admins may be added only for the users of allowedAdmins.`
        : `${resource} is removed from the program: its delete makes user ${userId}${outputs.login ? ` (${String(outputs.login)})` : ""} an org admin again, and org admins may be added only for the users of allowedAdmins.`,
    );
  }
}

export const orgAdminsAllowed: ResourceAndStackPolicy = {
  name: NAME,
  description: "Org admins are added only for the users the config allows.",
  enforcementLevel: "mandatory",
  configSchema,
  validateResource: oneLine(NAME, validate),
  validateStack: oneLine(NAME, validateStack),
};
