/**
 * The deployment's product configuration (`DeploymentProductsService`, experimental): which
 * products scan, who may triage their findings, PR blocking, the malware firewall, AI code
 * sharing. The wire mixes snake_case (`human_autofix_enabled`, `legacy_allow_openai_code_sharing`,
 * `allowed_providers`) and camelCase (`blockPrEnabled`, `triagePermission`), as the OpenAPI
 * does; the client's public names are camelCase throughout ({@link ProductConfig}).
 *
 * Answers are read loosely (every field may be left out, as protobuf's JSON mapping does, and the
 * nested settings this package does not manage are kept as sent, so a write can send them back);
 * requests are strict: a field the OpenAPI does not name is refused, and so is `ai.mdr_enabled`,
 * which the OpenAPI marks readOnly.
 */
import { z } from "zod";
import { flag, list, text } from "./common";

/** Who may triage a product's findings: ignore them, request an ignore, or neither. */
export const TRIAGE_PERMISSIONS = ["TRIAGE_PERMISSION_IGNORE", "TRIAGE_PERMISSION_REQUEST", "TRIAGE_PERMISSION_NONE"] as const;
export type TriagePermission = (typeof TRIAGE_PERMISSIONS)[number];
/**
 * The enum's zero value (the OpenAPI lists no `UNSPECIFIED`): protobuf's JSON mapping leaves it
 * out, so an absent `triagePermission` reads as this.
 */
export const TRIAGE_PERMISSION_ZERO: TriagePermission = "TRIAGE_PERMISSION_IGNORE";

export const triagePermission = z.enum(TRIAGE_PERMISSIONS, { error: `must be one of ${TRIAGE_PERMISSIONS.join(", ")}` });
const readPermission = triagePermission.nullish().transform((v) => v ?? TRIAGE_PERMISSION_ZERO);

// ---------------------------------------------------------------------------------------------
// Requests (strict): the OpenAPI's fields, nested settings included, nothing else.

const bool = z.boolean().optional();
const aiAutofix = z.strictObject({ enabled: bool, min_confidence: z.number().optional() });
const aiAutotriage = z.strictObject({
  enabled: bool,
  hide_false_positive_comments: bool,
  send_to_scm_comments: bool,
  send_to_slack: bool,
});
const toggle = z.strictObject({ enabled: bool });

export const sastConfigInput = z.strictObject({
  enabled: bool,
  human_autofix_enabled: bool,
  ai_autofix: aiAutofix.optional(),
  ai_autotriage: aiAutotriage.optional(),
  ai_detection: toggle.optional(),
  triagePermission: triagePermission.optional(),
});
export const scaConfigInput = z.strictObject({
  enabled: bool,
  blockPrEnabled: bool,
  prCommentsEnabled: bool,
  maliciousDependencyAdvisoriesEnabled: bool,
  upgradeGuidanceEnabled: bool,
  triagePermission: triagePermission.optional(),
  malwareFirewallEnabled: bool,
});
export const secretsConfigInput = z.strictObject({
  enabled: bool,
  global_validation_state_policy: z.strictObject({ error: z.string().optional(), invalid: z.string().optional() }).optional(),
  historical_scan: toggle.optional(),
  generic_secrets: toggle.optional(),
  triagePermission: triagePermission.optional(),
});
/** `mdr_enabled` is readOnly: a request that writes it is refused (the emulator says so by name). */
export const aiConfigInput = z.strictObject({
  legacy_allow_openai_code_sharing: bool,
  enabled: bool,
  send_patch_emails: bool,
  allowed_providers: z.array(z.string()).optional(),
  mdr_enabled: z.never({ error: "is read-only (mdr_enabled): the service sets it" }).optional(),
});

