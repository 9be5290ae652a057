/** DeploymentSettings, declared once: see declare.ts. */
import { z } from "zod";
import { TRIAGE_PERMISSIONS, type TriagePermission } from "../../client/schemas/products";
import { sameSet } from "../runtime/diff";
import { id, restoreOnDelete } from "./inputs";
import { defineKind, input, managed, output, typedInput } from "./declare";

/** SAST (Semgrep Code): each field left out is not managed. */
export interface SastSettings {
  /** Whether SAST scans run. */
  enabled?: boolean;
  /** Who may triage SAST findings: `TRIAGE_PERMISSION_IGNORE` (developers ignore them), `TRIAGE_PERMISSION_REQUEST` (they request an ignore, an approver decides) or `TRIAGE_PERMISSION_NONE`. */
  triagePermission?: TriagePermission;
  /** Whether autofix suggestions written by rules are offered. */
  humanAutofixEnabled?: boolean;
}

/** SCA (Semgrep Supply Chain): each field left out is not managed. */
export interface ScaSettings {
  /** Whether SCA scans run. */
  enabled?: boolean;
  /** Whether reachable vulnerable dependencies block pull requests. */
  blockPrEnabled?: boolean;
  /** Whether SCA comments on pull requests. */
  prCommentsEnabled?: boolean;
  /** Whether advisories of malicious dependencies are reported. */
  maliciousDependencyAdvisoriesEnabled?: boolean;
  /** Whether the malware firewall stops known-malicious packages. */
  malwareFirewallEnabled?: boolean;
  /** Whether upgrade guidance is given. */
  upgradeGuidanceEnabled?: boolean;
  /** Who may triage SCA findings (see `sast.triagePermission`). */
  triagePermission?: TriagePermission;
}

/** Secrets (Semgrep Secrets): each field left out is not managed. */
export interface SecretsSettings {
  /** Whether Secrets scans run. */
  enabled?: boolean;
  /** Who may triage secrets findings (see `sast.triagePermission`). */
  triagePermission?: TriagePermission;
}

/** Semgrep Assistant (AI): each field left out is not managed. */
export interface AiSettings {
  /** Whether Semgrep Assistant runs. */
  enabled?: boolean;
  /** Whether code may be shared with OpenAI under the legacy agreement. */
  legacyAllowOpenaiCodeSharing?: boolean;
  /** The AI providers code may be sent to (the whole list, in any order). */
  allowedProviders?: string[];
}

/** The values a DeploymentSettings found and changed, by section: only the fields it changed. */
export interface DeploymentSettingsOriginals {
  /** The SAST fields it changed, as found. */
  sast?: SastSettings;
  /** The SCA fields it changed, as found. */
  sca?: ScaSettings;
  /** The Secrets fields it changed, as found. */
  secrets?: SecretsSettings;
  /** The Semgrep Assistant fields it changed, as found. */
  ai?: AiSettings;
  /** Whether developers could triage findings themselves, if it changed that. */
  hasDeveloperTriage?: boolean;
  /** The approvers' tag, if it changed it. */
  approversTag?: string;
}

const flag = z.boolean({ error: "must be true or false" }).optional();
const permission = z.enum(TRIAGE_PERMISSIONS, { error: `must be one of ${TRIAGE_PERMISSIONS.join(", ")}` }).optional();

const sast = z.strictObject({ enabled: flag, triagePermission: permission, humanAutofixEnabled: flag });
const sca = z.strictObject({
  enabled: flag,
  blockPrEnabled: flag,
  prCommentsEnabled: flag,
  maliciousDependencyAdvisoriesEnabled: flag,
  malwareFirewallEnabled: flag,
  upgradeGuidanceEnabled: flag,
  triagePermission: permission,
});
const secrets = z.strictObject({ enabled: flag, triagePermission: permission });
const ai = z.strictObject({
  enabled: flag,
  legacyAllowOpenaiCodeSharing: flag,
  allowedProviders: z.array(z.string().min(1, "must not be empty"), { error: "must be a list of provider names" }).optional(),
});

/** The managed fields, by section: every leaf of the configuration a program may declare. */
export const SETTINGS_FIELDS = {
  sast: Object.keys(sast.shape),
  sca: Object.keys(sca.shape),
  secrets: Object.keys(secrets.shape),
  ai: Object.keys(ai.shape),
} as const;

/** Whether two values of a field are the same: a provider list in any order, anything else as is. */
export const sameSetting = (a: unknown, b: unknown) => (Array.isArray(a) || Array.isArray(b) ? sameSet(a, b) : a === b);

