/**
 * Ends a test run with the plain closing line `Tests: N passed, N failed, N skipped`, which CI
 * reads to know how many tests ran (it does not parse vitest's own summary), preceded by one
 * `Not run: ...` line for each tier that could not run here (a skipped test whose name says
 * "did not run"), so that a missing tier is never mistaken for a pass.
 */
// vitest/node is ESM-only; this CommonJS-compiled project names its types with resolution-mode.
type Reporter = import("vitest/node", { with: { "resolution-mode": "import" } }).Reporter;
type TestModule = import("vitest/node", { with: { "resolution-mode": "import" } }).TestModule;

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const notRun: string[] = [];
    const unloaded: string[] = [];
    for (const module of testModules) {
      // A file that fails before its tests are collected (a bad import, a missing OpenAPI file)
      // has no tests to count: it counts as one failure, so this line never looks clean.
      if (module.errors().length) {
        counts.failed++;
        unloaded.push(module.moduleId);
      }
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") counts.passed++;
        else if (state === "failed") counts.failed++;
        else {
          counts.skipped++;
          if (test.name.includes("did not run")) notRun.push(test.name);
        }
      }
    }
    for (const name of notRun) process.stdout.write(`\nNot run: ${name}`);
    for (const file of unloaded) process.stdout.write(`\nFailed to load: ${file}`);
    process.stdout.write(`\nTests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
