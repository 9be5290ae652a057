// Semgrep-managed scans of a project: diff scans on pull requests, full scans of the primary branch.
import { ManagedScan } from "pulumi-semgrep";

const scans = new ManagedScan("mobile-app", {
  deploymentSlug: "acme",
  projectName: "acme/mobile-app",
  diffScan: { enabled: true },
  fullScan: { enabled: true },
});

export const diffScan = scans.diffScan;
export const fullScanBefore = scans.originalFullScan;
