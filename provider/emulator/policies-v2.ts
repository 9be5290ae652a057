/**
 * The Policies V2 operations (unified policies, beta) over the emulator's state, as Semgrep's v2
 * OpenAPI describes them:
 * - bundles are read with a `state_version`, a fingerprint of their content only (it changes
 *   only when the content does: sending a bundle again, or in another order, keeps it);
 * - an apply is strict (the bundle sent replaces the whole state: a field left out is cleared,
 *   an exception or policy left out is deleted), atomic, and needs `If-Match: <state_version>`:
 *   428 `IF_MATCH_REQUIRED` without it, 409 `STATE_VERSION_MISMATCH` with `current_state_version`
 *   when it is stale (the codes and field of the live service, as its real clients read them);
 * - a dry run answers the diff (`creates`, `updates`, `deletes`) or, when the bundle has
 *   problems, every one of them at once in `validation_errors` (and no diff); an apply of such a
 *   bundle fails with the first problem's code (409 for `RESERVED_SLUG`, else 400) and the fields
 *   of that code (see {@link refusalFields}). With `dryRunRefusals` (the other form the live
 *   service may answer), a dry run refuses such a bundle as the apply would, without
 *   `validation_errors`, and a clean dry run leaves out `state_version`;
 * - a product the deployment lacks answers 404 `PRODUCT_NOT_ENABLED`;
 * - system-managed remediation policies never appear in the bundle, are never changed by an
 *   apply, and reserve their slugs.
 * These endpoints answer only on a deployment migrated to unified policies (`--policies-v2`);
 * without it each answers 403 `DEPLOYMENT_NOT_MIGRATED` (server.ts), as the v1 policy operations
 * answer 410 `DEPLOYMENT_MIGRATED` with it.
 */
import { createHash } from "node:crypto";
import {
  type BundleProblem,
  DETECTION_PRODUCTS,
  type DetectionPolicyBundleInput,
  type DetectionProduct,
  detectionBundleProblems,
  detectionPolicyRequest,
  exceptionKey,
  type RemediationPoliciesBundleInput,
  remediationBundleProblems,
  remediationPoliciesRequest,
  slugFromName,
  VOCAB_PRODUCTS,
  type VocabProduct,
} from "../client/schemas";
import { type ApiRequest, deploymentById, HttpError, parse, type Route } from "./api";
import type { EmulatorState, StoredDetectionException, StoredDetectionPolicy, StoredRemediationPolicy } from "./model";
import { renderDetectionBundle, renderDetectionException, renderRemediationPolicy } from "./render";
import { CONDITION_VALUES, vocabulary } from "./vocabulary";

const V2 = "/api/policies/v2/deployments/(?<deployment>[^/]+)";
const PRODUCT = "(?<product>[^/:]+)";

export const policiesV2Routes: Route[] = [
  {
    method: "GET",
    pattern: new RegExp(`^${V2}/detection-policy$`),
    operation: "policiesV2.getDetectionPolicySummary",
    handle: getSummary,
  },
  {
    method: "GET",
    pattern: new RegExp(`^${V2}/detection-policy/${PRODUCT}$`),
    operation: "policiesV2.getDetectionPolicy",
    handle: getDetection,
  },
  {
    method: "PUT",
    pattern: new RegExp(`^${V2}/detection-policy/${PRODUCT}$`),
    operation: "policiesV2.applyDetectionPolicy",
    handle: applyDetection,
    concurrentWrite: concurrentDetectionWrite,
  },
  {
    method: "POST",
    pattern: new RegExp(`^${V2}/detection-policy/${PRODUCT}:dryRun$`),
    operation: "policiesV2.dryRunDetectionPolicy",
    handle: dryRunDetection,
  },
  {
    method: "GET",
    pattern: new RegExp(`^${V2}/remediation-policies$`),
    operation: "policiesV2.getRemediationPolicies",
    handle: getRemediation,
  },
  {
    method: "PUT",
    pattern: new RegExp(`^${V2}/remediation-policies$`),
    operation: "policiesV2.applyRemediationPolicies",
    handle: applyRemediation,
    concurrentWrite: concurrentRemediationWrite,
  },
  {
    method: "POST",
    pattern: new RegExp(`^${V2}/remediation-policies:dryRun$`),
    operation: "policiesV2.dryRunRemediationPolicies",
    handle: dryRunRemediation,
  },
  { method: "GET", pattern: new RegExp(`^${V2}/vocab$`), operation: "policiesV2.getVocab", handle: getVocab },
];