/** `PUT /api/agent/deployments/{id}/products` (`PutDeploymentProductConfigRequest`). */
export const putProductConfigRequest = z.strictObject({
  deploymentId: z.union([z.number().int(), z.string().regex(/^\d+$/)]).optional(),
  ai: aiConfigInput.optional(),
  sast: sastConfigInput.optional(),
  sca: scaConfigInput.optional(),
  secrets: secretsConfigInput.optional(),
  approversTag: z.string().optional(),
  hasDeveloperTriage: bool,
});
export type PutProductConfigRequest = z.input<typeof putProductConfigRequest>;

// ---------------------------------------------------------------------------------------------
// Answers (loose: absent fields read as their default; nested settings kept as sent)

const wireSast = z.looseObject({ enabled: flag, human_autofix_enabled: flag, triagePermission: readPermission });
const wireSca = z.looseObject({
  enabled: flag,
  blockPrEnabled: flag,
  prCommentsEnabled: flag,
  maliciousDependencyAdvisoriesEnabled: flag,
  upgradeGuidanceEnabled: flag,
  triagePermission: readPermission,
  malwareFirewallEnabled: flag,
});
const wireSecrets = z.looseObject({ enabled: flag, triagePermission: readPermission });
const wireAi = z.looseObject({
  legacy_allow_openai_code_sharing: flag,
  enabled: flag,
  send_patch_emails: flag,
  allowed_providers: list(z.string()),
  mdr_enabled: flag,
});
const section = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? schema.parse({}));

/** `DeploymentProductConfig` as the service sends it, every absent field at its default. */
export const productConfigWire = z.looseObject({
  ai: section(wireAi),
  sast: section(wireSast),
  sca: section(wireSca),
  secrets: section(wireSecrets),
  approversTag: text,
  hasDeveloperTriage: flag,
});
export type ProductConfigWire = z.output<typeof productConfigWire>;

/** The answer of the GET and of the PUT: `{ products }`. */
export const productConfigAnswer = z.looseObject({
  products: productConfigWire.nullish().transform((v) => v ?? productConfigWire.parse({})),
});

// ---------------------------------------------------------------------------------------------
// The client's view (camelCase)

/** SAST (Semgrep Code) settings. */
export interface SastConfig {
  /** Whether SAST scans run. */
  enabled: boolean;
  /** Who may triage SAST findings: `TRIAGE_PERMISSION_IGNORE`, `TRIAGE_PERMISSION_REQUEST` or `TRIAGE_PERMISSION_NONE`. */
  triagePermission: TriagePermission;
  /** Whether autofix suggestions written by rules are offered. */
  humanAutofixEnabled: boolean;
}

/** SCA (Semgrep Supply Chain) settings. */
export interface ScaConfig {
  /** Whether SCA scans run. */
  enabled: boolean;
  /** Whether reachable vulnerable dependencies block pull requests. */
  blockPrEnabled: boolean;
  /** Whether SCA comments on pull requests. */
  prCommentsEnabled: boolean;
  /** Whether advisories of malicious dependencies are reported. */
  maliciousDependencyAdvisoriesEnabled: boolean;
  /** Whether the malware firewall stops known-malicious packages. */
  malwareFirewallEnabled: boolean;
  /** Whether upgrade guidance is given. */
  upgradeGuidanceEnabled: boolean;
  /** Who may triage SCA findings. */
  triagePermission: TriagePermission;
}

/** Secrets (Semgrep Secrets) settings. */
export interface SecretsConfig {
  /** Whether Secrets scans run. */
  enabled: boolean;
  /** Who may triage secrets findings. */
  triagePermission: TriagePermission;
}

/** Semgrep Assistant (AI) settings. */
export interface AiConfig {
  /** Whether Semgrep Assistant runs. */
  enabled: boolean;
  /** Whether code may be shared with OpenAI under the legacy agreement. */
  legacyAllowOpenaiCodeSharing: boolean;
  /** The AI providers code may be sent to. */
  allowedProviders: string[];
  /** Whether managed detection and response is on (read-only: the service sets it). */
  mdrEnabled: boolean;
}

