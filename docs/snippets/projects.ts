// The `projects` map of docs/snippets/large-deployments.ts, in the shape `pulumi-semgrep adopt` writes it above --set-threshold.
import type { ProjectEntryArgs } from "pulumi-semgrep";

export const projects: Record<string, ProjectEntryArgs> = {
  "acme/payments-api": {
    tags: ["pci", "team:payments", "tier:0"],
    managedScanConfig: { diffScan: { enabled: true }, fullScan: { enabled: false } },
  },
  "acme/web-app": {
    primaryBranch: "refs/heads/release",
    tags: ["team:web", "tier:1"],
    managedScanConfig: { diffScan: { enabled: true }, fullScan: { enabled: true } },
  },
};
