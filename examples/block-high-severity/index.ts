// Written against what is really in the deployment: find the default SAST policy by its flags,
// put every high- and critical-severity security rule in it into MODE_BLOCK with one
// PolicyRuleModes (rules that later match are found by `pulumi refresh` and set by the next
// `up`), and export a summary of the latest scans.
import * as pulumi from "@pulumi/pulumi";
import { getPolicy, getScans, PolicyRuleModes } from "pulumi-semgrep";

const config = new pulumi.Config();
const deploymentId = config.get("deploymentId") ?? "1";

export = async () => {
  const policy = await getPolicy({ deploymentId, productType: "PRODUCT_TYPE_SAST", isDefault: true });

  const blocking = new PolicyRuleModes("block-high-severity", {
    deploymentId,
    policyId: policy.id,
    select: { categories: ["security"], severities: ["SEVERITY_HIGH", "SEVERITY_CRITICAL"] },
    mode: "MODE_BLOCK",
  });

  const { scans } = await getScans({ deploymentId, maxResults: 100 });
  const byStatus: Record<string, number> = {};
  for (const scan of scans) byStatus[scan.status] = (byStatus[scan.status] ?? 0) + 1;

  return {
    policy: `${policy.name} (${policy.id})`,
    blockedRules: blocking.managedRules,
    latestScans: {
      count: scans.length,
      byStatus,
      newest: scans.slice(0, 5).map((s) => ({ id: s.id, branch: s.branch, status: s.status, findings: s.findingsCounts.total })),
    },
  };
};
