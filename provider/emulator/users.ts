/**
 * A deployment's users and their org roles (`DeploymentService`, experimental in Semgrep's
 * OpenAPI): the listing and the role change, validated with the client's schemas.
 */
import { listDeploymentUsersRequest, MAX_USER_PAGE_SIZE, patchDeploymentUserRequest } from "../client/schemas/users";
import { type ApiRequest, deploymentById, HttpError, matchesPath, parse, type Route } from "./api";
import type { StoredUser } from "./model";

const AGENT = "/api/agent/deployments/(?<deployment>[^/]+)";

export const usersRoutes: Route[] = [
  { method: "POST", pattern: new RegExp(`^${AGENT}/users/list$`), operation: "users.list", handle: listUsers, stability: "experimental" },
  {
    method: "PATCH",
    pattern: new RegExp(`^${AGENT}/users/(?<user>[^/]+)/roles$`),
    operation: "users.setRole",
    handle: setRole,
    stability: "experimental",
  },
];

const renderUser = (user: StoredUser) => ({
  id: user.id,
  orgRole: user.orgRole,
  name: user.name,
  login: user.login,
  email: user.email,
  active: user.active,
  scimManaged: false,
});

/** The users of the deployment, in id order, a page at a time; the page token is the offset (opaque to clients). */
function listUsers(req: ApiRequest) {
  const deployment = deploymentById(req);
  const body = parse(listDeploymentUsersRequest, req.body ?? {});
  matchesPath(req, body, { deploymentId: "deployment" });
  const { filters = {}, options = {} } = body;
  const query = filters.query?.toLowerCase();
  const users = req.state.users.filter(
    (u) =>
      u.deploymentId === deployment.id &&
      (!filters.showActive || u.active) &&
      (!filters.memberIds?.length || filters.memberIds.includes(u.id)) &&
      (filters.filterMembers !== "MEMBER_FILTER_TYPE_ADMIN_ONLY" || u.orgRole === "ORG_ROLE_ADMIN") &&
      (filters.filterMembers !== "MEMBER_FILTER_TYPE_NON_ADMIN_ONLY" || u.orgRole !== "ORG_ROLE_ADMIN") &&
      (!query || [u.name, u.login, u.email].some((field) => field.toLowerCase().includes(query))),
  );
  const start = options.pageToken === undefined ? 0 : pageOffset(options.pageToken);
  const size = Math.min(options.pageSize ?? MAX_USER_PAGE_SIZE, 1000);
  const page = users.slice(start, start + size);
  const next = start + size < users.length ? Buffer.from(`users:${start + size}`).toString("base64url") : undefined;
  return { users: page.map(renderUser), ...(next ? { pageToken: next } : {}) };
}

function pageOffset(token: string): number {
  const match = /^users:(\d+)$/.exec(Buffer.from(token, "base64url").toString());
  if (!match) throw new HttpError(400, "invalid request: options.pageToken: not a page token this listing gave");
  return Number(match[1]);
}

/**
 * Sets a user's org role. Refused: an unknown user (404), and a change that would leave the
 * deployment without an org admin (400), as the web UI refuses it.
 */
function setRole(req: ApiRequest) {
  const deployment = deploymentById(req);
  const body = parse(patchDeploymentUserRequest, req.body ?? {});
  matchesPath(req, body, { deploymentId: "deployment", userId: "user" });
  const user = req.state.users.find((u) => u.deploymentId === deployment.id && u.id === req.params.user);
  if (!user) throw new HttpError(404, `user ${req.params.user} not found in deployment ${deployment.id}`);
  const admins = req.state.users.filter((u) => u.deploymentId === deployment.id && u.orgRole === "ORG_ROLE_ADMIN");
  if (user.orgRole === "ORG_ROLE_ADMIN" && body.newRole !== "ORG_ROLE_ADMIN" && admins.length === 1)
    throw new HttpError(400, `invalid request: user ${user.id} is the deployment's last org admin`);
  user.orgRole = body.newRole;
  req.changed();
  return {};
}
