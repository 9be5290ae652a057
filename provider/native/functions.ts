/**
 * The data-source functions the plugin serves through Invoke, by name: `semgrep:index:<name>`.
 * The same functions a TypeScript program calls as `getX` (provider/functions); the plugin passes
 * the credentials it was configured with as the call's options.
 */
import type { SemgrepInvokeOptions } from "../functions";
import { PERSONAL_META_FIELDS } from "../functions/shapes";
import { secretConfigKeys } from "../core/kinds/notification-rule";
import { withSecrets } from "./secrets";
import {
  getDeploymentSettings,
  getNotificationRules,
  getDependencyRepositories,
  getDetectionPolicies,
  getDetectionPolicy,
  getLockfiles,
  getPolicies,
  getPolicy,
  getPolicyRules,
  getPolicyVocabulary,
  getProject,
  getProjects,
  getRemediationPolicies,
  getScan,
  getScans,
  getUsers,
  getTeam,
  getTeams,
} from "../functions";

type Invokable = (args: never, opts?: SemgrepInvokeOptions) => Promise<unknown>;

/** Every data-source function, under the name its token ends with. */
export const FUNCTIONS = {
  getPolicies,
  getPolicy,
  getPolicyRules,
  getScans,
  getScan,
  getProject,
  getProjects,
  getDependencyRepositories,
  getLockfiles,
  getDetectionPolicy,
  getDetectionPolicies,
  getRemediationPolicies,
  getPolicyVocabulary,
  getUsers,
  getDeploymentSettings,
  getNotificationRules,
  getTeams,
  getTeam,
} satisfies Record<string, Invokable>;

export type FunctionName = keyof typeof FUNCTIONS;
export const FUNCTION_NAMES = Object.keys(FUNCTIONS) as FunctionName[];

type Props = Record<string, unknown>;

/**
 * The parts of a function's result that are secrets, wrapped as the engine stores a secret: what
 * the TypeScript `getXOutput` forms mark secret (a scan's personal meta fields, getScanOutput),
 * so that a YAML program exporting a scan does not write its author's name and email in plain
 * text. (Not a project's tags, which getProjectOutput marks: the Go SDK's plain `GetProject` fails
 * on any secret in a result, "unexpected secret result returned to invoke call", and a program
 * reads a project mostly to pass its fields on; `getScan`'s plain Go form has that limit.)
 */
export const SECRET_RESULTS: Partial<Record<FunctionName, (result: Props) => Props>> = {
  getScan: (scan) => ({ ...scan, meta: withSecrets((scan.meta ?? {}) as Props, PERSONAL_META_FIELDS) }),
  // A rule's config that holds a URL or a token, as NotificationRule's outputs hold it.
  getNotificationRules: (result) => ({
    rules: (result.rules as Props[]).map((rule) => (secretConfigKeys(rule).length ? withSecrets(rule, ["config"]) : rule)),
  }),
};
