/**
 * A preset at a deployment's scale: its projects repeated to N (the `large` preset's 300 ten
 * times over for 3,000), for the benchmark's large-deployment phase and the tests of reads at
 * scale. Deterministic, as the presets are: the same preset and N always give the same projects.
 */
import type { EmulatorState, StoredProject } from "./model";

/** Copies of each preset project at least: a selector such as `acme/*-3` picks a tenth of the projects at any N. */
const MIN_COPIES = 10;

/**
 * `state` with `count` projects made from its own: copy `k` of project `acme/web-app` is
 * `acme/web-app-k`, with the project's tags, branches and managed-scan switches and an id of its
 * own. With C copies of each (at least 10, more when `count` needs them), project `i` is copy
 * `i mod C` of the preset's project `i div C`: every copy suffix is as common as the others, so
 * `acme/*-3` picks 300 of 3,000 projects and 3 of 30.
 *
 * What named a preset project (scans, the dependency inventory, detection policy exceptions)
 * names its copy 0; what named a project not kept (a `count` below the preset's) is left out.
 */
export function scaleProjects(state: EmulatorState, count: number): EmulatorState {
  if (!Number.isInteger(count) || count < 1) throw new Error(`projects must be a whole number of 1 or more, not ${count}`);
  const bases = state.projects;
  if (bases.length === 0) throw new Error("the preset has no project to repeat");
  const copies = Math.max(MIN_COPIES, Math.ceil(count / bases.length));
  const presetIds = new Set(bases.map((p) => p.id));
  // Ids run on from the preset's first, past those of archived repositories (which have no project).
  const taken = new Set(state.repositories.filter((r) => !presetIds.has(r.id)).map((r) => r.id));
  let nextId = Math.min(...presetIds);
  const projects: StoredProject[] = [];
  /** A preset project's id → its copy 0; a preset project's name → its copy 0's. */
  const firstCopy = new Map<number, StoredProject>();
  const renamed = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    const base = bases[Math.floor(i / copies)] as StoredProject;
    const copy = i % copies;
    while (taken.has(nextId)) nextId++;
    const project: StoredProject = {
      ...structuredClone(base),
      id: nextId++,
      name: `${base.name}-${copy}`,
      url: base.url ? `${base.url}-${copy}` : base.url,
    };
    projects.push(project);
    if (copy === 0) {
      firstCopy.set(base.id, project);
      renamed.set(base.name, project.name);
    }
  }
  const scans = state.scans
    .filter((s) => firstCopy.has(s.repositoryId))
    .map((s) => {
      const project = firstCopy.get(s.repositoryId)!;
      return {
        ...s,
        repositoryId: project.id,
        repository: project.name,
        meta: { ...s.meta, repository: project.name, repo_url: project.url },
      };
    });
  const repositories = state.repositories
    // An archived repository has no project: it stays as it is.
    .filter((r) => !presetIds.has(r.id) || firstCopy.has(r.id))
    .map((r) => {
      const project = firstCopy.get(r.id);
      return project ? { ...r, id: project.id, name: project.name } : r;
    });
  const detectionPolicies = state.detectionPolicies?.map((policy) => ({
    ...policy,
    exceptions: policy.exceptions
      .filter((e) => e.project === undefined || renamed.has(e.project))
      .map((e) => (e.project === undefined ? e : { ...e, project: renamed.get(e.project)! })),
  }));
  return { ...state, projects, scans, repositories, ...(detectionPolicies ? { detectionPolicies } : {}) };
}
