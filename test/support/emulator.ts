/** Test helpers: an emulator per test file and a client pointed at it, or fresh emulators per test. */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { SemgrepClient, type ClientOptions } from "../../provider/client";
import {
  type EmulatorOptions,
  type EmulatorState,
  type RequestLogEntry,
  type RunningEmulator,
  SAST_POLICY_ID,
  startEmulator,
} from "../../provider/emulator";
import { snapshotOf as snapshot, withoutAuditFields as auditFieldsAside } from "../tools/emulator-state.mjs";

export interface EmulatorFixture {
  emulator: RunningEmulator;
  /** A client with fast retries, pointed at the emulator. */
  client(options?: ClientOptions): SemgrepClient;
  /** API requests logged since the last reset, optionally only those of one operation. */
  requests(operation?: string): RequestLogEntry[];
}

/**
 * Starts one emulator for the file and resets it (state, request log, faults) before each test,
 * unless `resetEachTest` is false.
 * Clients made with `client()` are closed after the file.
 */
export function useEmulator(options: EmulatorOptions & { resetEachTest?: boolean } = {}): EmulatorFixture {
  const clients: SemgrepClient[] = [];
  const fixture = {} as EmulatorFixture;
  beforeAll(async () => {
    fixture.emulator = await startEmulator({ retryAfterSeconds: 0, ...options });
  });
  beforeEach(() => {
    if (options.resetEachTest === false) return;
    fixture.emulator.reset(options.preset);
    fixture.emulator.setFaults({
      faultRate: options.faultRate ?? 0,
      latencyMs: options.latencyMs ?? 0,
      slowFromFirstWrite: false,
      retryAfterSeconds: 0,
      kinds: options.faultKinds ?? ["429", "503", "drop"],
      operations: [],
      maxFaults: null,
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await fixture.emulator?.close();
  });
  fixture.client = (clientOptions = {}) => {
    const client = new SemgrepClient({
      baseUrl: fixture.emulator.url,
      token: fixture.emulator.token,
      retryBaseDelayMs: 5,
      maxRetryDelayMs: 50,
      env: {},
      ...clientOptions,
    });
    clients.push(client);
    return client;
  };
  fixture.requests = (operation) => fixture.emulator.requests().filter((r) => operation === undefined || r.operation === operation);
  return fixture;
}

/**
 * Fresh emulators for each test, for files whose tests need their own (a preset, a data file,
 * `policiesV2`), several at once, or one stopped mid-test: `start(options)` starts one with
 * `defaults` under `options`, and every one started is closed after its test. Closing one twice
 * closes it once, so a test may stop one early (a second close would write its data file again).
 */
export function useEmulators(defaults: EmulatorOptions = {}): { start(options?: EmulatorOptions): Promise<RunningEmulator> } {
  let started: RunningEmulator[] = [];
  afterEach(async () => {
    await Promise.all(started.map((e) => e.close()));
    started = [];
  });
  return {
    async start(options = {}) {
      const emulator = await startEmulator({ ...defaults, ...options });
      const close = emulator.close.bind(emulator);
      let closing: Promise<void> | undefined;
      emulator.close = () => (closing ??= close());
      started.push(emulator);
      return emulator;
    },
  };
}

/**
 * The demo's SAST policy as e2e tests watch it: its rules (live objects, which a test may set
 * before the stack's first `up`), their modes by path, and the writes since a mark in the log.
 */
export function sastPolicyOf(emulator: RunningEmulator) {
  const rules = () => emulator.state().policies.find((p) => p.id === SAST_POLICY_ID)!.rules;
  const modes = () => Object.fromEntries(rules().map((r) => [r.path, r.policyMode]));
  const writesSince = (mark: number) =>
    emulator
      .requests()
      .slice(mark)
      .filter((r) => r.method !== "GET");
  return { rules, modes, writesSince };
}

/**
 * The writes an emulator logged since `mark`, as `operation status`, in order: every request but
 * GETs and the Policies V2 dry runs, which change nothing.
 */
export const writesSince = (emulator: RunningEmulator, mark: number): string[] =>
  emulator
    .requests()
    .slice(mark)
    .filter((r) => r.method !== "GET" && !r.operation?.includes(".dryRun"))
    .map((r) => `${r.operation} ${r.status}`);

/** The emulator's whole state, as JSON (a copy: the emulator keeps changing its own). */
export const snapshotOf = (emulator: RunningEmulator): EmulatorState => snapshot(emulator) as EmulatorState;

/**
 * Rules set and put back keep the time and author of their last change: `after`'s are made
 * `before`'s, so that a test compares the rest of two snapshots whole (their modes are compared).
 */
export const withoutAuditFields: (after: EmulatorState, before: EmulatorState) => void = auditFieldsAside;
