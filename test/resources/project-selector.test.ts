/** The project selector (`select`): its schema's refusals and which names and tags it picks. */
import { describe, expect, it } from "vitest";
import { namePatternRegExp, projectMatcher, projectSelector, selectProjects } from "../../provider/core/kinds/project-selector";

const project = (name: string, tags: string[] = []) => ({ name, tags });

describe("name patterns", () => {
  const matches = (glob: string, name: string) => namePatternRegExp(glob).test(name);

  it("* is any run within one path segment, ** any run across segments, ? one character but /", () => {
    expect(matches("acme/*-3", "acme/web-app-3")).toBe(true);
    expect(matches("acme/*-3", "acme/web-app-13")).toBe(false);
    expect(matches("acme/*-3", "acme/infra-3-3")).toBe(true);
    expect(matches("acme/*-3", "acme/web-app-3-0")).toBe(false);
    expect(matches("acme/*", "acme/platform/api")).toBe(false);
    expect(matches("acme/**", "acme/platform/api")).toBe(true);
    expect(matches("acme/**/api", "acme/platform/core/api")).toBe(true);
    expect(matches("**", "any/thing/at/all")).toBe(true);
    expect(matches("acme/app-?", "acme/app-7")).toBe(true);
    expect(matches("acme/app-?", "acme/app-17")).toBe(false);
    expect(matches("acme?web", "acme/web")).toBe(false);
  });

  it("matches the whole name, every other character for itself", () => {
    expect(matches("acme/web", "acme/web-app")).toBe(false);
    expect(matches("web-app", "acme/web-app")).toBe(false);
    expect(matches("acme/web.app", "acme/webxapp")).toBe(false);
    expect(matches("acme/(web)+[app]", "acme/(web)+[app]")).toBe(true);
    expect(matches("ACME/web", "acme/web")).toBe(false);
  });
});

describe("projectMatcher", () => {
  const projects = [
    project("acme/web-app", ["team:web", "tier:1"]),
    project("acme/payments-api", ["team:payments", "tier:0", "managed-scan"]),
    project("acme/legacy-api", ["team:payments"]),
    project("other/web-app", ["team:web"]),
  ];
  const names = (select: Parameters<typeof projectMatcher>[0]) => selectProjects(projects, select).map((p) => p.name);

  it("picks a project matching any pattern, or carrying any tag; both given, both must hold", () => {
    expect(names({ namePatterns: ["acme/*-api", "other/*"] })).toEqual(["acme/payments-api", "acme/legacy-api", "other/web-app"]);
    expect(names({ tags: ["tier:0", "tier:1"] })).toEqual(["acme/web-app", "acme/payments-api"]);
    expect(names({ tags: ["managed-scan"] })).toEqual(["acme/payments-api"]);
    expect(names({ namePatterns: ["acme/**"], tags: ["team:web"] })).toEqual(["acme/web-app"]);
  });

  it("leaves out a name in exclude although it matches", () => {
    expect(names({ namePatterns: ["acme/*-api"], exclude: ["acme/legacy-api"] })).toEqual(["acme/payments-api"]);
    expect(names({ tags: ["team:payments"], exclude: ["acme/payments-api", "acme/legacy-api"] })).toEqual([]);
  });
});

describe("the select schema", () => {
  const problem = (value: unknown) => {
    const result = projectSelector.safeParse(value);
    return result.success ? undefined : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
  };

  it("takes patterns, tags and names to exclude", () => {
    expect(problem({ namePatterns: ["acme/*"], tags: ["team:web"], exclude: ["acme/web-app"] })).toBeUndefined();
  });

  it("refuses a selector without a criterion, which would pick every project", () => {
    expect(problem({})).toMatch(/at least one criterion \(namePatterns, tags\)/);
    expect(problem({ exclude: ["acme/web-app"] })).toMatch(/at least one criterion/);
  });

  it("refuses an empty list (computed empty, it would restrict nothing), an empty pattern, a bad tag, an unknown field", () => {
    expect(problem({ namePatterns: [] })).toMatch(/^namePatterns: must not be empty/);
    expect(problem({ tags: [] })).toMatch(/^tags: must not be empty/);
    expect(problem({ namePatterns: [""] })).toMatch(/^namePatterns.0: a name pattern must not be empty/);
    expect(problem({ tags: [" padded"] })).toMatch(/^tags.0: a tag must not start or end with white space/);
    expect(problem({ namePatterns: ["acme/*"], exclude: ["has space"] })).toMatch(/^exclude.0: must not contain white space/);
    expect(problem({ namePattern: ["acme/*"] })).toMatch(/namePattern/);
  });
});
