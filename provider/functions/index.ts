/** The package's data-source functions, each as `getX` (a Promise) and `getXOutput` (an Output). */
export type { SemgrepInvokeOptions, SemgrepInvokeOutputOptions } from "./client";
export type { OutputArgs } from "./output";
export type { LockfileInfo, PolicyInfo, ProjectInfo, RepositoryInfo, RuleInfo, ScanInfo, ScanMetaInfo, ScanSummaryInfo } from "./shapes";
export * from "./policies";
export * from "./policy-rules";
export * from "./scans";
export * from "./projects";
export * from "./dependencies";
