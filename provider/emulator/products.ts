/**
 * The deployment's product configuration (`DeploymentProductsService`, experimental) over the
 * emulator's state. What a careful reading of the OpenAPI implies, where it says nothing more:
 * - the `PUT` is "create or update" of the whole configuration, and protobuf cannot tell a field
 *   left out from one at its default, so it replaces the configuration: a field left out is reset
 *   to its default (false, "", the triage permission's zero value `TRIAGE_PERMISSION_IGNORE`),
 *   nested settings included. A client that means to change one field reads, changes and writes
 *   the whole (the client's `products.update`);
 * - `ai.mdr_enabled` is readOnly: a request that writes it is refused (400, naming it), and a
 *   `PUT` keeps its value;
 * - a field the OpenAPI does not name, or an enum value it does not list, is refused (400);
 * - `deploymentId` in the body, when given, must be the path's.
 */
import { putProductConfigRequest, TRIAGE_PERMISSION_ZERO } from "../client/schemas";
import { type ApiRequest, deploymentById, HttpError, parse, type Route } from "./api";
import type { StoredProductConfig } from "./model";

const AGENT = "/api/agent/deployments/(?<deployment>[^/]+)";

export const productsRoutes: Route[] = [
  { method: "GET", pattern: new RegExp(`^${AGENT}/products$`), operation: "products.get", handle: getProducts, stability: "experimental" },
  {
    method: "PUT",
    pattern: new RegExp(`^${AGENT}/products$`),
    operation: "products.update",
    handle: putProducts,
    stability: "experimental",
  },
];

/** A deployment's configuration with every field at its default. */
export function defaultProductConfig(deploymentId: number): StoredProductConfig {
  const zero = TRIAGE_PERMISSION_ZERO;
  return {
    deploymentId,
    ai: { legacy_allow_openai_code_sharing: false, enabled: false, send_patch_emails: false, allowed_providers: [], mdr_enabled: false },
    sast: {
      enabled: false,
      human_autofix_enabled: false,
      ai_autofix: { enabled: false, min_confidence: 0 },
      ai_autotriage: { enabled: false, hide_false_positive_comments: false, send_to_scm_comments: false, send_to_slack: false },
      ai_detection: { enabled: false },
      triagePermission: zero,
    },
    sca: {
      enabled: false,
      blockPrEnabled: false,
      prCommentsEnabled: false,
      maliciousDependencyAdvisoriesEnabled: false,
      upgradeGuidanceEnabled: false,
      triagePermission: zero,
      malwareFirewallEnabled: false,
    },
    secrets: {
      enabled: false,
      global_validation_state_policy: { error: "", invalid: "" },
      historical_scan: { enabled: false },
      generic_secrets: { enabled: false },
      triagePermission: zero,
    },
    approversTag: "",
    hasDeveloperTriage: false,
  };
}

/** `base` with every field `over` gives, at every depth (lists replaced whole). */
function deepOver<T>(base: T, over: unknown): T {
  if (over === undefined) return base;
  if (base === null || typeof base !== "object" || Array.isArray(base) || over === null || typeof over !== "object") return over as T;
  const out = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(over)) out[key] = deepOver(out[key], value);
  return out as T;
}

/** The configuration as the service answers it: every field (omit-empty drops the defaults later). */
function render(config: StoredProductConfig) {
  const { deploymentId: _id, ...products } = config;
  return { products: structuredClone(products) };
}

function configOf(req: ApiRequest, deploymentId: number): StoredProductConfig {
  return req.state.productConfigs.find((c) => c.deploymentId === deploymentId) ?? defaultProductConfig(deploymentId);
}

function getProducts(req: ApiRequest) {
  return render(configOf(req, deploymentById(req).id));
}

function putProducts(req: ApiRequest) {
  const deployment = deploymentById(req);
  const body = parse(putProductConfigRequest, req.body);
  if (body.deploymentId !== undefined && String(body.deploymentId) !== String(deployment.id))
    throw new HttpError(
      400,
      `invalid request: deploymentId ${JSON.stringify(body.deploymentId)} does not match the path (${deployment.id})`,
    );
  const before = configOf(req, deployment.id);
  const { deploymentId: _given, ...fields } = body;
  // A replacement: what the request leaves out is reset; the read-only mdr_enabled is kept.
  const next = deepOver(defaultProductConfig(deployment.id), fields);
  next.ai.mdr_enabled = before.ai.mdr_enabled;
  req.state.productConfigs = [...req.state.productConfigs.filter((c) => c.deploymentId !== deployment.id), next];
  req.changed();
  return render(next);
}
