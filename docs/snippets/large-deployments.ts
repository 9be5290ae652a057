// One ProjectSettingsSet for a deployment's projects (docs/guides/large-deployments.md): type-checked by `npm run typecheck`.
import { ProjectSettingsSet } from "pulumi-semgrep";
import { projects } from "./projects"; // the map adopt writes, one project per line group

new ProjectSettingsSet("projects", {
  deploymentSlug: "acme",
  projects, // explicit entries: each project's fields, managed only where declared
  // Every repository under acme/ named *-api, now and as they are created: diff scans on.
  select: { namePatterns: ["acme/*-api"], exclude: ["acme/legacy-api"] },
  settings: { managedScanConfig: { diffScan: { enabled: true } }, addTags: ["tier:api"] },
});
