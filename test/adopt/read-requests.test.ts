/**
 * What adopt's reading costs: on a deployment still on v1 policies, the Policies V2 attempt is one
 * refused request (not one per V2 read); on a migrated one, both V2 reads and one refused v1 listing.
 */
import { describe, expect, it } from "vitest";
import { readDeployment } from "../../provider/adopt/read";
import { DEMO_DEPLOYMENT } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";

const request = {
  deployment: { id: String(DEMO_DEPLOYMENT.id), slug: DEMO_DEPLOYMENT.slug },
  skip: [],
  projects: [],
  policies: [],
};

/** `operation status` of each policy request (v1 and V2) since the last reset, sorted. */
const policyRequests = (env: ReturnType<typeof useEmulator>) =>
  env
    .requests()
    .filter((r) => r.operation?.startsWith("policies"))
    .map((r) => `${r.operation} ${r.status}`)
    .sort();

describe("a deployment on v1 policies", () => {
  const env = useEmulator({ preset: "demo" });

  it("tries Policies V2 with one request, answered 403", async () => {
    const live = await readDeployment(env.client(), request, () => {});
    expect(live.unified).toBeUndefined();
    expect(policyRequests(env)).toEqual([
      "policies.list 200",
      "policies.listRules 200",
      "policies.listRules 200",
      "policies.listRules 200",
      "policiesV2.getDetectionPolicySummary 403",
    ]);
  });
});

describe("a migrated deployment", () => {
  const env = useEmulator({ preset: "demo", policiesV2: true });

  it("reads the detection summary and the remediation policies once each", async () => {
    const live = await readDeployment(env.client(), request, () => {});
    expect(live.policies).toBeUndefined();
    expect(live.unified?.remediation.bundle.policies.length).toBeGreaterThan(0);
    expect(policyRequests(env)).toEqual([
      "policies.list 410",
      "policiesV2.getDetectionPolicySummary 200",
      "policiesV2.getRemediationPolicies 200",
    ]);
  });
});
