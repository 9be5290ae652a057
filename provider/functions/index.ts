/** The package's data-source functions, each as `getX` (a Promise) and `getXOutput` (an Output). */
export type { SemgrepInvokeOptions, SemgrepInvokeOutputOptions } from "./client";
export type { OutputArgs } from "./output";
export type {
  DetectionConstraints,
  DetectionPolicyInfo,
  ListedProjectInfo,
  LockfileInfo,
  PolicyInfo,
  PolicyVocabulary,
  ProjectInfo,
  RemediationPolicyInfo,
  RepositoryInfo,
  RuleInfo,
  ScanInfo,
  ScanMetaInfo,
  ScanSummaryInfo,
  VocabularyActionType,
  VocabularyConditionType,
  VocabularyValueEnum,
} from "./shapes";
export * from "./policies";
export * from "./policy-rules";
export * from "./scans";
export * from "./projects";
export * from "./projects-list";
export type { ProjectSelectorArgs } from "../core/kinds/project-selector";
export * from "./dependencies";
export * from "./policies-v2";
export * from "./users";
export * from "./access-settings";
export * from "./teams";
