/**
 * Conformance with Semgrep's v2 OpenAPI (`SEMGREP_OPENAPI_V2`) of the operations the access kinds
 * use (deployment users, teams, product settings, notification rules), area by area
 * (test/conformance/access/):
 * - the client implements the documented operations it names, and the emulator serves exactly those;
 * - each request the client sends matches its documented operation (path, parameters, body, no
 *   undeclared field), and each answer the emulator gives matches the documented 200 schema, with
 *   and without `--omit-empty`;
 * - each route carries the operation's stability (`x-badges`), and an emulator started without
 *   experimental endpoints answers 404 to the experimental ones, which the client reports as
 *   `ExperimentalEndpointError`.
 * Without the file the tier reports that it did not run, never a pass.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SemgrepClient } from "../../provider/client";
import { DEMO_DEPLOYMENT, type RunningEmulator, startEmulator } from "../../provider/emulator";
import { Contract, contractFileFrom, type Exchange, OPENAPI_V2_ENV } from "../support/openapi";
import { type RecordingProxy, startRecordingProxy } from "../support/recording-proxy";
import type { AccessArea } from "./access/area";
import { usersArea } from "./access/users";
import { notificationRulesArea } from "./access/notification-rules";
import { productsArea } from "./access/products";
import { teamsArea } from "./access/teams";

const AREAS: readonly AccessArea[] = [usersArea, teamsArea, productsArea, notificationRulesArea];

const file = contractFileFrom(process.env, OPENAPI_V2_ENV);
const DEPLOYMENT = DEMO_DEPLOYMENT.id;

if (!file) {
  it.skip(`OpenAPI v2 access conformance tier did not run: set ${OPENAPI_V2_ENV} to semgrep-public-v2.openapi.yaml (CI does)`, () => {});
} else {
  const contract = new Contract(file);

  describe.each(AREAS)("the $name area", (area) => {
    it("names documented operations, which the emulator serves exactly, with their stability", () => {
      for (const operationId of Object.values(area.operations)) expect(() => contract.byId(operationId)).not.toThrow();
      expect(area.routes.map((r) => r.operation).sort()).toEqual(Object.keys(area.operations).sort());
      for (const route of area.routes)
        expect(route.stability, route.operation).toBe(contract.byId(area.operations[route.operation]!).stability);
    });

    for (const omitEmpty of [false, true]) {
      describe(`against the emulator${omitEmpty ? " with --omit-empty" : ""}`, () => {
        let emulator: RunningEmulator;
        let proxy: RecordingProxy;
        let client: SemgrepClient;
        beforeAll(async () => {
          emulator = await startEmulator({ preset: "demo", omitEmpty });
          proxy = await startRecordingProxy(emulator.url);
          client = new SemgrepClient({ baseUrl: proxy.url, token: emulator.token, env: {}, retryBaseDelayMs: 5 });
          await area.drive(client, DEPLOYMENT);
        });
        afterAll(async () => {
          await client?.close();
          await proxy?.close();
          await emulator?.close();
        });

        it("covers every operation, each answered 200", () => {
          const answered = new Set(proxy.exchanges.filter((e) => e.status === 200).map((e) => operationOf(contract, e)));
          expect([...answered].sort()).toEqual(Object.values(area.operations).sort());
        });

        it("sends only documented requests", () => {
          expect(proxy.exchanges.flatMap((e) => contract.checkRequest(e))).toEqual([]);
        });

        it("is answered only in the documented shape", () => {
          expect(proxy.exchanges.flatMap((e) => answerProblems(contract, e))).toEqual([]);
        });
      });
    }
  });

  describe("a service without the experimental endpoints", () => {
    let emulator: RunningEmulator;
    let client: SemgrepClient;
    beforeAll(async () => {
      emulator = await startEmulator({ preset: "demo", experimentalEndpoints: false });
      client = new SemgrepClient({ baseUrl: emulator.url, token: emulator.token, env: {}, retryBaseDelayMs: 5 });
    });
    afterAll(async () => {
      await client?.close();
      await emulator?.close();
    });

    it("fails each experimental listing with a message that says it is experimental on the service side", async () => {
      const error = await client.users
        .list(DEPLOYMENT)
        .toArray()
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ name: "ExperimentalEndpointError", status: 404 });
      expect((error as Error).message).toMatch(/users\.list failed \(POST \/api\/agent\/deployments\/1\/users\/list → 404\)/);
      expect((error as Error).message).toMatch(/experimental on the service side/);
    });
  });
}

const operationOf = (contract: Contract, e: Exchange) => contract.match(e.method, new URL(e.url, "http://x").pathname)?.operationId;

function answerProblems(contract: Contract, exchange: Exchange): string[] {
  if (exchange.status !== 200) return [`${exchange.method} ${exchange.url} answered ${exchange.status}`];
  const op = contract.match(exchange.method, new URL(exchange.url, "http://x").pathname);
  return op ? contract.checkAnswer(op, exchange.answer) : [];
}
