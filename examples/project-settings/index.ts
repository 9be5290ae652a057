// The settings of one project: primary branch, its whole tag set, and managed scans.
// `pulumi destroy` puts back the values found when the resource was created.
import { ProjectSettings } from "pulumi-semgrep";

const webApp = new ProjectSettings("web-app", {
  deploymentSlug: "acme",
  projectName: "acme/web-app",
  primaryBranch: "main",
  tags: ["team:web", "tier:1", "internet-facing"],
  managedScanConfig: { diffScan: { enabled: true }, fullScan: { enabled: true } },
});

export const projectId = webApp.projectId;
export const tags = webApp.tags;
export const tagsBefore = webApp.originalTags;
