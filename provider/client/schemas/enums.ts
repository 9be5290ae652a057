/** Enum values of the API, as Semgrep's OpenAPI lists them. */

export const SCAN_STATUSES = [
  "SCAN_STATUS_RUNNING",
  "SCAN_STATUS_COMPLETED",
  "SCAN_STATUS_ERROR",
  "SCAN_STATUS_NEVER_FINISHED",
  "SCAN_STATUS_PENDING",
  "SCAN_STATUS_CANCELLED",
] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];
/** What a scan search may ask for: a status, or `SCAN_STATUS_UNSPECIFIED` (any status). */
export const SCAN_STATUS_FILTERS = ["SCAN_STATUS_UNSPECIFIED", ...SCAN_STATUSES] as const;
export type ScanStatusFilter = (typeof SCAN_STATUS_FILTERS)[number];

export const PRODUCTS = ["PRODUCT_UNSPECIFIED", "PRODUCT_SAST", "PRODUCT_SCA", "PRODUCT_SECRETS", "PRODUCT_AI_SAST"] as const;
export type Product = (typeof PRODUCTS)[number];

export const POLICY_MODES = ["MODE_MONITOR", "MODE_COMMENT", "MODE_BLOCK", "MODE_DISABLED"] as const;
export type PolicyMode = (typeof POLICY_MODES)[number];

export const PRODUCT_TYPES = ["PRODUCT_TYPE_SAST", "PRODUCT_TYPE_SECRETS"] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

export const SEVERITIES = ["SEVERITY_LOW", "SEVERITY_MEDIUM", "SEVERITY_HIGH", "SEVERITY_CRITICAL"] as const;
export type Severity = (typeof SEVERITIES)[number];

export const CONFIDENCES = ["CONFIDENCE_LOW", "CONFIDENCE_MEDIUM", "CONFIDENCE_HIGH"] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export const RULE_SOURCES = ["SOURCE_COMMUNITY", "SOURCE_PRO", "SOURCE_CUSTOM"] as const;
export type RuleSource = (typeof RULE_SOURCES)[number];

export const SBOM_FORMATS = ["SBOM_FORMAT_CYCLONEDX"] as const;
export type SbomFormat = (typeof SBOM_FORMATS)[number];

export const SBOM_OUTPUT_FORMATS = ["SBOM_OUTPUT_FORMAT_JSON", "SBOM_OUTPUT_FORMAT_CYCLONEDX"] as const;
export type SbomOutputFormat = (typeof SBOM_OUTPUT_FORMATS)[number];

const COMPONENT_TYPE_PREFIX = "SBOM_METADATA_COMPONENT_TYPE_CYCLONE_DX_V15_";
export const SBOM_METADATA_COMPONENT_TYPES = [
  `${COMPONENT_TYPE_PREFIX}APPLICATION`,
  `${COMPONENT_TYPE_PREFIX}FRAMEWORK`,
  `${COMPONENT_TYPE_PREFIX}LIBRARY`,
  `${COMPONENT_TYPE_PREFIX}CONTAINER`,
  `${COMPONENT_TYPE_PREFIX}PLATFORM`,
  `${COMPONENT_TYPE_PREFIX}OPERATING_SYSTEM`,
  `${COMPONENT_TYPE_PREFIX}DEVICE`,
  `${COMPONENT_TYPE_PREFIX}DEVICE_DRIVER`,
  `${COMPONENT_TYPE_PREFIX}FIRMWARE`,
  `${COMPONENT_TYPE_PREFIX}FILE`,
  `${COMPONENT_TYPE_PREFIX}MACHINE_LEARNING_MODEL`,
  `${COMPONENT_TYPE_PREFIX}DATA`,
] as const;
export type SbomMetadataComponentType = (typeof SBOM_METADATA_COMPONENT_TYPES)[number];

