#!/usr/bin/env node
// `npm run demo`: starts the API emulator with the demo preset and shows what it serves through
// the package's own client, then the emulator's request summary.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { startEmulator } = require("../../dist/emulator");
const { SemgrepClient } = require("../../dist/client");

const emulator = await startEmulator({ preset: "demo" });
console.log(`Semgrep API emulator (demo preset) at ${emulator.url}, token "${emulator.token}"\n`);
const client = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token });
try {
  const [deployment] = await client.deployments.list();
  console.log(`Deployment ${deployment.id} (${deployment.slug}): ${deployment.name}`);

  console.log("\nProjects:");
  for (const project of await client.projects.list(deployment.slug)) {
    const scans = project.managed_scan_config;
    console.log(
      `  ${project.name.padEnd(24)} tags=[${project.tags.join(", ")}] primary=${project.primary_branch} ` +
        `managed diff=${scans?.diff_scan?.enabled ? "on" : "off"} full=${scans?.full_scan?.enabled ? "on" : "off"}`,
    );
  }

  console.log("\nPolicies:");
  for (const policy of await client.policies.list(deployment.id)) {
    const modes = {};
    for await (const rule of client.policies.listRules(deployment.id, policy.id)) modes[rule.policyMode] = (modes[rule.policyMode] ?? 0) + 1;
    const summary = Object.entries(modes).map(([mode, n]) => `${mode.replace("MODE_", "").toLowerCase()} ${n}`).join(", ");
    console.log(`  ${policy.id} ${policy.name.padEnd(24)} ${policy.productType}${policy.isDefault ? " (default)" : ""}: ${summary}`);
  }

  const statuses = {};
  for await (const scan of client.scans.search(deployment.id)) statuses[scan.status] = (statuses[scan.status] ?? 0) + 1;
  console.log(`\nScans by status: ${Object.entries(statuses).map(([s, n]) => `${s.replace("SCAN_STATUS_", "")} ${n}`).join(", ")}`);

  const repositories = await client.dependencies.listRepositories(deployment.id).toArray();
  const dependencies = repositories.reduce((n, r) => n + r.numDependencies, 0);
  console.log(`Dependency inventory: ${repositories.length} repositories, ${dependencies} dependencies`);

  const byOperation = {};
  for (const request of emulator.requests()) byOperation[request.operation ?? request.path] = (byOperation[request.operation ?? request.path] ?? 0) + 1;
  console.log(`\nEmulator request log: ${emulator.requests().length} requests`);
  for (const [operation, n] of Object.entries(byOperation)) console.log(`  ${operation.padEnd(32)} ${n}`);
} finally {
  await client.close();
  await emulator.close();
}