/**
 * The error codes of the answers that are not validation errors, as the live service names them
 * (Semgrep's OpenAPI names none; earlier emulators invented `PRECONDITION_REQUIRED` and
 * `STALE_STATE_VERSION`, which no live answer carries).
 */
export const IF_MATCH_REQUIRED = "IF_MATCH_REQUIRED";
export const STATE_VERSION_MISMATCH = "STATE_VERSION_MISMATCH";
/** The validation codes whose refusal carries more than `error` and `code` (see {@link refusalFields}). */
export const UNKNOWN_REFERENCE = "UNKNOWN_REFERENCE";
export const MISSING_DEPENDENT_ACTION = "MISSING_DEPENDENT_ACTION";

/** A 409 of a stale `If-Match`, carrying the bundle's current `state_version` as `current_state_version`. */
class StaleStateVersion extends HttpError {
  constructor(readonly stateVersion: string) {
    super(409, "the bundle changed since the state_version in If-Match was read", STATE_VERSION_MISMATCH);
  }
}

/** The body of an answer other than 200 that carries more than `error` and `code`. */
export function errorFields(error: HttpError): Record<string, unknown> {
  if (error instanceof StaleStateVersion) return { current_state_version: error.stateVersion };
  if (error instanceof InvalidBundle)
    return { ...refusalFields(error.problems), ...(error.listed ? { validation_errors: error.problems } : {}) };
  return {};
}

/** One reference of a bundle that names nothing the deployment has: the `missing_references` of `UNKNOWN_REFERENCE`. */
export interface MissingReference {
  /** `project`, `project_tag`, `rule` or `ruleset` (the emulator checks projects only). */
  type: string;
  /** The name as the bundle gives it, e.g. `acme/web-ap`. */
  value: string;
  /** Where the bundle names it, e.g. `exceptions[0].project`. */
  field: string;
}

/**
 * The fields a refusal of a bundle (an apply, or a dry run under `dryRunRefusals`) carries beside
 * `error` and `code`, which are the first problem's: its `policy_slug` when it is about one
 * remediation policy; for `UNKNOWN_REFERENCE`, `missing_references`, every reference of the bundle
 * that names nothing (a list of {@link MissingReference}); for `MISSING_DEPENDENT_ACTION`,
 * `action_type` (`block`) and `missing_companion`, the action type it lacks (`pr_comment`, one
 * string). A `validation_errors` entry carries the same facts in its `context`, whose values are
 * strings: one entry per missing reference, with `reference_type` and `missing_references` (its
 * name); `action_type` and `missing_companion`.
 */
export function refusalFields(problems: readonly BundleProblem[]): Record<string, unknown> {
  const first = problems[0]!;
  const fields: Record<string, unknown> = first.policy_slug ? { policy_slug: first.policy_slug } : {};
  if (first.code === UNKNOWN_REFERENCE)
    fields.missing_references = problems
      .filter((p) => p.code === UNKNOWN_REFERENCE)
      .map((p): MissingReference => ({
        type: p.context.reference_type ?? "",
        value: p.context.missing_references ?? "",
        field: p.context.field ?? "",
      }));
  if (first.code === MISSING_DEPENDENT_ACTION)
    Object.assign(fields, { action_type: first.context.action_type, missing_companion: first.context.missing_companion });
  return fields;
}

/**
 * A refusal of a bundle with problems: the first one's code (409 for RESERVED_SLUG, else 400) and
 * its fields; `listed`, every problem as `validation_errors` too (an apply does; a dry run under
 * `dryRunRefusals` does not).
 */
class InvalidBundle extends HttpError {
  constructor(
    readonly problems: BundleProblem[],
    readonly listed = true,
  ) {
    const first = problems[0]!;
    super(first.code === "RESERVED_SLUG" ? 409 : 400, `invalid bundle: ${first.message}`, first.code);
  }
}

/** A dry run's answer in the form the emulator was started with (see the module's doc). */
function dryRunAnswer(req: ApiRequest, problems: BundleProblem[], diff: () => object, stateVersion: string) {
  if (!req.dryRunRefusals)
    return {
      ...(problems.length ? { creates: [], updates: [], deletes: [] } : diff()),
      state_version: stateVersion,
      validation_errors: problems,
    };
  if (problems.length) throw new InvalidBundle(problems, false);
  return { ...diff(), validation_errors: [] };
}

