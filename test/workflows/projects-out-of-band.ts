/**
 * A change to the deployment's projects made outside the stack, as between two runs of CI: a
 * project created (a repository's first scan), or a team tag added to or removed from one, so
 * that a ProjectSettingsSet's selector starts or stops matching it. The next `up` must converge
 * what now matches and put back what no longer does (issue 35). Only projects outside PROJECTS
 * (which no single resource's whole tag set reaches) change, and never so that the program
 * turns into a conflict.
 */
import type { EmulatorState } from "../../provider/emulator";

type StoredProject = EmulatorState["projects"][number];
import type { Workflow } from "./harness";
import { conflicts, type ProjectSelector, selectedProjects } from "./model";
import { newProjectName, PROJECTS, SELECTOR_TAGS, type WorldProject } from "./world";

/** The projects each set in clear newly matches between `before` and `after` (the preview names them). */
function newlyMatched(workflow: Workflow, before: readonly WorldProject[], after: readonly WorldProject[]): string[] {
  return workflow.program
    .filter((d) => d.kind === "ProjectSettingsSet" && d.props.select && !d.secret.length)
    .flatMap((d) => {
      const was = selectedProjects(d.props.select as ProjectSelector, before);
      return selectedProjects(d.props.select as ProjectSelector, after).filter((p) => !was.includes(p));
    });
}

/** Makes the change choice `n` draws (the first of its candidates that leaves the program without conflict). Returns it in words, and the projects newly matched. */
export function projectOutOfBand(workflow: Workflow, n: number): { said: string; newlyMatched: string[] } {
  const state = workflow.emulator.state();
  const before = workflow.projects();
  const selectorTags = [
    ...new Set(
      workflow.program.flatMap((d) =>
        d.kind === "ProjectSettingsSet" ? ((d.props.select as ProjectSelector | undefined)?.tags ?? []) : [],
      ),
    ),
  ];
  const tags = selectorTags.length ? selectorTags : [...SELECTOR_TAGS];
  const others = state.projects.filter(
    (p) => p.deploymentId === state.projects[0]!.deploymentId && !(PROJECTS as readonly string[]).includes(p.name),
  );
  const created = state.projects.filter((p) => p.name.startsWith("acme/new-")).length;
  const candidates: Array<() => { said: string; undo: () => void }> = [];
  const create = () => {
    const template = state.projects.find((p) => p.name === "acme/infra")!;
    const name = newProjectName(created + 1);
    const project: StoredProject = {
      ...structuredClone(template),
      id: Math.max(...state.projects.map((p) => p.id)) + 1,
      name,
      url: `https://github.com/${name}`,
      tags: n % 3 === 0 ? [] : [tags[n % tags.length]!],
      // A new repository's branch and scans unlike the preset's, so that converging it writes something.
      defaultBranch: "refs/heads/trunk",
      primaryBranch: "refs/heads/trunk",
      managedScanConfig: { diff_scan: { enabled: n % 2 === 0 }, full_scan: { enabled: n % 2 !== 0 } },
    };
    if (project.managedScanConfig.diff_scan.enabled) project.tags.push("managed-scan");
    state.projects.push(project);
    return {
      said: `project ${name} created with tags ${JSON.stringify(project.tags)}`,
      undo: () => void state.projects.splice(state.projects.indexOf(project), 1),
    };
  };
  const retag = (project: StoredProject, tag: string) => () => {
    const old = [...project.tags];
    const had = old.includes(tag);
    project.tags = had ? old.filter((t) => t !== tag) : [...old, tag];
    return { said: `tag ${tag} ${had ? "removed from" : "added to"} project ${project.name}`, undo: () => void (project.tags = old) };
  };
  if (n % 2 === 0) candidates.push(create);
  for (let i = 0; i < others.length; i++) {
    const project = others[(n + i) % others.length]!;
    candidates.push(retag(project, tags[(n + i) % tags.length]!));
  }
  candidates.push(create);
  for (const candidate of candidates) {
    const change = candidate();
    if (!conflicts(workflow.program, workflow.rules, workflow.projects()).length)
      return { said: change.said, newlyMatched: newlyMatched(workflow, before, workflow.projects()) };
    change.undo();
  }
  return { said: "nothing (every change would make a conflict)", newlyMatched: [] };
}
