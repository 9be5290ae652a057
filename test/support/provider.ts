/**
 * Calling the resources' provider methods in this process, as the engine does through either
 * front end (the dynamic-provider host's `run`, or the native plugin's gRPC server: see
 * test/support/native.ts), against the emulator of a `useEmulator` fixture.
 */
import { afterAll, beforeAll, beforeEach } from "vitest";
import { run } from "../../provider/core/runtime/dispatch";
import { setNoticeSink, type Severity } from "../../provider/core/runtime/notices";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { noteCall } from "../../provider/core/runtime/owned";
import type { ResourceKind } from "../../provider/dynamic/shims/shim";
import type { EmulatorFixture } from "./emulator";
import { closeNativeServer, nativeProvider } from "./native";

type Props = Record<string, unknown>;

export interface ProviderCalls {
  check(news: Props, olds?: Props): Promise<{ inputs: Props; failures?: Array<{ property: string; reason: string }> }>;
  diff(
    olds: Props,
    news: Props,
    id?: string,
  ): Promise<{ changes?: boolean; replaces?: string[]; diffs?: string[]; detailedDiff?: Record<string, number> }>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, props: Props): Promise<{ id?: string; props?: Props; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, props: Props): Promise<void>;
}

/** The two front ends over the same handlers: the dynamic provider's host, and the native plugin. */
export type FrontEnd = "dynamic" | "native";
export const FRONT_ENDS: FrontEnd[] = ["dynamic", "native"];

/**
 * Where the front ends differ in what a step can expect, said once here rather than by forking a
 * table's steps.
 */
export const FRONT_END_TRAITS: Record<FrontEnd, { metaInState: boolean; parentNames: boolean }> = {
  /**
   * `metaInState`: the dynamic state holds the meta inputs (`resourceName`, `secretInputs`), so a
   * state written before they existed shows as such; the native state never holds them (the engine
   * gives the context with every call).
   * `parentNames`: the dynamic classes pass their parent's URN, name included; the engine gives a
   * native provider only the URN of the resource itself, whose type chain names the parent's type.
   */
  dynamic: { metaInState: true, parentNames: true },
  native: { metaInState: false, parentNames: false },
};

/** The provider methods of one resource kind, as the engine would call them through `frontEnd`. */
export function provider(kind: ResourceKind, frontEnd: FrontEnd = "dynamic"): ProviderCalls {
  if (frontEnd === "native") return nativeProvider(kind);
  const call = (method: string, args: unknown[]) => run(kind, method as never, args) as Promise<never>;
  return {
    check: (news, olds = {}) => call("check", [olds, news]),
    diff: (olds, news, id = "id") => call("diff", [id, olds, news]),
    create: (inputs) => call("create", [inputs]),
    read: (id, props) => call("read", [id, props]),
    update: (id, olds, news) => call("update", [id, olds, news]),
    delete: (id, props) => call("delete", [id, props]),
  };
}

/** The messages the provider sent to the person running `pulumi` since the test began. */
export const notices: Array<{ severity: Severity; message: string }> = [];

/**
 * Points the provider process's credentials (the environment) at the fixture's emulator, starts
 * each test as a new provider process would, and collects its messages in {@link notices}.
 */
export function useProviderAgainst(env: EmulatorFixture): void {
  beforeAll(() => {
    process.env.SEMGREP_APP_URL = env.emulator.url;
    process.env.SEMGREP_APP_TOKEN = env.emulator.token;
  });
  afterAll(closeNativeServer);
  beforeEach(() => {
    forgetProcessMemory();
    notices.length = 0;
    setNoticeSink(async (severity, message) => {
      notices.push({ severity, message });
    });
  });
}

/** Checks inputs as the engine does before create/update, failing the test on any failure. */
export async function checked(calls: ProviderCalls, news: Props): Promise<Props> {
  const result = await calls.check(news);
  if (result.failures?.length) throw new Error(`check failed: ${JSON.stringify(result.failures)}`);
  return result.inputs;
}

/**
 * As when the run has met a resource of the stack with state from an earlier run (another
 * resource's diff): the stack has a history, and a create that finds its value already as
 * declared says so (owned.ts noteFoundAsDeclared); in a stack's first `up` it says nothing.
 */
export const inStackWithHistory = () => void noteCall("diff", undefined);
