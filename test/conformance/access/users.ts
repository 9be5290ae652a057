/** The deployment users' operations (experimental): listing and the org role change. */
import { usersRoutes } from "../../../provider/emulator/users";
import type { AccessArea } from "./area";

export const usersArea: AccessArea = {
  name: "users",
  operations: {
    "users.list": "DeploymentService_ListDeploymentUsers",
    "users.setRole": "DeploymentService_PatchDeploymentUser",
  },
  routes: usersRoutes,
  async drive(client, deploymentId) {
    const all = await client.users.list(deploymentId).toArray();
    await client.users.list(deploymentId, { query: "acme", showActive: true, filterMembers: "MEMBER_FILTER_TYPE_ADMIN_ONLY" }).toArray();
    const member = all.find((u) => u.orgRole === "ORG_ROLE_MEMBER")!;
    await client.users.setRole(deploymentId, member.id, "ORG_ROLE_READONLY");
    await client.users.setRole(deploymentId, member.id, "ORG_ROLE_MEMBER");
  },
};
