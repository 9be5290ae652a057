/** The team data sources and their Output twins against the emulator (demo preset). */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { getTeam, getTeamOutput, getTeams, getTeamsOutput, InvalidRequestError } from "../../provider";
import { startEmulator } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";

const env = useEmulator({ preset: "demo" });
beforeAll(() => {
  process.env.SEMGREP_APP_URL = env.emulator.url;
  process.env.SEMGREP_APP_TOKEN = env.emulator.token;
});

const resolve = <T>(output: pulumi.Output<T>): Promise<T> => (output as unknown as { promise(): Promise<T> }).promise();
const operations = () => env.requests().map((r) => r.operation);

describe("getTeams", () => {
  it("lists the deployment's teams in one request, or the one of a name", async () => {
    const { teams } = await getTeams({ deploymentId: "1" });
    expect(operations()).toEqual(["teams.list"]);
    expect(teams).toEqual([
      { teamId: "201", name: "appsec", slug: "appsec", userCount: 2, repositoryCount: 2, childTeamCount: 0 },
      { teamId: "202", name: "payments", slug: "payments", userCount: 2, repositoryCount: 1, childTeamCount: 0 },
    ]);
    expect((await getTeams({ deploymentId: 1, name: "payments" })).teams.map((t) => t.teamId)).toEqual(["202"]);
    expect(await resolve(getTeamsOutput({ deploymentId: pulumi.output("1"), name: "appsec" }))).toEqual({ teams: [teams[0]] });
  });

  it("refuses a bad argument, naming it, before any request", async () => {
    await expect(getTeams({ deploymentId: "one" })).rejects.toThrow(InvalidRequestError);
    expect(operations()).toEqual([]);
  });
});

describe("getTeam", () => {
  it("reads a team by name or id, with its members (named) and its projects by name", async () => {
    const payments = await getTeam({ deploymentId: "1", name: "payments" });
    expect(payments).toEqual({
      teamId: "202",
      name: "payments",
      slug: "payments",
      userCount: 2,
      repositoryCount: 1,
      childTeamCount: 0,
      members: [
        { userId: "103", role: "TEAM_ROLE_MANAGER", name: "Carol Payments", login: "carol" },
        { userId: "104", role: "TEAM_ROLE_MEMBER", name: "Dan Developer", login: "dan" },
      ],
      projects: ["acme/payments-api"],
    });
    expect(await getTeam({ deploymentId: "1", teamId: 202 })).toEqual(payments);
    expect(await resolve(getTeamOutput({ deploymentId: "1", teamId: pulumi.output("202") }))).toEqual(payments);
  });

  it("names a team that does not exist, and wants exactly one of teamId and name", async () => {
    await expect(getTeam({ deploymentId: "1", name: "nobody" })).rejects.toThrow(/no team named "nobody"/);
    await expect(getTeam({ deploymentId: "1" })).rejects.toThrow(/exactly one of teamId and name/);
    await expect(getTeam({ deploymentId: "1", teamId: 1, name: "x" })).rejects.toThrow(/exactly one of teamId and name/);
  });

  it("gives members without names where the service does not serve the experimental user listing", async () => {
    const emulator = await startEmulator({ preset: "demo", experimentalEndpoints: false });
    try {
      const team = await getTeam({ deploymentId: "1", teamId: "201" }, { url: emulator.url, token: emulator.token });
      expect(team.members).toEqual([
        { userId: "101", role: "TEAM_ROLE_MANAGER" },
        { userId: "102", role: "TEAM_ROLE_MEMBER" },
      ]);
    } finally {
      await emulator.close();
    }
  });
});
