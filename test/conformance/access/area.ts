/**
 * One area of the v2 OpenAPI the access kinds use (users, teams, product settings, notification
 * rules), as test/conformance/openapi-v2-access.test.ts checks it: add a module of this shape and
 * list it in `AREAS` there.
 */
import type { SemgrepClient } from "../../../provider/client";
import type { Route } from "../../../provider/emulator/api";

export interface AccessArea {
  /** The area's name in test titles. */
  name: string;
  /** The documented operation behind each client method (`users.list` → `DeploymentService_ListDeploymentUsers`). */
  operations: Readonly<Record<string, string>>;
  /** The emulator's routes of the area: exactly the client's operations. */
  routes: readonly Route[];
  /** Calls every operation of the area at least once with every field the client can send, each answered 200. */
  drive(client: SemgrepClient, deploymentId: number): Promise<void>;
}
