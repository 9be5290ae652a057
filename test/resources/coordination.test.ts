/**
 * The coordination the dispatcher owns (dispatch.ts, ownership.ts): a resource's claims are
 * settled after its create, update or unchanged diff, and marked failed after a failed check,
 * diff, create or update, whichever handler it is, so that nobody waits for a resource that will
 * never hold what it declares; a wait for others has one deadline for the whole call, however
 * many values it hands over.
 */
import { describe, expect, it } from "vitest";
import { SAST_POLICY_ID } from "../../provider/emulator";
import { type Claim, holderOf, othersSettled, withCallDeadline } from "../../provider/core/runtime/ownership";
import { checked, FRONT_ENDS, inStackWithHistory, provider, useProviderAgainst } from "../support/provider";
import { useEmulator } from "../support/emulator";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";

const env = useEmulator({ preset: "demo" });
useProviderAgainst(env);

const rules = () => env.emulator.state().policies.find((p) => p.id === SAST_POLICY_ID)!.rules;
const ruleClaim = (path: string): Claim => ({ object: `rule ${path} in policy ${SAST_POLICY_ID} (deployment 1)`, field: "mode" });
const giverOwner = { kind: "PolicyRuleModes", name: "giver" };
const modeOf = (path: string) => rules().find((r) => r.path === path)?.policyMode;

/** Whether `wait` resolves before `guardMs`: a wait that ends only at the 30 s deadline does not. */
const endsWithin = async (wait: Promise<unknown>, guardMs: number) => {
  let guard: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    wait.then(() => "ended"),
    new Promise<string>((resolve) => (guard = setTimeout(() => resolve("still waiting"), guardMs))),
  ]);
  clearTimeout(guard);
  return outcome;
};

describe.each(FRONT_ENDS)("%s front end", (frontEnd) => {
  const modes = provider("PolicyRuleModes", frontEnd);
  const single = provider("PolicyRuleMode", frontEnd);
  const base = { deploymentId: "1", policyId: SAST_POLICY_ID };

  /**
   * A giver that set `count` rules in one run and drops them in the next, beside a taker (no
   * dependsOn) that declares them at MODE_MONITOR, and `extra` rules too: both checked, the
   * giver's diff done (its offers made), as the engine leaves them before their writes.
   */
  async function handOver(count: number, extra: string[] = []) {
    inStackWithHistory();
    const paths = rules()
      .slice(0, count)
      .map((r) => r.path);
    const before = paths.map(modeOf);
    const { id, outs } = await modes.create(
      await checked(modes, { ...base, modes: Object.fromEntries(paths.map((p) => [p, "MODE_COMMENT"])), resourceName: "giver" }),
    );
    forgetProcessMemory();
    inStackWithHistory();
    const giverNow = await checked(modes, { ...base, modes: { [rules()[60]!.path]: "MODE_COMMENT" }, resourceName: "giver" });
    const taker = await checked(modes, {
      ...base,
      modes: Object.fromEntries([...paths, ...extra].map((p) => [p, "MODE_MONITOR"])),
      resourceName: "taker",
    });
    expect((await modes.diff(outs, giverNow, id)).changes).toBe(true);
    return { paths, before, taker, update: () => modes.update(id, outs, giverNow), read: () => modes.read(id, outs) };
  }

  it("settles a resource's claims after its create and its unchanged diff, with what it recorded", async () => {
    const path = rules()[0]!.path;
    const found = rules()[0]!.policyMode;
    const other = found === "MODE_BLOCK" ? "MODE_COMMENT" : "MODE_BLOCK";
    const inputs = await checked(single, { ...base, rulePath: path, mode: other, resourceName: "one" });
    expect(holderOf(ruleClaim(path))).toBeUndefined(); // checked, not yet held
    const { outs } = await single.create(inputs);
    expect(holderOf(ruleClaim(path))).toMatchObject({ settled: "created", recorded: found });
    expect(outs.originalMode).toBe(found);
    const again = await checked(single, { ...base, rulePath: path, mode: other, resourceName: "one" });
    expect(holderOf(ruleClaim(path))?.settled).toBeUndefined(); // checked again: a new claim
    expect((await single.diff(outs, again)).changes).toBe(false);
    expect(holderOf(ruleClaim(path))?.settled).toBe("unchanged");
  });

  it("marks failed a resource whose create fails, so a giver handing it 50 rules does not wait for it", async () => {
    // The taker also declares a rule the policy does not have: its create fails before any write.
    const { paths, before, taker, update } = await handOver(50, ["no.such.rule"]);
    const updating = update();
    await expect(modes.create(taker)).rejects.toThrow(/no\.such\.rule/);
    expect(await endsWithin(updating, 10_000)).toBe("ended");
    // The taker holds nothing: the giver put its 50 originals back.
    expect(paths.map(modeOf)).toEqual(before);
    expect(holderOf(ruleClaim(paths[0]!))).toBeUndefined();
  });

  it("wakes a giver when a taker that declared again while it waited settles (its claims replaced)", async () => {
    const { paths, taker, update } = await handOver(5);
    const updating = update();
    await new Promise((resolve) => setTimeout(resolve, 300)); // the giver waits for the taker now
    await modes.create(taker); // its write declares its rules again, replacing the claims the giver saw
    expect(await endsWithin(updating, 10_000)).toBe("ended");
    expect(paths.map(modeOf)).toEqual(paths.map(() => "MODE_MONITOR")); // left to the taker
  });

  it("leaves to a taker whose create partly landed the rules it wrote", async () => {
    // Removed from the policy after the listing: the taker's write of it fails (404) after the others landed.
    const doomed = rules()
      .slice(6)
      .find((r) => r.policyMode !== "MODE_MONITOR")!.path;
    const { paths, taker, update, read } = await handOver(5, [doomed]);
    await read(); // the phase's one listing of the policy, before the rule goes
    const policy = env.emulator.state().policies.find((p) => p.id === SAST_POLICY_ID)!;
    policy.rules = policy.rules.filter((r) => r.path !== doomed);
    await expect(modes.create(taker)).rejects.toThrow(/landed/);
    expect(paths.map(modeOf)).toEqual(paths.map(() => "MODE_MONITOR"));
    await update();
    expect(paths.map(modeOf)).toEqual(paths.map(() => "MODE_MONITOR")); // the giver did not undo the taker's writes
  });

  it("a delete that leaves a field it managed without an original to a holder found unchanged writes the holder's value back", async () => {
    // `up --skip-preview` checked "ps-2" before "ps-1": "ps-2" made the project follow its default
    // branch (recording no original: the branch was the default one), "ps-1" was refused. The next
    // run drops "ps-2": "ps-1" is unchanged from its state, so the delete must put its branch back.
    const settings = provider("ProjectSettings", frontEnd);
    const web = { deploymentSlug: "acme", projectName: "acme/web-app" };
    const branch = () => env.emulator.state().projects.find((p) => p.name === "acme/web-app")!.primaryBranch;
    const one = await settings.create(await checked(settings, { ...web, primaryBranch: "main", resourceName: "ps-1" }));
    forgetProcessMemory();
    inStackWithHistory();
    const two = await settings.create(await checked(settings, { ...web, primaryBranch: "None", resourceName: "ps-2" }));
    expect((await settings.check({ ...web, primaryBranch: "main", resourceName: "ps-1" }, one.outs)).failures).toHaveLength(1);
    expect(branch()).toBeNull();
    forgetProcessMemory();
    inStackWithHistory();
    const again = await checked(settings, { ...web, primaryBranch: "main", resourceName: "ps-1" });
    expect((await settings.diff(one.outs, again, one.id)).changes).toBe(false);
    await settings.delete(two.id, two.outs);
    expect(branch()).toBe("refs/heads/main");
  });

  it("marks failed a resource whose check is refused (a conflict): nobody waits for it", async () => {
    const path = rules()[1]!.path;
    await checked(single, { ...base, rulePath: path, mode: "MODE_BLOCK", resourceName: "first" });
    const refused = await single.check({ ...base, rulePath: path, mode: "MODE_MONITOR", resourceName: "second" });
    expect(refused.failures).toHaveLength(1);
    const waiting = othersSettled([ruleClaim(path)], { kind: "PolicyRuleMode", name: "first" }, Date.now() + 30_000);
    expect(await endsWithin(waiting, 5_000)).toBe("ended");
  });
});

