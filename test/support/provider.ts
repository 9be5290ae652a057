/**
 * Calling the resources' provider methods in this process, as the dynamic-provider host does,
 * against the emulator of a `useEmulator` fixture.
 */
import { beforeAll, beforeEach } from "vitest";
import { run } from "../../provider/core/runtime/dispatch";
import { setNoticeSink, type Severity } from "../../provider/core/runtime/notices";
import { forgetProcessMemory } from "../../provider/core/runtime/process-memory";
import { noteCall } from "../../provider/core/runtime/owned";
import type { ResourceKind } from "../../provider/dynamic/shims/shim";
import type { EmulatorFixture } from "./emulator";

type Props = Record<string, unknown>;

export interface ProviderCalls {
  check(news: Props, olds?: Props): Promise<{ inputs: Props; failures?: Array<{ property: string; reason: string }> }>;
  diff(olds: Props, news: Props, id?: string): Promise<{ changes?: boolean; replaces?: string[] }>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, props: Props): Promise<{ id?: string; props?: Props; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, props: Props): Promise<void>;
}

/** The provider methods of one resource kind, as the engine would call them. */
export function provider(kind: ResourceKind): ProviderCalls {
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
