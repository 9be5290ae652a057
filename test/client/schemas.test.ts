/** The response schemas accept what the live service really sends (docs/live-service.md). */
import { describe, expect, it } from "vitest";
import { toDate } from "../../provider/client";
import { project, rule, scanDetail, scanSummary } from "../../provider/client/schemas";

describe("live-service quirks", () => {
  it("reads integers sent as strings, and unknown statuses", () => {
    const scan = scanSummary.parse({
      id: "7",
      deployment_id: "1",
      repository_id: 3,
      exit_code: "0",
      findings_counts: { code: "4", secrets: "0", supply_chain: "1", total: "5" },
      status: "SCAN_STATUS_CANCELLED",
      started_at: "2024-07-29T22:33:37.380293Z",
    });
    expect(scan).toMatchObject({
      id: "7",
      repository_id: "3",
      exit_code: 0,
      findings_counts: { total: 5 },
      status: "SCAN_STATUS_CANCELLED",
    });
  });

  it("reads both timestamp forms", () => {
    expect(toDate("2020-11-18 23:28:12.391807+00:00").toISOString()).toBe("2020-11-18T23:28:12.391Z");
    expect(toDate("2024-07-29T22:33:37.380293Z").toISOString()).toBe("2024-07-29T22:33:37.380Z");
    expect(() => scanSummary.parse({ id: "1", deployment_id: "1", repository_id: "1", status: "X", started_at: "yesterday" })).toThrow(
      /timestamp/,
    );
  });

  it("keeps fields this package does not know yet", () => {
    const parsed = project.parse({ id: 1, name: "a/b", tags: null, brand_new_field: { x: 1 } });
    expect(parsed).toMatchObject({ tags: [], brand_new_field: { x: 1 } });
  });

  it("turns a single-string vulnerabilityClass into a list", () => {
    expect(rule.parse({ id: "1", path: "a.b", policyMode: "MODE_BLOCK", vulnerabilityClass: "SQL Injection" }).vulnerabilityClass).toEqual([
      "SQL Injection",
    ]);
  });

  it("reads a scan's meta with a string pull_request_id and an object title", () => {
    const detail = scanDetail.parse({
      id: 1,
      deployment_id: 1,
      repository_id: 2,
      meta: { on: "pull_request", pull_request_id: 42, commit_title: { text: "x" } },
    });
    expect(detail.meta).toMatchObject({ pull_request_id: "42", commit_title: { text: "x" } });
  });
});
