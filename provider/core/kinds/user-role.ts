/** UserRole, declared once: see declare.ts. */
import { z } from "zod";
import type { OrgRole } from "../../client/schemas";
import { id, restoreOnDelete } from "./inputs";
import { defineKind, input, managed, output } from "./declare";

/** The org roles a program may declare: `ORG_ROLE_IMPERSONATOR` is Semgrep's own support role, never given by a customer. */
export const DECLARABLE_ORG_ROLES = ["ORG_ROLE_ADMIN", "ORG_ROLE_MEMBER", "ORG_ROLE_READONLY"] as const;
export type DeclarableOrgRole = (typeof DECLARABLE_ORG_ROLES)[number];

/** The role that administers the deployment: a deployment is never left without one. */
export const ADMIN_ROLE = "ORG_ROLE_ADMIN";

/** A role as the service reports it: one of the API's roles, or a newer one this package does not know yet. */
type LiveRole = OrgRole | (string & {});

export const userRoleKind = defineKind({
  kind: "UserRole",
  stability: "experimental",
  inputs: {
    /** Numeric id of the deployment, e.g. `"1"`. Changing it replaces the resource. */
    deploymentId: input(id("deployment"), { replaces: true }),
    /** The user's id in the deployment, e.g. `"103"` (`getUsers` finds it by email, login or name). Changing it replaces the resource. */
    userId: input(id("user"), { replaces: true }),
    /** The user's org role: `ORG_ROLE_ADMIN`, `ORG_ROLE_MEMBER` or `ORG_ROLE_READONLY`. */
    role: input(z.enum(DECLARABLE_ORG_ROLES, { error: `must be one of ${DECLARABLE_ORG_ROLES.join(", ")}` })),
    /** Put back, on delete, the role this resource changed, as it found it (default `true`); `false` only stops managing. */
    restoreOnDelete: input(restoreOnDelete),
  },
  outputs: {
    /** The user's live org role. */
    role: output<LiveRole>(),
    /** The user's display name. */
    userName: output<string>(),
    /** The user's login. */
    login: output<string>(),
    /** The user's email address. */
    email: output<string>(),
    /** The role this resource found and changed (at create, or at the first update that changed a role create found as declared), put back on delete; unset until it changes the user's role. */
    originalRole: output<LiveRole | undefined>({ derivedFrom: "role" }),
  },
  managed: {
    role: managed("originalRole"),
  },
  id: {
    format: "<deploymentId>/<userId>",
    parse: (text) => {
      const [deploymentId, userId, ...rest] = text.split("/");
      const digits = (part?: string) => part !== undefined && /^\d+$/.test(part);
      return digits(deploymentId) && digits(userId) && rest.length === 0 ? { deploymentId, userId } : undefined;
    },
  },
  service: {
    create:
      "Lists the deployment's users (one listing per deployment and run, shared by every UserRole of the deployment and made " +
      "at preview), records the user's org role, and sets the declared role unless the user already has it (one `PATCH`). " +
      "A demotion of an org admin waits for the UserRoles of the run that make another user an admin.",
    update: "Sets the declared role (one `PATCH`); a change of deployment or user replaces the resource.",
    delete:
      "Puts back the role it found (one `PATCH`; a put-back that removes an admin role lists the users first), unless " +
      "`restoreOnDelete` is `false` or it found the user in the declared role. A put-back that would leave the deployment " +
      "without an org admin is not made: the user keeps the admin role, and a warning says so.",
    read: "Lists the deployment's users (shared as on create) and reports the user's live role; a role changed elsewhere shows as drift.",
    adoption:
      "Every user already has a role: creating the resource takes it over, recording the role it replaces as `originalRole` " +
      "(a user found in the declared role records nothing to put back). At preview it refuses, before any write: a user id " +
      "the deployment does not have; two UserRoles of one user; a change that leaves the deployment without an org admin " +
      "(counting every UserRole of the stack); and removing the admin role of the user the provider's token belongs to. That " +
      "user is read from `GET /api/auth/users/current`, which Semgrep documents for a user's JWT only: where the service does " +
      "not answer it for the token (401, 403, 404 or 501), the provider cannot know whose token it is, warns once per provider " +
      "process (each phase of a command) that this check was not made, and goes on. " +
      '`UserRole.get(name, "<deploymentId>/<userId>")` reads a user\'s role without managing it.',
  },
});