/** Whether the live section holds every declared field of it (the provider list in any order). */
const covered = (live: unknown, declared: unknown) =>
  declared === undefined ||
  Object.entries(declared as Record<string, unknown>).every(
    ([key, value]) => value === undefined || sameSetting((live as Record<string, unknown> | undefined)?.[key], value),
  );

/** The original of a field is kept under `original.<path>`: one output for every field, derived from every section. */
const recordedAt = (path: string) => managed(`original.${path}`);

export const deploymentSettingsKind = defineKind({
  kind: "DeploymentSettings",
  stability: "experimental",
  inputs: {
    /** Numeric id of the deployment, e.g. `"1"`. Changing it replaces the resource. One DeploymentSettings per deployment. */
    deploymentId: input(id("deployment"), { replaces: true }),
    /** SAST: `enabled`, `triagePermission`, `humanAutofixEnabled`; each left out is not managed. */
    sast: typedInput<SastSettings | undefined>()(sast.optional(), { equal: covered }),
    /** SCA: `enabled`, `blockPrEnabled`, `prCommentsEnabled`, `maliciousDependencyAdvisoriesEnabled`, `malwareFirewallEnabled`, `upgradeGuidanceEnabled`, `triagePermission`. */
    sca: typedInput<ScaSettings | undefined>()(sca.optional(), { equal: covered }),
    /** Secrets: `enabled`, `triagePermission`. */
    secrets: typedInput<SecretsSettings | undefined>()(secrets.optional(), { equal: covered }),
    /** Semgrep Assistant: `enabled`, `legacyAllowOpenaiCodeSharing`, `allowedProviders`. */
    ai: typedInput<AiSettings | undefined>()(ai.optional(), { equal: covered }),
    /** Whether developers may triage findings themselves. Not managed when left out. */
    hasDeveloperTriage: input(flag),
    /** The tag of approvers of ignore requests made in PR comments ("" for none). Not managed when left out. */
    approversTag: input(z.string({ error: "must be a string" }).optional()),
    /** Put back, on delete, the values this resource changed, as it found them (default `true`); `false` only stops managing. */
    restoreOnDelete: input(restoreOnDelete),
  },
  outputs: {
    /** Live SAST settings. */
    sast: output<Required<SastSettings>>(),
    /** Live SCA settings. */
    sca: output<Required<ScaSettings>>(),
    /** Live Secrets settings. */
    secrets: output<Required<SecretsSettings>>(),
    /** Live Semgrep Assistant settings. */
    ai: output<Required<AiSettings>>(),
    /** Live: whether developers may triage findings themselves. */
    hasDeveloperTriage: output<boolean>(),
    /** Live approvers' tag ("" for none). */
    approversTag: output<string>(),
    /** Live: whether managed detection and response is on (read-only: the service sets it). */
    mdrEnabled: output<boolean>(),
    /**
     * The value of each field this resource found and changed, by section (`{ sca: { blockPrEnabled: true } }`),
     * put back on delete; a field found as declared has none.
     */
    original: output<DeploymentSettingsOriginals | undefined>({
      derivedFrom: ["sast", "sca", "secrets", "ai", "hasDeveloperTriage", "approversTag"],
    }),
    /** The fields this resource manages (those declared), by path: `sca.blockPrEnabled`, `hasDeveloperTriage`. */
    managedFields: output<string[]>(),
  },
  managed: Object.fromEntries(
    [
      ...Object.entries(SETTINGS_FIELDS).flatMap(([section, fields]) => fields.map((field) => `${section}.${field}`)),
      "hasDeveloperTriage",
      "approversTag",
    ].map((path) => [path, recordedAt(path)]),
  ),
  id: {
    format: "<deploymentId>",
    parse: (text) => (/^\d+$/.test(text) ? { deploymentId: text } : undefined),
  },
  service: {
    create:
      "Reads the deployment's product configuration, records the value of each declared field, and writes the fields that differ " +
      "in one read-modify-write (a `GET`, then a `PUT` of the whole configuration with every field it does not declare sent back as read: " +
      "the `PUT` replaces the configuration). A second DeploymentSettings of the same deployment in the stack is refused at preview.",
    update: "Writes the declared fields that differ in one read-modify-write; a field dropped from the program is no longer managed.",
    delete:
      "Puts back, in one read-modify-write, each field it changed as it found it (unless `restoreOnDelete` is `false`); the configuration " +
      "itself stays (a deployment always has one).",
    read: "Reads the configuration; a field changed elsewhere (a product switched off) is drift, which the next `up` corrects.",
    adoption:
      "The configuration always exists: create takes it over as found, recording only what it changes. " +
      '`DeploymentSettings.get(name, "<deploymentId>")` reads it without managing it.',
  },
});
