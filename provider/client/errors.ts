/**
 * Errors raised by the Semgrep client: one class per failure kind, each carrying the operation,
 * HTTP method, path (never the query string, never a header) and, for answers, the status and
 * the service's own message. The token never reaches any of them.
 */

/** An error and the errors it wraps (`cause`), outermost first, at most `depth` of them. */
export function* causeChain(error: unknown, depth = 5): Generator<unknown> {
  for (let e: unknown = error, n = 0; e != null && n < depth; e = (e as { cause?: unknown }).cause, n++) yield e;
}

/** What every client error says about the request that failed. */
export interface RequestInfo {
  /** The client operation, e.g. `projects.get`. */
  operation: string;
  method: string;
  /** Path without the query string, e.g. `/api/v1/deployments/acme/projects/acme%2Fweb`. */
  path: string;
}

/**
 * Base class of every error this package raises about the Semgrep API. Each error is named after
 * its own class (`NotFoundError`, `StateVersionConflictError`, ...), here for all of them, so that
 * no subclass can carry another's name (a bundle of the package must keep class names: esbuild's
 * `keepNames` when it minifies).
 */
export class SemgrepError extends Error {
  constructor(message?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * A reference a Policies V2 bundle makes to something the deployment does not have (a project, a
 * project tag, a rule or a ruleset): one entry of the `missing_references` of `UNKNOWN_REFERENCE`.
 */
export interface MissingReference {
  /** `project`, `project_tag`, `rule` or `ruleset`, when the service says. */
  type?: string;
  /** The name as the bundle gives it, e.g. `acme/web-ap`. */
  value: string;
  /** Where the bundle names it, e.g. `exceptions[0].project`, when the service says. */
  field?: string;
}

/** One problem of a Policies V2 bundle, as a dry run's `validation_errors` (or a refusal's body) lists it. */
export interface ServiceValidationError {
  code: string;
  message: string;
  policy_slug?: string;
  context?: Record<string, unknown>;
}

/** What an answer says beyond its status, message and code, for the errors that carry more. */
export interface ErrorDetails {
  /**
   * The bundle's current `state_version`, as a 409 of a Policies V2 apply reports it
   * (`current_state_version`, or `state_version` in earlier answers).
   */
  stateVersion?: string;
  /** `UNKNOWN_REFERENCE`: what the bundle names that does not exist (`missing_references`). */
  missingReferences?: MissingReference[];
  /** `MISSING_DEPENDENT_ACTION`: the action type the policy lacks (`missing_companion`, e.g. `pr_comment`). */
  missingCompanion?: string;
  /** `MISSING_DEPENDENT_ACTION`: the action type that needs it (`action_type`, e.g. `block`). */
  actionType?: string;
  /** The remediation policy a refusal is about (`policy_slug`). */
  policySlug?: string;
  /** Every problem of the bundle, when a refusal lists them (`validation_errors`). */
  validationErrors?: ServiceValidationError[];
  /** The request carried `If-Match`: a 409 then means the bundle changed since it was read. */
  conditional?: boolean;
  /**
   * An earlier attempt of the same request got no answer (a lost connection, a 5xx) after it may
   * have reached the service, so it may have taken effect.
   */
  earlierAttemptMayHaveActed?: boolean;
  /** Where the request's token came from (`semgrep:token`, `SEMGREP_API_TOKEN`, ...), named by a 401 or 404. */
  tokenSource?: string;
  /** The operation's standing in Semgrep's OpenAPI, when it is not generally available. */
  stability?: Stability;
}

/**
 * An operation's standing in Semgrep's OpenAPI (its `x-badges`): `beta` may still change before
 * general availability; `experimental` may change or be removed without notice, and a service
 * may not serve it at all.
 */
export type Stability = "beta" | "experimental";

/** The service answered with a non-2xx status. */
export class APIError extends SemgrepError {
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** The service's message (`{"error": "..."}`), or a short excerpt of a non-JSON body. */
  readonly serviceMessage: string;
  /** Attempts made, retries included. */
  readonly attempts: number;
  /** The service's machine-readable error code (`{"code": "DEPLOYMENT_MIGRATED"}`), when it sent one. */
  readonly code: string | undefined;
  /** The remediation policy a Policies V2 refusal is about (`policy_slug`), when it names one. */
  readonly policySlug: string | undefined;
  /** Every problem of a refused Policies V2 bundle, when the refusal lists them (`validation_errors`); else empty. */
  readonly validationErrors: readonly ServiceValidationError[];

  constructor(info: RequestInfo, status: number, serviceMessage: string, attempts = 1, code?: string, details: ErrorDetails = {}) {
    super(APIError.describe(info, status, serviceMessage, code, details));
    this.operation = info.operation;
    this.method = info.method;
    this.path = info.path;
    this.status = status;
    this.serviceMessage = serviceMessage;
    this.attempts = attempts;
    this.code = code;
    this.policySlug = details.policySlug;
    this.validationErrors = details.validationErrors ?? [];
  }

  private static describe(
    info: RequestInfo,
    status: number,
    serviceMessage: string,
    code: string | undefined,
    details: ErrorDetails,
  ): string {
    const said = serviceMessage.replace(/\.+$/, "");
    const detail = said ? `: ${said}` : code ? `: ${code}` : "";
    const hint = hintFor(info, status, code, details);
    const version = details.stateVersion ? ` (current state_version: ${details.stateVersion})` : "";
    const facts = refusalFacts(details);
    return `Semgrep API ${info.operation} failed (${info.method} ${info.path} → ${status})${detail}${version}${facts}${hint ? `. ${hint}` : ""}`;
  }

  /**
   * Builds the subclass that matches the error code, else the status; a 409 of a request sent
   * with `If-Match` is a {@link StateVersionConflictError}.
   */
  static fromStatus(
    info: RequestInfo,
    status: number,
    serviceMessage: string,
    attempts = 1,
    code?: string,
    details: ErrorDetails = {},
  ): APIError {
    const Kind =
      (code ? CODE_CLASSES[code] : undefined) ??
      (status === 409 && details.conditional ? StateVersionConflictError : errorClassFor(status));
    return new Kind(info, status, serviceMessage, attempts, code, details);
  }
}

/** The error code of {@link DeploymentMigratedError}. */
export const DEPLOYMENT_MIGRATED = "DEPLOYMENT_MIGRATED";
/** The error code of {@link DeploymentNotMigratedError}. */
export const DEPLOYMENT_NOT_MIGRATED = "DEPLOYMENT_NOT_MIGRATED";
/** The error code of {@link ProductNotEnabledError}. */
export const PRODUCT_NOT_ENABLED = "PRODUCT_NOT_ENABLED";
/** The error code of {@link ReservedSlugError}. */
export const RESERVED_SLUG = "RESERVED_SLUG";
/** The error code of {@link StateVersionConflictError} (older answers: `STALE_STATE_VERSION`, accepted). */
export const STATE_VERSION_MISMATCH = "STATE_VERSION_MISMATCH";
/** The error code of {@link PreconditionRequiredError} (older answers: `PRECONDITION_REQUIRED`, accepted). */
export const IF_MATCH_REQUIRED = "IF_MATCH_REQUIRED";
/** The error code of {@link UnknownReferenceError}. */
export const UNKNOWN_REFERENCE = "UNKNOWN_REFERENCE";
/** The error code of {@link MissingDependentActionError} (older answers: `MISSING_COMPANION_ACTION`, accepted). */
export const MISSING_DEPENDENT_ACTION = "MISSING_DEPENDENT_ACTION";

/** 400: the request was malformed or a value was out of range. */
export class BadRequestError extends APIError {}
/** 401: no token, or the token is unknown. */
export class AuthenticationError extends APIError {}
/** 403: the token may not do this. */
export class PermissionDeniedError extends APIError {}
/** 404: the object does not exist, or the token lacks Web API access. */
export class NotFoundError extends APIError {}
/** 409: the request conflicts with the current state. */
export class ConflictError extends APIError {}
/** 422: the request was understood but its values were refused. */
export class UnprocessableEntityError extends APIError {}
/**
 * 410 with the code `DEPLOYMENT_MIGRATED`: the deployment uses Semgrep's unified policies
 * (Policies V2), and the deprecated v1 policy operations (list policies, list a policy's rules,
 * change a rule's mode) are gone for it.
 */
export class DeploymentMigratedError extends APIError {}
/**
 * 403 with the code `DEPLOYMENT_NOT_MIGRATED`: the deployment still uses v1 policies (it is not
 * migrated to Semgrep's unified policies), and every Policies V2 operation is refused for it.
 * The mirror of {@link DeploymentMigratedError}: a deployment has one of the two policy APIs.
 */
export class DeploymentNotMigratedError extends PermissionDeniedError {}
/**
 * 428 `IF_MATCH_REQUIRED`: a Policies V2 apply sent without `If-Match`. The client always sends
 * it; this comes from a service that did not receive it (a proxy that drops the header).
 */
export class PreconditionRequiredError extends APIError {}
/**
 * 409 `STATE_VERSION_MISMATCH` of a Policies V2 apply (or any 409 of a request sent with
 * `If-Match`): the bundle changed since the `state_version` sent in `If-Match` was read. Read the
 * bundle again, reapply the change to it, and apply again with its new version.
 */
export class StateVersionConflictError extends ConflictError {
  /** The bundle's current `state_version` (`current_state_version`), when the answer carries it. */
  readonly currentStateVersion: string | undefined;
  /** The same as {@link currentStateVersion} (its earlier name). */
  readonly stateVersion: string | undefined;
  /**
   * An earlier attempt of this apply got no answer after it may have reached the service: the
   * conflict may be that attempt's own doing (it applied the bundle, and changed the version).
   */
  readonly mayHaveApplied: boolean;

  constructor(info: RequestInfo, status: number, serviceMessage: string, attempts = 1, code?: string, details: ErrorDetails = {}) {
    super(info, status, serviceMessage, attempts, code, details);
    this.currentStateVersion = details.stateVersion;
    this.stateVersion = details.stateVersion;
    this.mayHaveApplied = details.earlierAttemptMayHaveActed ?? false;
  }
}
/** 409 `RESERVED_SLUG`: a remediation policy uses the slug of a system-managed policy. */
export class ReservedSlugError extends ConflictError {}
/**
 * 400 `UNKNOWN_REFERENCE`: the Policies V2 bundle names a project, project tag, rule or ruleset
 * the deployment does not have; `missingReferences` says which (and where, when the service says).
 */
export class UnknownReferenceError extends BadRequestError {
  readonly missingReferences: readonly MissingReference[];

  constructor(info: RequestInfo, status: number, serviceMessage: string, attempts = 1, code?: string, details: ErrorDetails = {}) {
    super(info, status, serviceMessage, attempts, code, details);
    this.missingReferences = details.missingReferences ?? [];
  }
}
/**
 * 400 `MISSING_DEPENDENT_ACTION`: a remediation policy has an action without the companion it
 * needs in the same policy (`block` needs `pr_comment`); `missingCompanion` names it.
 */
export class MissingDependentActionError extends BadRequestError {
  /** The action type the policy lacks (`pr_comment`), when the answer says. */
  readonly missingCompanion: string | undefined;
  /** The action type that needs it (`block`), when the answer says. */
  readonly actionType: string | undefined;

  constructor(info: RequestInfo, status: number, serviceMessage: string, attempts = 1, code?: string, details: ErrorDetails = {}) {
    super(info, status, serviceMessage, attempts, code, details);
    this.missingCompanion = details.missingCompanion;
    this.actionType = details.actionType;
  }
}
/**
 * 501, or 404 to an operation whose path names no object: the service does not serve this
 * experimental endpoint (Semgrep's OpenAPI marks it experimental: it may be absent from a
 * service, or removed without notice).
 */
export class ExperimentalEndpointError extends APIError {}
/** 404 `PRODUCT_NOT_ENABLED`: the deployment does not have the product (`code` or `secrets`) of the request. */
export class ProductNotEnabledError extends NotFoundError {}
/** 429: too many requests (after the client's own retries). */
export class RateLimitError extends APIError {}
/** 5xx: the service or a proxy in front of it failed (after the client's own retries). */
export class InternalServerError extends APIError {}

/** The caller's `signal` aborted the request (before an answer, or while waiting to retry). */
export class APIUserAbortError extends SemgrepError {
  readonly operation: string;
  readonly method: string;
  readonly path: string;

  constructor(info: RequestInfo, options?: { cause?: unknown }) {
    super(`Semgrep API ${info.operation} (${info.method} ${info.path}) was aborted by the caller`, options);
    this.operation = info.operation;
    this.method = info.method;
    this.path = info.path;
  }
}

/** No answer: the connection failed or was reset (after the client's own retries). */
export class APIConnectionError extends SemgrepError {
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  readonly attempts: number;

  constructor(info: RequestInfo, reason: string, attempts = 1, options?: { cause?: unknown }) {
    super(`Semgrep API ${info.operation} failed (${info.method} ${info.path}): ${reason}`, options);
    this.operation = info.operation;
    this.method = info.method;
    this.path = info.path;
    this.attempts = attempts;
  }
}

/** No answer within the per-request timeout (after the client's own retries). */
export class APIConnectionTimeoutError extends APIConnectionError {}

/** The service answered 2xx with a body that does not have the documented shape. */
export class ResponseValidationError extends SemgrepError {
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  readonly issues: string[];

  constructor(info: RequestInfo, issues: string[]) {
    super(`Semgrep API ${info.operation} (${info.method} ${info.path}) answered an unexpected shape: ${issues.join("; ")}`);
    this.operation = info.operation;
    this.method = info.method;
    this.path = info.path;
    this.issues = issues;
  }
}

/** A value given to the client was refused before any request was sent. */
export class InvalidRequestError extends SemgrepError {
  readonly operation: string;
  readonly issues: string[];

  constructor(operation: string, issues: string[]) {
    super(`Semgrep API ${operation}: invalid request: ${issues.join("; ")}`);
    this.operation = operation;
    this.issues = issues;
  }
}

/** No token in the options, in the stack config nor in SEMGREP_APP_TOKEN / SEMGREP_API_TOKEN. */
export class MissingTokenError extends SemgrepError {
  constructor() {
    super(
      "No Semgrep API token: set it with `pulumi config set --secret semgrep:token <token>`, " +
        "or in the SEMGREP_APP_TOKEN environment variable (or SEMGREP_API_TOKEN), or pass `token` to the client.",
    );
  }
}

/** `semgrep:url`, `SEMGREP_APP_URL` or the `baseUrl` option holds an address the client cannot use. */
export class InvalidBaseUrlError extends SemgrepError {
  /** Where the address was set, e.g. `semgrep:url`. */
  readonly setting: string;

  constructor(setting: string, value: string, problem: string) {
    super(`${setting} ${JSON.stringify(value)} ${problem}`);
    this.setting = setting;
  }
}

/** Error codes that name their own class, whatever the status; the older names (never sent) are accepted. */
const CODE_CLASSES: Readonly<Record<string, typeof APIError>> = {
  [DEPLOYMENT_MIGRATED]: DeploymentMigratedError,
  [DEPLOYMENT_NOT_MIGRATED]: DeploymentNotMigratedError,
  [PRODUCT_NOT_ENABLED]: ProductNotEnabledError,
  [RESERVED_SLUG]: ReservedSlugError,
  ...policiesV2CodeClasses(),
};

/** The live Policies V2 codes and the older names of the same answers. */
function policiesV2CodeClasses(): Record<string, typeof APIError> {
  return {
    [STATE_VERSION_MISMATCH]: StateVersionConflictError,
    STALE_STATE_VERSION: StateVersionConflictError,
    [IF_MATCH_REQUIRED]: PreconditionRequiredError,
    PRECONDITION_REQUIRED: PreconditionRequiredError,
    [UNKNOWN_REFERENCE]: UnknownReferenceError,
    [MISSING_DEPENDENT_ACTION]: MissingDependentActionError,
    MISSING_COMPANION_ACTION: MissingDependentActionError,
  };
}

/** What a Policies V2 refusal names beyond its message: which references are missing, which companion. */
function refusalFacts(details: ErrorDetails): string {
  const facts: string[] = [];
  const references = details.missingReferences ?? [];
  if (references.length) facts.push(`missing: ${references.map(describeReference).join(", ")}`);
  if (details.missingCompanion) facts.push(describeMissingCompanion(details.missingCompanion, details.actionType));
  if (details.policySlug) facts.push(`remediation policy ${details.policySlug}`);
  return facts.length ? ` (${facts.join("; ")})` : "";
}

/** A missing companion action as messages name it: `a block action needs a pr_comment action in the same policy`. */
export function describeMissingCompanion(companion: string, actionType?: string): string {
  return `${actionType ? `a ${actionType} action` : "an action"} needs a ${companion} action in the same policy`;
}

/** A missing reference as messages name it: `project "acme/web-ap" (exceptions[0].project)`. */
export function describeReference(reference: MissingReference): string {
  const where = reference.field ? ` (${reference.field})` : "";
  return `${reference.type ? `${reference.type.replace(/_/g, " ")} ` : ""}${JSON.stringify(reference.value)}${where}`;
}

function errorClassFor(status: number): typeof APIError {
  switch (status) {
    case 400:
      return BadRequestError;
    case 401:
      return AuthenticationError;
    case 403:
      return PermissionDeniedError;
    case 404:
      return NotFoundError;
    case 409:
      return ConflictError;
    case 422:
      return UnprocessableEntityError;
    case 428:
      return PreconditionRequiredError;
    case 429:
      return RateLimitError;
    default:
      return status >= 500 ? InternalServerError : APIError;
  }
}

/**
 * The hint of a 403 `DEPLOYMENT_NOT_MIGRATED`, the mirror of the 410 `DEPLOYMENT_MIGRATED` one:
 * not a scope problem (the generic 403 hint would send the user to the token's scopes), but a
 * deployment still on v1 policies, where the Policies V2 kinds cannot work.
 */
const NOT_MIGRATED_HINT =
  `${DEPLOYMENT_NOT_MIGRATED}: this deployment still uses v1 policies (it is not migrated to Semgrep's unified policies, Policies V2), ` +
  "so the Policies V2 operations are refused, whatever the token's scopes: DetectionPolicy, DetectionPolicyException, RemediationPolicy, " +
  "getDetectionPolicy, getDetectionPolicies, getRemediationPolicies and getPolicyVocabulary work only on migrated deployments. " +
  "Manage this deployment's rules with PolicyRuleMode and PolicyRuleModes, and read them with getPolicies, getPolicy and getPolicyRules " +
  "(v1 policy API, /api/v1/deployments/{deploymentId}/policies), until Semgrep migrates it";

/** The hint of a 404 `PRODUCT_NOT_ENABLED`, which may come without a message: the product named from the path. */
function productNotEnabledHint(path: string): string {
  const product = /\/detection-policy\/([^/:]+)/.exec(path)?.[1];
  return (
    `${product ? `The product ${decodeURIComponent(product)} is` : "The product is"} not enabled for this deployment: the detection policy summary ` +
    "(GET /api/policies/v2/deployments/{deploymentId}/detection-policy) lists the products it has"
  );
}

function hintFor(info: RequestInfo, status: number, code: string | undefined, details: ErrorDetails): string {
  if (code === DEPLOYMENT_MIGRATED) {
    return (
      `${DEPLOYMENT_MIGRATED}: this deployment uses Semgrep's unified policies (Policies V2), where the v1 policy operations are gone: ` +
      "PolicyRuleMode, PolicyRuleModes, getPolicies, getPolicy and getPolicyRules work only on deployments still on v1 policies. " +
      "Manage this deployment's rules with DetectionPolicy (rulesets, rules, disabled rules, exceptions), " +
      "DetectionPolicyException and RemediationPolicy, and read them with getDetectionPolicy and getRemediationPolicies " +
      "(Policies V2 API, /api/policies/v2/deployments/{deploymentId}/detection-policy/{product}). " +
      "A PolicyRuleMode or PolicyRuleModes of this deployment already in the stack: remove it from the program, and the next " +
      "`pulumi up` lets it go with a warning (there is nothing left to restore), or drop it from the state with " +
      "`pulumi state delete <urn>`"
    );
  }
  if (code === DEPLOYMENT_NOT_MIGRATED) return NOT_MIGRATED_HINT;
  if (details.stability === "experimental" && (status === 501 || status === 404)) return experimentalHint(status);
  if (code === PRODUCT_NOT_ENABLED) return productNotEnabledHint(info.path);
  if (code === UNKNOWN_REFERENCE || details.missingReferences?.length)
    return "The bundle names something this deployment does not have: correct the name, or create the project (a scan), tag, rule or ruleset first";
  if (code === MISSING_DEPENDENT_ACTION || code === "MISSING_COMPANION_ACTION")
    return "Add the companion action to the same remediation policy (the vocabulary's action_types list what each one requires)";
  if (code === RESERVED_SLUG)
    return "The slug belongs to a system-managed remediation policy, which no apply can create or change: choose another slug";
  switch (status) {
    case 401:
      return `Check the token${tokenFrom(details)}: it is missing, unknown or revoked`;
    case 403:
      return "The token is not allowed to do this; check its scopes in the deployment's Tokens settings";
    case 409:
      if (!details.conditional) return "";
      return "Read the bundle again, reapply the change to it, and apply with its new state_version";
    case 428:
      return "The apply needs the bundle's current state_version in the If-Match header: read the bundle (or dry-run it) first";
    case 404:
      return (
        `The object does not exist, or the token${tokenFrom(details)} lacks Web API access ` +
        "(enable 'Web API' for the token in the deployment's Tokens settings)"
      );
    default:
      return "";
  }
}

/** What a 501 or 404 of an experimental operation means (see {@link ExperimentalEndpointError}). */
function experimentalHint(status: number): string {
  return (
    `This endpoint is experimental on the service side (Semgrep's OpenAPI marks it so: it may be absent, or removed without notice), ` +
    `and this service does not serve it${status === 404 ? " (or the token lacks Web API access)" : ""}. ` +
    "Check that the deployment has the feature and that semgrep:url points at a service that has it; " +
    "the resources and data sources that use it cannot work until it does"
  );
}

/** Where the token came from, as the 401 and 404 hints name it (the user may have several set). */
function tokenFrom(details: ErrorDetails): string {
  return details.tokenSource ? ` (from ${details.tokenSource})` : " (semgrep:token, SEMGREP_APP_TOKEN or SEMGREP_API_TOKEN)";
}
