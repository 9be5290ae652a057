// One PolicyRuleModes for a class of rules (docs/guides/large-policies.md): type-checked by `npm run typecheck`.
import { PolicyRuleModes } from "pulumi-semgrep";

new PolicyRuleModes("block-high-severity", {
  deploymentId: "1",
  policyId: "10",
  select: {
    categories: ["security"],
    severities: ["SEVERITY_HIGH", "SEVERITY_CRITICAL"],
    exclude: ["python.lang.security.audit.exec-detected.exec-detected"],
  },
  mode: "MODE_BLOCK",
  modes: { "javascript.lang.best-practice.assigned-undefined.assigned-undefined": "MODE_MONITOR" }, // explicit rules win
});
