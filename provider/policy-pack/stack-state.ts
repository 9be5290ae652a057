/**
 * The stack's last state as the policies see it. The engine gives an analyzer only the resources
 * of the new program: never the ones the run deletes, nor the originals their deletes (or a
 * narrowed selector) put back. Those are in the stack's last checkpoint, which the pack reads with
 * `pulumi stack export` (the CLI on PATH; the analyzer inherits the engine's environment:
 * PULUMI_BACKEND_URL, PULUMI_ACCESS_TOKEN, …). The stack's name comes from the engine's
 * ConfigureStack call (stack, project, organization), which `@pulumi/policy` receives but does
 * not pass on: the pack listens to it on the gRPC server `@pulumi/policy` starts, and reads the
 * state before answering, so that the state is the one from before the run's first step.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import type { ResourceKind } from "../core/kinds";
import { describe, kindOf } from "./resources";
import { markingSecrets } from "./secret-marks";

/** A resource of the checkpoint, as `pulumi stack export` prints it (secret values stay ciphertext). */
export interface StateResource {
  urn: string;
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The state's resources, or why they could not be read (the policies then fail closed). */
export type StackState = { resources: StateResource[] } | { error: string };

/** The stack the engine runs, as its ConfigureStack call (or, for older engines, the environment) names it. */
export interface StackName {
  organization?: string;
  /** With the organization: without it, `<project>/<stack>` would read as `<organization>/<stack>`. */
  project?: string;
  stack: string;
}

/** The marker of a secret value in exported state (its ciphertext stays unreadable). */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** Whether `value` is a secret of the exported state (ciphertext): the pack cannot read it. */
export const isSecretValue = (value: unknown): boolean =>
  typeof value === "object" && value !== null && SECRET_SIG in (value as Record<string, unknown>);

let current: Promise<StackState> | undefined;

/** The state the policies check against: read once per run (one analyzer process per run). */
export function stackState(): Promise<StackState> {
  current ??= Promise.resolve(fromEnvironment());
  return current;
}

/** The resource of the stack's last state under `urn`; undefined when the state holds none or could not be read. */
export async function stateOf(urn: string): Promise<StateResource | undefined> {
  const state = await stackState();
  return "error" in state ? undefined : state.resources.find((r) => r.urn === urn);
}

/**
 * The resources of `kind` in the stack's last state that the new program (a stack validation's
 * `resources`) no longer holds, under their URN or an alias (a resource the program keeps under a
 * new URN, moved to the native plugin's type, is not removed); or why the state could not be read.
 * The engine never shows a policy the resources a run deletes: this is where their deletes are judged.
 */
export async function removedFromProgram(
  program: ReadonlyArray<{ urn: string; opts?: { aliases?: readonly string[] } }>,
  kind: ResourceKind,
): Promise<StateResource[] | { error: string }> {
  const state = await stackState();
  if ("error" in state) return state;
  const remaining = new Set(program.flatMap((r) => [r.urn, ...(r.opts?.aliases ?? [])]));
  return state.resources.filter((r) => kindOf(r.type) === kind && !remaining.has(r.urn));
}

/** `DetectionPolicy "code"`: a resource of the state as violations name it (its type, and the last part of its URN). */
export const stateResourceName = (resource: { type: string; urn: string }) =>
  describe(resource.type, resource.urn.split("::").at(-1) ?? resource.urn);

/** Tests (and the unit emulation of a run) set the state the policies see. */
export function setStackState(state: StackState | undefined): void {
  current = state && Promise.resolve(state);
}

/** Engines that launch a pack through `pulumi-analyzer-policy-nodejs` pass the stack in the environment instead. */
function fromEnvironment(env = process.env): Promise<StackState> | StackState {
  const stack = env.PULUMI_STACK ?? env.PULUMI_NODEJS_STACK;
  const project = env.PULUMI_PROJECT ?? env.PULUMI_NODEJS_PROJECT;
  if (!stack || !project) {
    return {
      error:
        "the engine did not name the stack (no ConfigureStack call, no PULUMI_STACK): run the pack with a Pulumi CLI of v3.100 or later",
    };
  }
  return exportState({ stack, project, organization: env.PULUMI_ORGANIZATION ?? env.PULUMI_NODEJS_ORGANIZATION });
}

/** `pulumi stack export` of `name`, run from `cwd` (the program's directory, for a backend its Pulumi.yaml names). */
export function exportState(name: StackName, cwd = process.cwd()): Promise<StackState> {
  const qualified = name.organization && name.project ? `${name.organization}/${name.project}/${name.stack}` : name.stack;
  return new Promise((resolve) => {
    execFile(
      "pulumi",
      ["stack", "export", "--stack", qualified, "--non-interactive"],
      { cwd, maxBuffer: 1 << 30, timeout: 120_000 },
      (error, stdout, stderr) => {
        if (error) {
          const why = (stderr || error.message).trim().split("\n").filter(Boolean).at(-1) ?? error.message;
          return resolve({ error: `\`pulumi stack export --stack ${qualified}\` failed: ${why}` });
        }
        try {
          const parsed = JSON.parse(stdout) as { deployment?: { resources?: StateResource[] } };
          resolve({ resources: parsed.deployment?.resources ?? [] });
        } catch (e) {
          resolve({ error: `\`pulumi stack export --stack ${qualified}\` printed no state: ${(e as Error).message}` });
        }
      },
    );
  });
}

interface ConfigureCall {
  request: { getStack(): string; getProject(): string; getOrganization(): string };
}
type Handler = (call: ConfigureCall, callback: (...args: unknown[]) => void) => void;

/**
 * Listens to the engine's ConfigureStack call on the gRPC server `@pulumi/policy` is about to start
 * (call before `new PolicyPack`): reads the named stack's state, then lets `@pulumi/policy` answer.
 * On the same server, the analyze calls first note which inputs the engine marks secret.
 * `cwd` is where `pulumi stack export` runs (the program's directory, as the engine started the pack).
 */
export function listenForStack(cwd: string): void {
  // The gRPC library `@pulumi/policy` itself loads (its copy, wherever npm put it).
  const grpc = createRequire(require.resolve("@pulumi/policy"))("@grpc/grpc-js") as {
    Server: { prototype: { addService(service: unknown, impl: Record<string, Handler>): void } };
  };
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (service, given) {
    let impl = markingSecrets(given); // the engine's secret marks, which @pulumi/policy drops (secret-marks.ts)
    const configure = impl.configureStack;
    if (configure) {
      impl = {
        ...impl,
        configureStack: (call, callback) => {
          const request = call.request;
          const name = { organization: request.getOrganization(), project: request.getProject(), stack: request.getStack() };
          current = exportState(name, cwd);
          void current.then(() => configure(call, callback));
        },
      };
    }
    return addService.call(this, service, impl);
  };
}
