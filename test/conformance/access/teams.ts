/** The Teams operations (beta; the child-team listing experimental): every one, with every field the client sends. */
import { teamsRoutes } from "../../../provider/emulator/teams";
import type { AccessArea } from "./area";

export const teamsArea: AccessArea = {
  name: "teams",
  operations: {
    "teams.create": "TeamsService_CreateDeploymentTeam",
    "teams.get": "TeamsService_GetDeploymentTeam",
    "teams.update": "TeamsService_UpdateDeploymentTeam",
    "teams.delete": "TeamsService_DeleteDeploymentTeam",
    "teams.list": "TeamsService_ListDeploymentTeams",
    "teams.members": "TeamsService_ListTeamUsers",
    "teams.repositories": "TeamsService_ListTeamRepos",
    "teams.childTeams": "TeamsService_ListTeamChildTeams",
  },
  routes: teamsRoutes,
  async drive(client, deploymentId) {
    const parent = await client.teams.create(deploymentId, {
      name: "conformance",
      repositoryIds: ["101"],
      users: [{ userId: "105", role: "TEAM_ROLE_READONLY" }],
    });
    const child = await client.teams.create(deploymentId, { name: "conformance-child", parentTeamId: parent.id });
    await client.teams.get(deploymentId, parent.id);
    await client.teams.update(deploymentId, parent.id, {
      name: "conformance-renamed",
      users: [
        { userId: "105", action: "UPDATE_ACTION_UPDATE", role: "TEAM_ROLE_MEMBER" },
        { userId: "106", action: "UPDATE_ACTION_ADD", role: "TEAM_ROLE_MANAGER" },
        { userId: "106", action: "UPDATE_ACTION_REMOVE" },
      ],
      repositories: [
        { repositoryId: "102", action: "UPDATE_ACTION_ADD" },
        { repositoryId: "101", action: "UPDATE_ACTION_REMOVE" },
      ],
    });
    await client.teams.list(deploymentId, { pageSize: 1 }).toArray();
    await client.teams.list(deploymentId, { name: "appsec" }).toArray();
    await client.teams.members(deploymentId, 201, { pageSize: 1 }).toArray();
    await client.teams.repositories(deploymentId, 201, { pageSize: 1 }).toArray();
    await client.teams.childTeams(deploymentId, parent.id).toArray();
    await client.teams.delete(deploymentId, child.id);
    await client.teams.delete(deploymentId, parent.id);
  },
};
