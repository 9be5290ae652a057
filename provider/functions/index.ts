/** The package's data-source functions, each as `getX` (a Promise) and `getXOutput` (an Output). */
export { type SemgrepInvokeOptions } from "./client";
export type { Inputs } from "./output";
export * from "./shapes";
export * from "./policies";
export * from "./policy-rules";
export * from "./scans";
export * from "./projects";
export * from "./dependencies";
