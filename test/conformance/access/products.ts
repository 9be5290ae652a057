/** The deployment's product configuration (experimental): the read, and the read-modify-write of every section. */
import { productsRoutes } from "../../../provider/emulator/products";
import type { AccessArea } from "./area";

export const productsArea: AccessArea = {
  name: "products",
  // The admin view and the feedback operation of the service are not used.
  operations: {
    "products.get": "DeploymentProductsService_GetDeploymentProductConfig",
    "products.update": "DeploymentProductsService_PutDeploymentProductConfig",
  },
  routes: productsRoutes,
  async drive(client, deploymentId) {
    await client.products.get(deploymentId);
    await client.products.update(deploymentId, {
      sast: { enabled: true, triagePermission: "TRIAGE_PERMISSION_NONE", humanAutofixEnabled: false },
      sca: {
        enabled: true,
        blockPrEnabled: false,
        prCommentsEnabled: true,
        maliciousDependencyAdvisoriesEnabled: true,
        malwareFirewallEnabled: true,
        upgradeGuidanceEnabled: true,
        triagePermission: "TRIAGE_PERMISSION_IGNORE",
      },
      secrets: { enabled: false, triagePermission: "TRIAGE_PERMISSION_REQUEST" },
      ai: { enabled: true, legacyAllowOpenaiCodeSharing: true, allowedProviders: ["openai"] },
      hasDeveloperTriage: false,
      approversTag: "",
    });
  },
};