// ---------------------------------------------------------------------------------------------
// Content fingerprints

/** A short fingerprint of a value's JSON (keys in the order the value was built in). */
function fingerprint(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);
}

/** The content a detection `state_version` covers: the bundle without the deployment's slug. */
function detectionVersion(policy: StoredDetectionPolicy): string {
  const { deployment_slug: _slug, ...content } = renderDetectionBundle(policy, "");
  return fingerprint(content);
}

/** The content a remediation `state_version` covers: the policies of the bundle (system-managed ones are not in it). */
function remediationVersion(policies: StoredRemediationPolicy[]): string {
  return fingerprint(policies.map(renderRemediationPolicy));
}

// ---------------------------------------------------------------------------------------------
// Helpers

const sortedSet = (values: readonly string[]): string[] => [...new Set(values)].sort();
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const keyOf = (e: StoredDetectionException): string =>
  JSON.stringify(exceptionKey({ project: e.project, project_tag_name: e.projectTagName, rule: e.rule, rule_type: e.ruleType }));

/** The `If-Match` value sent, without the quotes and weak mark of an HTTP entity tag; undefined when absent. */
function ifMatchOf(req: ApiRequest): string | undefined {
  const raw = req.headers["if-match"];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value ? value.replace(/^W\//, "").replace(/^"(.*)"$/, "$1") : undefined;
}

/** 428 `IF_MATCH_REQUIRED` without `If-Match`; 409 `STATE_VERSION_MISMATCH` with the current version when it is not `current`. */
function checkIfMatch(req: ApiRequest, current: string): void {
  const given = ifMatchOf(req);
  if (given === undefined)
    throw new HttpError(
      428,
      "If-Match required: send the bundle's current state_version in the If-Match header (read the bundle first)",
      IF_MATCH_REQUIRED,
    );
  if (given !== current) throw new StaleStateVersion(current);
}

function slugOf(state: EmulatorState, deploymentId: number): string {
  return state.deployments.find((d) => d.id === deploymentId)?.slug ?? "";
}

function isProduct(value: string): value is DetectionProduct {
  return (DETECTION_PRODUCTS as readonly string[]).includes(value);
}

function notEnabled(product: string): HttpError {
  return new HttpError(404, `product ${product} is not enabled for this deployment`, "PRODUCT_NOT_ENABLED");
}

/** The enabled products of a deployment: those the emulator was started with that have a bundle. */
function enabledPolicies(req: ApiRequest, deploymentId: number): StoredDetectionPolicy[] {
  return DETECTION_PRODUCTS.filter((p) => req.detectionProducts.includes(p))
    .map((p) => req.state.detectionPolicies.find((d) => d.deploymentId === deploymentId && d.product === p))
    .filter((p): p is StoredDetectionPolicy => p !== undefined);
}

/** The bundle of the path's product: 400 for a value that is no product, 404 PRODUCT_NOT_ENABLED for one the deployment lacks. */
function detectionTarget(req: ApiRequest): { policy: StoredDetectionPolicy; slug: string } {
  const deployment = deploymentById(req);
  const product = req.params.product ?? "";
  if (!isProduct(product))
    throw new HttpError(400, `invalid request: product ${JSON.stringify(product)} is not one of ${DETECTION_PRODUCTS.join(", ")}`);
  const policy = enabledPolicies(req, deployment.id).find((p) => p.product === product);
  if (!policy) throw notEnabled(product);
  return { policy, slug: deployment.slug };
}

// ---------------------------------------------------------------------------------------------
// Detection policies

function detectionState(policy: StoredDetectionPolicy, slug: string) {
  return { bundle: renderDetectionBundle(policy, slug), state_version: detectionVersion(policy) };
}

function getSummary(req: ApiRequest) {
  const deployment = deploymentById(req);
  const states = enabledPolicies(req, deployment.id).map((p) => [p.product, detectionState(p, deployment.slug)]);
  return { deployment_slug: deployment.slug, ...Object.fromEntries(states) };
}

function getDetection(req: ApiRequest) {
  const { policy, slug } = detectionTarget(req);
  return detectionState(policy, slug);
}

/** The stored (canonical) form of a bundle: rule lists as sorted sets, exceptions sorted by identity. */
export function storedDetection(
  deploymentId: number,
  product: DetectionProduct,
  bundle: DetectionPolicyBundleInput,
): StoredDetectionPolicy {
  const exceptions = (bundle.exceptions ?? []).map((e): StoredDetectionException => ({
    exceptionType: e.exception_type,
    ...(e.project ? { project: e.project } : { projectTagName: e.project_tag_name ?? "" }),
    rule: e.rule,
    ruleType: e.rule_type,
  }));
  return {
    deploymentId,
    product,
    rulesets: sortedSet(bundle.rulesets ?? []),
    rules: sortedSet(bundle.rules ?? []),
    disabled: sortedSet(bundle.disabled ?? []),
    exceptions: exceptions.sort((a, b) => compare(keyOf(a), keyOf(b))),
  };
}

/**
 * Every problem of a candidate: the rules the OpenAPI states (shared with the client) and the
 * service's own, a project exception naming a project the deployment does not have.
 */
function detectionProblems(req: ApiRequest, policy: StoredDetectionPolicy, bundle: DetectionPolicyBundleInput): BundleProblem[] {
  const problems = detectionBundleProblems(policy.product, bundle);
  const projects = new Set(req.state.projects.filter((p) => p.deploymentId === policy.deploymentId).map((p) => p.name));
  (bundle.exceptions ?? []).forEach((e, i) => {
    if (e.project && !e.project_tag_name && !projects.has(e.project))
      problems.push({
        code: UNKNOWN_REFERENCE,
        message: `exceptions[${i}].project: no project ${JSON.stringify(e.project)} in this deployment`,
        policy_slug: "",
        context: { field: `exceptions[${i}].project`, reference_type: "project", missing_references: e.project },
      });
  });
  return problems.sort((a, b) => fieldOrder(a) - fieldOrder(b));
}

/** Problems in bundle order: by the index of the exception or policy they name, bundle-wide ones first. */
function fieldOrder(problem: BundleProblem): number {
  const match = /^(?:exceptions|policies)\[(\d+)\]/.exec(problem.context.field ?? "");
  return match ? Number(match[1]) : -1;
}

function detectionDiff(before: StoredDetectionPolicy, after: StoredDetectionPolicy) {
  const creates: unknown[] = [];
  const updates: unknown[] = [];
  const deletes: unknown[] = [];
  const selection = (p: StoredDetectionPolicy) => ({ rulesets: p.rulesets, rules: p.rules, disabled: p.disabled });
  if (JSON.stringify(selection(before)) !== JSON.stringify(selection(after)))
    updates.push({ kind: "DetectionPolicy", key: { product: before.product }, before: selection(before), after: selection(after) });
  const old = new Map(before.exceptions.map((e) => [keyOf(e), e]));
  const fresh = new Map(after.exceptions.map((e) => [keyOf(e), e]));
  const entry = (e: StoredDetectionException) => ({ kind: "DetectionPolicyException", key: JSON.parse(keyOf(e)) as object });
  const content = (e: StoredDetectionException) => ({ exception_type: renderDetectionException(e).exception_type });
  for (const [key, e] of fresh) {
    const was = old.get(key);
    if (!was) creates.push({ ...entry(e), after: content(e) });
    else if (was.exceptionType !== e.exceptionType) updates.push({ ...entry(e), before: content(was), after: content(e) });
  }
  for (const [key, e] of old) if (!fresh.has(key)) deletes.push({ ...entry(e), before: content(e) });
  return { creates, updates, deletes };
}

function dryRunDetection(req: ApiRequest) {
  const { policy } = detectionTarget(req);
  const { bundle } = parse(detectionPolicyRequest, req.body);
  const problems = detectionProblems(req, policy, bundle);
  const diff = () => detectionDiff(policy, storedDetection(policy.deploymentId, policy.product, bundle));
  return dryRunAnswer(req, problems, diff, detectionVersion(policy));
}

function applyDetection(req: ApiRequest) {
  const { policy, slug } = detectionTarget(req);
  checkIfMatch(req, detectionVersion(policy));
  const { bundle } = parse(detectionPolicyRequest, req.body);
  const problems = detectionProblems(req, policy, bundle);
  if (problems.length) throw new InvalidBundle(problems);
  const next = storedDetection(policy.deploymentId, policy.product, bundle);
  if (detectionVersion(next) !== detectionVersion(policy)) {
    Object.assign(policy, next);
    req.changed();
  }
  return detectionState(policy, slug);
}

// ---------------------------------------------------------------------------------------------
// Remediation policies

/** The deployment's policies: those of the bundle (`user`), and the system-managed ones. */
function remediationOf(req: ApiRequest, deploymentId: number) {
  const all = req.state.remediationPolicies.filter((p) => p.deploymentId === deploymentId);
  return { user: all.filter((p) => !p.systemManaged), system: all.filter((p) => p.systemManaged) };
}

function remediationState(req: ApiRequest, deploymentId: number) {
  const { user } = remediationOf(req, deploymentId);
  return {
    bundle: { deployment_slug: slugOf(req.state, deploymentId), policies: user.map(renderRemediationPolicy) },
    state_version: remediationVersion(user),
  };
}

function getRemediation(req: ApiRequest) {
  return remediationState(req, deploymentById(req).id);
}

/**
 * The stored form of a bundle's policies, sorted by slug: a slug left out is derived from the
 * name; a field left out is cleared to its default (`description` "", `active` true, a
 * condition's `mode` any, an action's `config` empty).
 */
export function storedRemediation(
  deploymentId: number,
  bundle: RemediationPoliciesBundleInput,
  systemManaged = false,
): StoredRemediationPolicy[] {
  return (bundle.policies ?? [])
    .map((p): StoredRemediationPolicy => ({
      deploymentId,
      slug: p.slug || slugFromName(p.name),
      name: p.name,
      description: p.description ?? "",
      active: p.active ?? true,
      filters: {
        mode: p.filters.mode,
        conditions: (p.filters.conditions ?? []).map((c) => ({ type: c.type, values: [...c.values], mode: c.mode || "any" })),
      },
      actions: p.actions.map((a) => ({
        type: a.type,
        config: Object.fromEntries(Object.entries(a.config ?? {}).sort(([x], [y]) => compare(x, y))),
      })),
      systemManaged,
    }))
    .sort((a, b) => compare(a.slug, b.slug));
}

/**
 * Every problem of a candidate: the rules the OpenAPI states (shared with the client) and the
 * service's own, the slugs reserved by system-managed policies and the condition types and values
 * of the vocabulary. A policy's problems come in that order, policies in bundle order.
 */
function remediationProblems(req: ApiRequest, deploymentId: number, bundle: RemediationPoliciesBundleInput): BundleProblem[] {
  const reserved = new Set(remediationOf(req, deploymentId).system.map((p) => p.slug));
  const types = new Set(vocabulary().condition_types.map((c) => c.type));
  const first: BundleProblem[] = [];
  const last: BundleProblem[] = [];
  (bundle.policies ?? []).forEach((policy, i) => {
    const at = `policies[${i}]`;
    const slug = policy.slug || slugFromName(policy.name);
    const say = (to: BundleProblem[], code: string, field: string, message: string, context: Record<string, string>) =>
      to.push({ code, message: `${field}: ${message}`, policy_slug: slug, context: { field, ...context } });
    if (reserved.has(slug)) {
      const field = policy.slug ? `${at}.slug` : `${at}.name`;
      say(first, "RESERVED_SLUG", field, `the slug ${slug} is reserved by a system-managed policy`, { value: slug });
    }
    (policy.filters.conditions ?? []).forEach((condition, j) => {
      const where = `${at}.filters.conditions[${j}]`;
      if (!types.has(condition.type)) {
        const message = `${JSON.stringify(condition.type)} is not a condition type (see the vocabulary)`;
        say(last, "UNSUPPORTED_CONDITION_TYPE", `${where}.type`, message, { condition_type: condition.type });
        return;
      }
      const allowed = CONDITION_VALUES[condition.type];
      condition.values.forEach((value, k) => {
        if (allowed && !allowed.includes(value)) {
          const message = `${JSON.stringify(value)} is not a ${condition.type} value: one of ${allowed.join(", ")}`;
          say(last, "UNSUPPORTED_CONDITION_VALUE", `${where}.values[${k}]`, message, { condition_type: condition.type, value });
        }
      });
    });
  });
  // A stable sort: within one policy, the order of the three lists is kept.
  return [...first, ...remediationBundleProblems(bundle), ...last].sort((a, b) => fieldOrder(a) - fieldOrder(b));
}

function remediationDiff(before: StoredRemediationPolicy[], after: StoredRemediationPolicy[]) {
  const creates: unknown[] = [];
  const updates: unknown[] = [];
  const deletes: unknown[] = [];
  const old = new Map(before.map((p) => [p.slug, renderRemediationPolicy(p)]));
  const fresh = new Map(after.map((p) => [p.slug, renderRemediationPolicy(p)]));
  const entry = (slug: string) => ({ kind: "RemediationPolicy", key: { slug } });
  for (const [slug, policy] of fresh) {
    const was = old.get(slug);
    if (!was) creates.push({ ...entry(slug), after: policy });
    else if (JSON.stringify(was) !== JSON.stringify(policy)) updates.push({ ...entry(slug), before: was, after: policy });
  }
  for (const [slug, policy] of old) if (!fresh.has(slug)) deletes.push({ ...entry(slug), before: policy });
  return { creates, updates, deletes };
}

function dryRunRemediation(req: ApiRequest) {
  const deployment = deploymentById(req);
  const { bundle } = parse(remediationPoliciesRequest, req.body);
  const { user } = remediationOf(req, deployment.id);
  const problems = remediationProblems(req, deployment.id, bundle);
  const diff = () => remediationDiff(user, storedRemediation(deployment.id, bundle));
  return dryRunAnswer(req, problems, diff, remediationVersion(user));
}

function applyRemediation(req: ApiRequest) {
  const deployment = deploymentById(req);
  const { user } = remediationOf(req, deployment.id);
  checkIfMatch(req, remediationVersion(user));
  const { bundle } = parse(remediationPoliciesRequest, req.body);
  const problems = remediationProblems(req, deployment.id, bundle);
  if (problems.length) throw new InvalidBundle(problems);
  const next = storedRemediation(deployment.id, bundle);
  if (remediationVersion(next) !== remediationVersion(user)) {
    const others = req.state.remediationPolicies.filter((p) => p.deploymentId !== deployment.id || p.systemManaged);
    req.state.remediationPolicies = [...others, ...next].sort((a, b) => a.deploymentId - b.deploymentId || compare(a.slug, b.slug));
    req.changed();
  }
  return remediationState(req, deployment.id);
}

// ---------------------------------------------------------------------------------------------
// Another client's write (the `concurrent-write` fault)

/** The first of `<prefix>0`, `<prefix>1`, ... that `taken` does not hold: a name no program declares. */
function freeName(prefix: string, taken: readonly string[]): string {
  let n = 0;
  while (taken.includes(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

/** Someone else's apply of the path's detection bundle: it adds a rule (`emulator.concurrent-write-N`), changing the state_version. */
function concurrentDetectionWrite(req: ApiRequest): void {
  const { policy } = detectionTarget(req);
  policy.rules = sortedSet([...policy.rules, freeName("emulator.concurrent-write-", policy.rules)]);
  req.changed();
}

/** Someone else's apply of the remediation policies: it adds a policy (slug `emulator-concurrent-write-N`), changing the state_version. */
function concurrentRemediationWrite(req: ApiRequest): void {
  const deployment = deploymentById(req);
  const slug = freeName(
    "emulator-concurrent-write-",
    remediationOf(req, deployment.id).user.map((p) => p.slug),
  );
  const added: StoredRemediationPolicy = {
    deploymentId: deployment.id,
    slug,
    name: `Added by another client (${slug})`,
    description: "",
    active: true,
    filters: { mode: "all", conditions: [{ type: "severity", values: ["low"], mode: "any" }] },
    actions: [{ type: "pr_comment", config: {} }],
    systemManaged: false,
  };
  req.state.remediationPolicies = [...req.state.remediationPolicies, added].sort(
    (a, b) => a.deploymentId - b.deploymentId || compare(a.slug, b.slug),
  );
  req.changed();
}

// ---------------------------------------------------------------------------------------------
// Vocabulary

function getVocab(req: ApiRequest) {
  const deployment = deploymentById(req);
  const product = req.query.get("product") ?? "";
  if (product !== "" && !(VOCAB_PRODUCTS as readonly string[]).includes(product))
    throw new HttpError(400, `invalid request: product ${JSON.stringify(product)} is not one of ${VOCAB_PRODUCTS.join(", ")}`);
  if (isProduct(product) && !enabledPolicies(req, deployment.id).some((p) => p.product === product)) throw notEnabled(product);
  return vocabulary((product || undefined) as VocabProduct | undefined);
}