export const SBOM_EXPORT_STATUSES = [
  "SBOM_EXPORT_STATUS_IN_PROGRESS",
  "SBOM_EXPORT_STATUS_COMPLETED",
  "SBOM_EXPORT_STATUS_FAILED",
] as const;
export type SbomExportStatus = (typeof SBOM_EXPORT_STATUSES)[number];

/**
 * Dependency filter values (the OpenAPI's `protos.sca.v1.DependencyFilter`). The description puts
 * the ecosystem and license-policy enums at the array level; they are the values of the items.
 */
export const ECOSYSTEMS = [
  "no_package_manager",
  "npm",
  "pypi",
  "gomod",
  "cargo",
  "maven",
  "gem",
  "composer",
  "nuget",
  "pub",
  "swiftpm",
  "hex",
  "cocoapods",
  "mix",
  "opam",
] as const;
export type Ecosystem = (typeof ECOSYSTEMS)[number];

export const TRANSITIVITIES = ["UNKNOWN_TRANSITIVITY", "TRANSITIVE", "DIRECT"] as const;
export type Transitivity = (typeof TRANSITIVITIES)[number];

/** UNSPECIFIED is a valid request value: in a filter it matches every dependency. */
export const LICENSE_POLICY_SETTINGS = [
  "LICENSE_POLICY_SETTING_UNSPECIFIED",
  "LICENSE_POLICY_SETTING_ALLOW",
  "LICENSE_POLICY_SETTING_COMMENT",
  "LICENSE_POLICY_SETTING_BLOCK",
] as const;
export type LicensePolicySetting = (typeof LICENSE_POLICY_SETTINGS)[number];

/** `formatVersion.cyclonedxVersion` of an SBOM export (the OpenAPI's `protos.sca.v1.SbomFormatVersion`). */
export const SBOM_CYCLONEDX_VERSIONS = [
  "SBOM_CYCLONE_DX_VERSION_V1_4",
  "SBOM_CYCLONE_DX_VERSION_V1_5",
  "SBOM_CYCLONE_DX_VERSION_V1_6",
  "SBOM_CYCLONE_DX_VERSION_V1_7",
] as const;
export type SbomCycloneDxVersion = (typeof SBOM_CYCLONEDX_VERSIONS)[number];

/*
 * Policies V2 (unified policies). The OpenAPI types these fields as plain strings and lists their
 * values in prose ("One of: ..."); the values are checked by the service's validation (a dry run
 * reports them all), not refused by the client's request schemas.
 */
/** The products with a detection policy bundle (`detection-policy/{product}`). */
export const DETECTION_PRODUCTS = ["code", "secrets"] as const;
export type DetectionProduct = (typeof DETECTION_PRODUCTS)[number];

/** The `product` of the vocabulary endpoint: a detection product or `remediation`. */
export const VOCAB_PRODUCTS = ["code", "secrets", "remediation"] as const;
export type VocabProduct = (typeof VOCAB_PRODUCTS)[number];

/** A detection policy exception forces the rule to run (`include`) or skips it (`exclude`). */
export const EXCEPTION_TYPES = ["include", "exclude"] as const;
export type ExceptionType = (typeof EXCEPTION_TYPES)[number];

/** Whether an exception's `rule` is a single rule (`rule`) or a rule pack (`pack`). */
export const RULE_TYPES = ["rule", "pack"] as const;
export type RuleType = (typeof RULE_TYPES)[number];

/** How a remediation policy's conditions combine. */
export const FILTER_MODES = ["all", "any"] as const;
export type FilterMode = (typeof FILTER_MODES)[number];

/** How a condition's values combine (`none` negates it); `any` when left out. */
export const CONDITION_MODES = ["any", "none"] as const;
export type ConditionMode = (typeof CONDITION_MODES)[number];

/** The action types of a remediation policy. */
export const ACTION_TYPES = ["block", "pr_comment", "jira", "slack_app", "webhook", "triage"] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