/** A deployment's product configuration, as the client returns it. */
export interface ProductConfig {
  /** SAST settings. */
  sast: SastConfig;
  /** SCA settings. */
  sca: ScaConfig;
  /** Secrets settings. */
  secrets: SecretsConfig;
  /** Semgrep Assistant settings (`mdrEnabled` is read-only). */
  ai: AiConfig;
  /** Whether developers may triage findings themselves. */
  hasDeveloperTriage: boolean;
  /** The approvers' tag ("" when none). */
  approversTag: string;
}

type Change<T> = { [K in keyof T]?: T[K] };
/** What a write changes: any field of {@link ProductConfig} but `ai.mdrEnabled`; every other field is sent back as it was. */
export interface ProductConfigChange {
  sast?: Change<ProductConfig["sast"]>;
  sca?: Change<ProductConfig["sca"]>;
  secrets?: Change<ProductConfig["secrets"]>;
  ai?: Change<Omit<ProductConfig["ai"], "mdrEnabled">>;
  hasDeveloperTriage?: boolean;
  approversTag?: string;
}

/** The wire's configuration in the client's names. */
export function productConfigOf(wire: ProductConfigWire): ProductConfig {
  return {
    sast: {
      enabled: wire.sast.enabled,
      triagePermission: wire.sast.triagePermission,
      humanAutofixEnabled: wire.sast.human_autofix_enabled,
    },
    sca: {
      enabled: wire.sca.enabled,
      blockPrEnabled: wire.sca.blockPrEnabled,
      prCommentsEnabled: wire.sca.prCommentsEnabled,
      maliciousDependencyAdvisoriesEnabled: wire.sca.maliciousDependencyAdvisoriesEnabled,
      malwareFirewallEnabled: wire.sca.malwareFirewallEnabled,
      upgradeGuidanceEnabled: wire.sca.upgradeGuidanceEnabled,
      triagePermission: wire.sca.triagePermission,
    },
    secrets: { enabled: wire.secrets.enabled, triagePermission: wire.secrets.triagePermission },
    ai: {
      enabled: wire.ai.enabled,
      legacyAllowOpenaiCodeSharing: wire.ai.legacy_allow_openai_code_sharing,
      allowedProviders: wire.ai.allowed_providers,
      mdrEnabled: wire.ai.mdr_enabled,
    },
    hasDeveloperTriage: wire.hasDeveloperTriage,
    approversTag: wire.approversTag,
  };
}

/** The public names of each section, by wire name (where they differ). */
const WIRE_NAMES: Record<string, Record<string, string>> = {
  sast: { humanAutofixEnabled: "human_autofix_enabled" },
  ai: { legacyAllowOpenaiCodeSharing: "legacy_allow_openai_code_sharing", allowedProviders: "allowed_providers" },
};

/**
 * The whole configuration to PUT: what was read, with `change` over it, readOnly fields left
 * out. Every field `change` does not name goes back as it was read (nested settings included).
 */
export function productConfigRequest(read: ProductConfigWire, change: ProductConfigChange): PutProductConfigRequest {
  const merged: Record<string, unknown> = { ...read };
  for (const name of ["sast", "sca", "secrets", "ai"] as const) {
    const wanted = (change[name] ?? {}) as Record<string, unknown>;
    const renamed = Object.fromEntries(
      Object.entries(wanted)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => [WIRE_NAMES[name]?.[key] ?? key, value]),
    );
    merged[name] = { ...read[name], ...renamed };
  }
  if (change.hasDeveloperTriage !== undefined) merged.hasDeveloperTriage = change.hasDeveloperTriage;
  if (change.approversTag !== undefined) merged.approversTag = change.approversTag;
  const { mdr_enabled: _readOnly, ...ai } = merged.ai as Record<string, unknown>;
  return { ...merged, ai } as PutProductConfigRequest;
}
