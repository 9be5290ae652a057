/**
 * The journal of originals (provider/core/runtime/journal.ts) of a resource renamed or moved with
 * an alias. The lines of a call cut short (a cancel: the engine may not record its answer) are
 * kept under its name until a state with the outputs of the call that wrote them comes back; after a rename, that state comes back under the new name, and the
 * lines under the old one would stay for good, read by any later resource of that name (same
 * kind and object) that finds a value as declared as a killed run's. The dynamic classes' olds
 * say the earlier name, so the rename's diff drops them; the native plugin is told the new URN
 * alone (the request has no earlier one), so there the lines stay.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { interrupt } from "../../provider/core/runtime/interrupts";
import { useEmulator } from "../support/emulator";
import { checked, notices, provider, useProviderAgainst } from "../support/provider";
import { asAnotherProcess } from "../support/journal";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);

type Props = Record<string, unknown>;
const journals = () => {
  try {
    return readdirSync(join(process.env.XDG_STATE_HOME!, "pulumi-semgrep"));
  } catch {
    return [];
  }
};
const project = { deploymentSlug: "acme", projectName: "acme/web-app" };
const branchOf = () => env.emulator.state().projects.find((p) => p.name === "acme/web-app")!.primaryBranch;

it("a resource renamed with an alias leaves no journal under its old name, which a later resource of that name would read as a killed run's", async () => {
  const settings = provider("ProjectSettings");
  const before = branchOf();
  const declared = { ...project, primaryBranch: "release" };
  const web = await checked(settings, { ...declared, resourceName: "web" });
  interrupt("a cancel, as the create's answer comes back");
  const created = (await settings.create(web)) as { id: string; outs: Props };
  expect(journals()).toHaveLength(1); // kept, marked, until a state with these outputs comes back

  // The next `up`, renamed with an alias: the engine hands the state recorded under the old name.
  asAnotherProcess();
  const renamed = await checked(settings, { ...declared, resourceName: "web-settings" });
  expect(((await settings.diff(created.outs, renamed, created.id)) as { changes: boolean }).changes).toBe(true);
  const updated = (await settings.update(created.id, created.outs, renamed)) as { outs: Props };
  expect(journals(), "the state records every original: nothing is left to restore").toEqual([]);

  // Destroyed (the branch put back), the branch later set to "release" by hand, then a new "web".
  asAnotherProcess();
  await settings.delete(created.id, updated.outs);
  expect(branchOf()).toBe(before);
  env.emulator.state().projects.find((p) => p.name === "acme/web-app")!.primaryBranch = "refs/heads/release";
  asAnotherProcess();
  notices.length = 0;
  const again = (await settings.create(await checked(settings, { ...declared, resourceName: "web" }))) as { outs: Props };
  expect(notices.map((n) => n.message).join("\n")).not.toContain("set by an interrupted run of it");
  expect(again.outs.originalPrimaryBranch, "found as declared: nothing to put back").toBeUndefined();
});
