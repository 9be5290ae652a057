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

/** Base class of every error this package raises about the Semgrep API. */
export class SemgrepError extends Error {
  override name = "SemgrepError";
}

/** The service answered with a non-2xx status. */
export class APIError extends SemgrepError {
  override name = "APIError";
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

  constructor(info: RequestInfo, status: number, serviceMessage: string, attempts = 1, code?: string) {
    super(APIError.describe(info, status, serviceMessage, code));
    this.operation = info.operation;
    this.method = info.method;
    this.path = info.path;
    this.status = status;
    this.serviceMessage = serviceMessage;
    this.attempts = attempts;
    this.code = code;
  }

  private static describe(info: RequestInfo, status: number, serviceMessage: string, code: string | undefined): string {
    const said = serviceMessage.replace(/\.+$/, "");
    const detail = said ? `: ${said}` : code ? `: ${code}` : "";
    const hint = hintFor(status, code);
    return `Semgrep API ${info.operation} failed (${info.method} ${info.path} → ${status})${detail}${hint ? `. ${hint}` : ""}`;
  }

  /** Builds the subclass that matches the error code, else the status. */
  static fromStatus(info: RequestInfo, status: number, serviceMessage: string, attempts = 1, code?: string): APIError {
    const Kind = code === DEPLOYMENT_MIGRATED ? DeploymentMigratedError : errorClassFor(status);
    return new Kind(info, status, serviceMessage, attempts, code);
  }
}

/** The error code of {@link DeploymentMigratedError}. */
export const DEPLOYMENT_MIGRATED = "DEPLOYMENT_MIGRATED";

/** 400: the request was malformed or a value was out of range. */
export class BadRequestError extends APIError {
  override name = "BadRequestError";
}
/** 401: no token, or the token is unknown. */
export class AuthenticationError extends APIError {
  override name = "AuthenticationError";
}
/** 403: the token may not do this. */
export class PermissionDeniedError extends APIError {
  override name = "PermissionDeniedError";
}
/** 404: the object does not exist, or the token lacks Web API access. */
export class NotFoundError extends APIError {
  override name = "NotFoundError";
}
/** 409: the request conflicts with the current state. */
export class ConflictError extends APIError {
  override name = "ConflictError";
}
/** 422: the request was understood but its values were refused. */
export class UnprocessableEntityError extends APIError {
  override name = "UnprocessableEntityError";
}
/**
 * 410 with the code `DEPLOYMENT_MIGRATED`: the deployment uses Semgrep's unified policies
 * (Policies V2), and the deprecated v1 policy operations (list policies, list a policy's rules,
 * change a rule's mode) are gone for it.
 */
export class DeploymentMigratedError extends APIError {
  override name = "DeploymentMigratedError";
}
/** 429: too many requests (after the client's own retries). */
export class RateLimitError extends APIError {
  override name = "RateLimitError";
}
/** 5xx: the service or a proxy in front of it failed (after the client's own retries). */
export class InternalServerError extends APIError {
  override name = "InternalServerError";
}

/** The caller's `signal` aborted the request (before an answer, or while waiting to retry). */
export class APIUserAbortError extends SemgrepError {
  override name = "APIUserAbortError";
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
  override name = "APIConnectionError";
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
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = "APIConnectionTimeoutError";
}

/** The service answered 2xx with a body that does not have the documented shape. */
export class ResponseValidationError extends SemgrepError {
  override name = "ResponseValidationError";
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
  override name = "InvalidRequestError";
  readonly operation: string;
  readonly issues: string[];

  constructor(operation: string, issues: string[]) {
    super(`Semgrep API ${operation}: invalid request: ${issues.join("; ")}`);
    this.operation = operation;
    this.issues = issues;
  }
}

/** No token in the options, in the stack config nor in SEMGREP_APP_TOKEN. */
export class MissingTokenError extends SemgrepError {
  override name = "MissingTokenError";
  constructor() {
    super(
      "No Semgrep API token: set it with `pulumi config set --secret semgrep:token <token>`, " +
        "or in the SEMGREP_APP_TOKEN environment variable, or pass `token` to the client.",
    );
  }
}

/** `semgrep:url`, `SEMGREP_APP_URL` or the `baseUrl` option holds an address the client cannot use. */
export class InvalidBaseUrlError extends SemgrepError {
  override name = "InvalidBaseUrlError";
  /** Where the address was set, e.g. `semgrep:url`. */
  readonly setting: string;

  constructor(setting: string, value: string, problem: string) {
    super(`${setting} ${JSON.stringify(value)} ${problem}`);
    this.setting = setting;
  }
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
    case 429:
      return RateLimitError;
    default:
      return status >= 500 ? InternalServerError : APIError;
  }
}

function hintFor(status: number, code: string | undefined): string {
  if (code === DEPLOYMENT_MIGRATED) {
    return (
      "This deployment uses Semgrep's unified policies (Policies V2), where the v1 policy operations are gone: " +
      "PolicyRuleMode, getPolicies, getPolicy and getPolicyRules work only on deployments still on v1 policies. " +
      "Manage this deployment's rules in its detection policies instead " +
      "(Policies V2 API, /api/policies/v2/deployments/{deploymentId}/detection-policy/{product})"
    );
  }
  switch (status) {
    case 401:
      return "Check the token: it is missing, unknown or revoked (semgrep:token or SEMGREP_APP_TOKEN)";
    case 403:
      return "The token is not allowed to do this; check its scopes in the deployment's Tokens settings";
    case 404:
      return (
        "The object does not exist, or the token lacks Web API access " +
        "(enable 'Web API' for the token in the deployment's Tokens settings)"
      );
    default:
      return "";
  }
}
