// The API client on its own (docs/client.md): type-checked by `npm run typecheck`.
import { NotFoundError, SemgrepClient } from "pulumi-semgrep/client";

const client = new SemgrepClient(); // token: SEMGREP_APP_TOKEN or SEMGREP_API_TOKEN; address: SEMGREP_APP_URL, SEMGREP_URL or https://semgrep.dev

// Every rule of a policy, read 2,000 at a time, only as far as you iterate.
for await (const rule of client.policies.listRules(1, "10")) {
  if (rule.severity === "SEVERITY_CRITICAL" && rule.policyMode !== "MODE_BLOCK") {
    await client.policies.updateRuleMode(1, "10", { rulePath: rule.path, policyMode: "MODE_BLOCK" });
  }
}

try {
  await client.projects.addTags("acme", "acme/web-app", ["tier:1"]);
} catch (error) {
  if (error instanceof NotFoundError) console.error(error.message); // names the operation, path, status and a hint
}
await client.close();
