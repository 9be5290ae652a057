// Data sources in a program (docs/guides/data-sources.md): type-checked by `npm run typecheck`.
import { getPolicy, getPolicyRules, getScanOutput, getScans } from "pulumi-semgrep";

const sast = await getPolicy({ deploymentId: "1", productType: "PRODUCT_TYPE_SAST", isDefault: true });
const { rules } = await getPolicyRules({
  deploymentId: "1",
  policyId: sast.id,
  filter: { severities: ["SEVERITY_HIGH", "SEVERITY_CRITICAL"], categories: ["security"], languages: ["python"] },
});
console.log(`${rules.length} high and critical Python security rules`);
const { scans } = await getScans({ deploymentId: "1", branch: "refs/heads/main", statuses: ["SCAN_STATUS_ERROR"], maxResults: 20 });
const scan = getScanOutput({ deploymentId: "1", scanId: scans[0]!.id });
export const author = scan.meta.commitAuthorEmail; // a Pulumi secret
