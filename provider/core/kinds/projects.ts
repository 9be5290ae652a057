/** What the project kinds (ProjectSettings, ProjectTags, ManagedScan) declare alike. */

/** A managed-scan toggle. */
export interface ScanToggle {
  /** On or off. */
  enabled: boolean;
}

/** `<deploymentSlug>/<projectName>`: a slug has no `/`, a project name may (`acme/web-app`). */
export const PROJECT_ID = {
  format: "<deploymentSlug>/<projectName>",
  parse: (id: string) => {
    const at = id.indexOf("/");
    return at > 0 && at < id.length - 1 ? { deploymentSlug: id.slice(0, at), projectName: id.slice(at + 1) } : undefined;
  },
};

export const PROJECT_SERVICE = {
  read: "Reads the project (shared as on create) and reports its live values; a managed field changed elsewhere shows as drift.",
  adoption: (kind: string) =>
    "Projects appear with their first scan and are never created: creating the resource adopts the project, recording what it finds. " +
    `\`${kind}.get(name, "<deploymentSlug>/<projectName>")\` reads a project without managing it.`,
};