it("waits for others until one deadline for all the claims of a call, not one per claim", async () => {
  const paths = rules()
    .slice(0, 50)
    .map((r) => r.path);
  // A taker checked but never created: a step that never ends.
  await checked(provider("PolicyRuleModes"), {
    deploymentId: "1",
    policyId: SAST_POLICY_ID,
    modes: Object.fromEntries(paths.map((p) => [p, "MODE_MONITOR"])),
    resourceName: "stuck",
  });
  // 50 claims under the call's one deadline of 300 ms: one wait, over well before 50 waits of 300 ms would be.
  const wait = withCallDeadline(() => othersSettled(paths.map(ruleClaim), giverOwner), 300);
  expect(await endsWithin(wait, 5_000)).toBe("ended");
  expect(holderOf(ruleClaim(paths[0]!))).toBeUndefined();
});

describe.each(FRONT_ENDS)("secrecy travels with the claim, %s front end", (frontEnd) => {
  const modes = provider("PolicyRuleModes", frontEnd);

  it("a selector refused beside a secret `modes` names no rule of it, and the API's own words stay readable", async () => {
    const high = rules().find((r) => r.severity === "SEVERITY_HIGH")!.path;
    const base = { deploymentId: "1", policyId: SAST_POLICY_ID };
    await checked(modes, { ...base, modes: { [high]: "MODE_BLOCK" }, secretInputs: ["modes"], resourceName: "secret-modes" });
    const { failures } = await modes.check({
      ...base,
      select: { severities: ["SEVERITY_HIGH"] },
      mode: "MODE_COMMENT",
      resourceName: "select",
    });
    const reasons = failures!.map((f) => f.reason).join("\n");
    expect(reasons).toContain('which PolicyRuleModes "secret-modes" declares too');
    expect(reasons).not.toContain(high);
    expect(reasons).toContain("[secret]");
  });
});
