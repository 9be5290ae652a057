// Tags added beside whatever a project already has. Several ProjectTags can share a project;
// each removes on delete only the tags it added.
import { ProjectTags } from "pulumi-semgrep";

const compliance = new ProjectTags("payments-compliance", {
  deploymentSlug: "acme",
  projectName: "acme/payments-api",
  tags: ["pci", "compliance:soc2"],
});

new ProjectTags("payments-ownership", {
  deploymentSlug: "acme",
  projectName: "acme/payments-api",
  tags: ["owner:appsec"],
});

export const added = compliance.addedTags;
export const allTags = compliance.projectTags;
