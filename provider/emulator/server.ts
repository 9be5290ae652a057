/**
 * The emulator's HTTP server: bearer auth, injected faults and latency, the request log, the
 * admin endpoints under `/_emulator/`, and dispatch to the API operations in `api.ts`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { DETECTION_PRODUCTS, type DetectionProduct } from "../client/schemas/enums";
import { type ApiRequest, DeploymentMigrated, DeploymentNotMigrated, HttpError, type Route, routes as v1Routes } from "./api";
import {
  chooseFault,
  DEFAULT_FAULT_KINDS,
  type FaultKind,
  faultRandom,
  type FaultSettings,
  isWriteRequest,
  validateFaultSettings,
} from "./faults";
import { type EmulatorState, type PresetName, PRESETS, STATE_PARTS } from "./model";
import { errorFields, policiesV2Routes } from "./policies-v2";
import { notificationRulesRoutes } from "./notification-rules";
import { productsRoutes } from "./products";
import { buildPreset } from "./presets";
import { scaleProjects } from "./scale";
import { withoutEmptyFields } from "./render";
import { loadState, StateWriter } from "./store";
import { usersRoutes } from "./users";
import { teamsRoutes } from "./teams";

export const DEFAULT_TOKEN = "emulator-token";
const MAX_BODY_BYTES = 1 << 20;
/**
 * Longest request target (path and query) answered: longer ones get 414, as the proxies in front
 * of web services answer (nginx's default buffer is 8 KiB). Node's own header limit is raised
 * well above it so that such requests reach the log instead of being cut off by the parser.
 */
export const MAX_REQUEST_TARGET = 8_192;
/** Every operation the emulator serves: the v1 API's and the Policies V2 API's. */
export const routes: readonly Route[] = [
  ...v1Routes,
  ...policiesV2Routes,
  ...usersRoutes,
  ...teamsRoutes,
  ...productsRoutes,
  ...notificationRulesRoutes,
];
/** The operation names the emulator serves (`policies.list`, ...), as fault settings name them. */
const OPERATIONS = [...new Set(routes.map((r) => r.operation))];

export interface EmulatorOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to listen on; default 127.0.0.1. */
  host?: string;
  /** A bearer token accepted; default `emulator-token` (unless `tokens` names others). */
  token?: string;
  /**
   * More bearer tokens accepted beside `token`, each valid for every request and the same
   * deployments (as when a token is rotated: the old and the new one both work).
   */
  tokens?: string[];
  /** State file: loaded at start when it exists, and every change is written there atomically. */
  dataFile?: string;
  /** Sample data to start from (when there is no data file yet); default `demo`. */
  preset?: PresetName;
  /**
   * The preset's projects repeated to this many (copy `k` of `acme/web-app` is `acme/web-app-k`:
   * the `large` preset's 300 ten times over for 3,000), to try a deployment at scale; a reset
   * keeps the count. Default: the preset's own projects.
   */
  projects?: number;
  /** Share of API requests answered with a transient fault (429 with Retry-After, 503, dropped connection). */
  faultRate?: number;
  /** Delay before every API answer, in ms. */
  latencyMs?: number;
  /** `Retry-After` sent with an injected 429, in seconds; default 1. */
  retryAfterSeconds?: number;
  /** Which faults to inject; default 429, 503 and drop. */
  faultKinds?: FaultKind[];
  /** Seed of the fault sequence, to replay one exactly. */
  seed?: number;
  /**
   * Answer as protobuf's JSON mapping does by default: fields at their default value (false, 0,
   * "", an empty list, null) are left out, except those the OpenAPI marks required.
   */
  omitEmpty?: boolean;
  /**
   * Which policy API the deployment has. A deployment has one of the two, as on the live service:
   * - `false` (the default): it still uses v1 policies, and every Policies V2 operation answers
   *   `403` with the error code `DEPLOYMENT_NOT_MIGRATED`;
   * - `true`: it is migrated to Semgrep's unified policies, and every v1 policy operation answers
   *   `410 Gone` with the error code `DEPLOYMENT_MIGRATED`;
   * - `"both"`: both APIs answer, as no live deployment does; for tests that hold the v1 and the
   *   Policies V2 kinds in one stack.
   */
  policiesV2?: boolean | "both";
  /**
   * The products whose detection policy the deployment has (Policies V2); default `code` and
   * `secrets`. The others answer 404 `PRODUCT_NOT_ENABLED` and are left out of the summary.
   */
  detectionProducts?: DetectionProduct[];
  /**
   * Policies V2 dry runs answer in the other form the live service may use: an invalid bundle is
   * refused as its apply would be (`400`, or `409 RESERVED_SLUG`, with the first problem's code
   * and fields, without `validation_errors`) instead of `200` with `validation_errors`, and a
   * clean dry run leaves out `state_version`.
   */
  dryRunRefusals?: boolean;
  /**
   * `false`: the emulator serves none of the operations Semgrep's OpenAPI marks experimental
   * (they answer 404, as a service without them would); default `true`.
   */
  experimentalEndpoints?: boolean;
  /**
   * Operations (`users.current`, ...) this emulator answers 404, as a service that does not serve
   * them would (finer than {@link experimentalEndpoints}: the rest stay served).
   */
  absentOperations?: readonly string[];
}

/** One line of the request log. Never holds a header value or the token. */
export interface RequestLogEntry {
  method: string;
  /** Path as sent, without the query string. */
  path: string;
  /** Status answered; 0 for a dropped connection. */
  status: number;
  /** The API operation, when the path named one. */
  operation?: string;
  /** The fault injected instead of an answer, if any. */
  fault?: FaultKind;
  /** Time the request arrived (ISO 8601). */
  at: string;
  durationMs: number;
}

export interface RunningEmulator {
  /** `http://HOST:PORT` */
  readonly url: string;
  readonly port: number;
  /** The first accepted token (`token`, else the first of `tokens`). */
  readonly token: string;
  /** Every accepted token, `token` first. */
  readonly tokens: readonly string[];
  /** The request log, oldest first. */
  requests(): RequestLogEntry[];
  /** The current state (a live object: read it, do not change it). */
  state(): EmulatorState;
  /** Back to the preset's state, with an empty request log. */
  reset(preset?: PresetName): void;
  setFaults(settings: Partial<FaultSettings>): FaultSettings;
  close(): Promise<void>;
}

/**
 * The tokens accepted: `token` then `tokens`, without repeats; `emulator-token` when neither names
 * one. An empty token would accept `Bearer ` and is refused.
 */
function acceptedTokens(options: EmulatorOptions): string[] {
  const named = [...(options.token === undefined ? [] : [options.token]), ...(options.tokens ?? [])];
  if (named.some((t) => t === "")) throw new Error("an accepted token cannot be empty");
  return named.length > 0 ? [...new Set(named)] : [DEFAULT_TOKEN];
}

/**
 * Starts the emulator and resolves once it listens.
 *
 * @example
 * ```ts
 * import { startEmulator } from "pulumi-semgrep/emulator";
 * const emulator = await startEmulator({ preset: "demo" });
 * process.env.SEMGREP_APP_URL = emulator.url;
 * process.env.SEMGREP_APP_TOKEN = emulator.token;
 * // ... run the client or a Pulumi program against it ...
 * await emulator.close();
 * ```
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const tokens = acceptedTokens(options);
  const accepted = new Set(tokens.map((t) => `Bearer ${t}`));
  let preset: PresetName = options.preset ?? "demo";
  if (!PRESETS.includes(preset)) throw new Error(`unknown preset ${preset}: use one of ${PRESETS.join(", ")}`);
  const faults: FaultSettings = {
    faultRate: options.faultRate ?? 0,
    latencyMs: options.latencyMs ?? 0,
    slowFromFirstWrite: false,
    retryAfterSeconds: options.retryAfterSeconds ?? 1,
    kinds: [...(options.faultKinds ?? DEFAULT_FAULT_KINDS)],
    operations: [],
    maxFaults: null,
  };
  const problem = validateFaultSettings(faults, OPERATIONS);
  if (problem) throw new Error(problem);
  const detectionProducts = [...(options.detectionProducts ?? DETECTION_PRODUCTS)];
  const stray = detectionProducts.find((p) => !DETECTION_PRODUCTS.includes(p));
  if (stray !== undefined) throw new Error(`unknown product ${String(stray)}: detectionProducts take ${DETECTION_PRODUCTS.join(", ")}`);
  const absent = new Set(options.absentOperations ?? []);
  const unknownOperation = [...absent].find((o) => !OPERATIONS.includes(o));
  if (unknownOperation !== undefined)
    throw new Error(`unknown operation ${unknownOperation}: absentOperations take ${OPERATIONS.join(", ")}`);
  const random = faultRandom(options.seed);

  // One clock for the preset data (running scans are placed just before it), so resets give identical state.
  const presetClock = Date.now();
  const projectCount = options.projects;
  if (projectCount !== undefined && (!Number.isInteger(projectCount) || projectCount < 1))
    throw new Error(`projects must be a whole number of 1 or more, not ${projectCount}`);
  const initialState = (name: PresetName): EmulatorState => {
    const built = buildPreset(name, presetClock);
    return projectCount === undefined ? built : scaleProjects(built, projectCount);
  };
  let state: EmulatorState = (options.dataFile && loadState(options.dataFile)) || initialState(preset);
  // A state file written before a part of the state existed (Policies V2, users, teams, ...) gets the preset's.
  const missing = (Object.keys(STATE_PARTS) as Array<keyof EmulatorState>).filter((part) => state[part] == null);
  if (missing.length) {
    const fresh = buildPreset(preset, presetClock);
    state = { ...state, ...Object.fromEntries(missing.map((part) => [part, fresh[part]])) };
  }
  const writer = new StateWriter(options.dataFile, () => state);
  writer.flush();
  let log: RequestLogEntry[] = [];
  let baseUrl = "";
  /** A write arrived since slowFromFirstWrite was set (the latency applies from it on). */
  let wroteSinceSlowed = false;

  const server = createServer({ maxHeaderSize: 1 << 20 }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: `emulator failure: ${error instanceof Error ? error.message : String(error)}` });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://emulator");
    const method = req.method ?? "GET";
    if (url.pathname.startsWith("/_emulator/")) return handleAdmin(method, url, req, res);

    const started = Date.now();
    const entry: RequestLogEntry = { method, path: url.pathname, status: 0, at: new Date(started).toISOString(), durationMs: 0 };
    log.push(entry);
    let lost = false;
    const finish = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      entry.status = status;
      entry.durationMs = Date.now() - started;
      if (lost)
        req.socket.destroy(); // handled, but the answer never arrives
      else sendJson(res, status, body, headers);
    };

    const route = routes.find((r) => r.pattern.test(url.pathname) && r.method === method);
    entry.operation = route?.operation;
    const targetLength = (req.url ?? "").length;
    if (targetLength > MAX_REQUEST_TARGET)
      return finish(414, { error: `request URI too long (${targetLength} bytes; at most ${MAX_REQUEST_TARGET})` });
    if (isWriteRequest(entry)) wroteSinceSlowed = true;
    if (faults.latencyMs > 0 && (!faults.slowFromFirstWrite || wroteSinceSlowed)) await sleep(faults.latencyMs);
    const fault = chooseFault(faults, random, route?.operation, route?.concurrentWrite !== undefined);
    if (fault === "lost" || fault === "concurrent-write") {
      entry.fault = fault;
      lost = fault === "lost";
    } else if (fault) {
      entry.fault = fault;
      entry.durationMs = Date.now() - started;
      if (fault === "drop") {
        req.socket.destroy();
        return;
      }
      if (fault === "429") return finish(429, { error: "Too many requests" }, { "retry-after": String(faults.retryAfterSeconds) });
      // A proxy's 503 is an HTML page, not the service's JSON.
      entry.status = 503;
      res.writeHead(503, { "content-type": "text/html" }).end("<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>");
      return;
    }

    if (req.headers.authorization === undefined || !accepted.has(req.headers.authorization)) {
      return finish(401, { error: "Unauthorized: a valid API token is required (Authorization: Bearer <token>)" });
    }

    if ((route?.stability === "experimental" && options.experimentalEndpoints === false) || (route && absent.has(route.operation)))
      return finish(404, { error: "not found" });
    if (!route) {
      const known = routes.some((r) => r.pattern.test(url.pathname));
      return finish(known ? 405 : 404, { error: known ? `method ${method} not allowed here` : "not found" });
    }

    let body: unknown;
    try {
      body = await readJson(req);
    } catch (error) {
      return finish(error instanceof HttpError ? error.status : 400, { error: (error as Error).message });
    }
    const groups = route.pattern.exec(url.pathname)?.groups ?? {};
    const params = Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, decodeURIComponent(v)]));
    const apiRequest: ApiRequest = {
      state,
      params,
      query: url.searchParams,
      body,
      headers: req.headers,
      detectionProducts,
      dryRunRefusals: options.dryRunRefusals === true,
      baseUrl,
      now: Date.now(),
      changed: () => writer.schedule(),
    };
    try {
      refuseOtherPolicyApi(route, options.policiesV2 ?? false);
      if (fault === "concurrent-write") route.concurrentWrite?.(apiRequest);
      const answer = route.handle(apiRequest);
      finish(200, options.omitEmpty ? withoutEmptyFields(answer) : answer);
    } catch (error) {
      if (error instanceof HttpError)
        finish(error.status, { error: error.message, ...(error.code ? { code: error.code } : {}), ...errorFields(error) });
      else throw error;
    }
  }

  async function handleAdmin(method: string, url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const route = `${method} ${url.pathname.slice("/_emulator/".length)}`;
    if (route === "GET requests") return sendJson(res, 200, { requests: log });
    if (route === "DELETE requests") {
      log = [];
      return sendJson(res, 200, { requests: log });
    }
    if (route === "GET state") return sendJson(res, 200, state);
    if (route === "POST reset" || route === "POST faults") {
      let body: Record<string, unknown>;
      try {
        body = ((await readJson(req)) ?? {}) as Record<string, unknown>;
      } catch (error) {
        return sendJson(res, 400, { error: (error as Error).message });
      }
      if (route === "POST reset") {
        const wanted = body.preset ?? preset;
        if (!PRESETS.includes(wanted as PresetName)) return sendJson(res, 400, { error: `preset must be one of ${PRESETS.join(", ")}` });
        emulator.reset(wanted as PresetName);
        return sendJson(res, 200, { reset: true, preset });
      }
      const problem = validateFaultSettings(body, OPERATIONS);
      if (problem) return sendJson(res, 400, { error: problem });
      return sendJson(res, 200, emulator.setFaults(body as Partial<FaultSettings>));
    }
    const sbom = /^GET sbom\/([^/]+)\.json$/.exec(route);
    if (sbom) {
      const job = state.sbomExports.find((j) => j.taskToken === sbom[1]);
      if (!job) return sendJson(res, 404, { error: "no such SBOM export" });
      const repo = state.repositories.find((r) => r.id === job.repositoryId);
      return sendJson(res, 200, {
        bomFormat: "CycloneDX",
        specVersion: job.specVersion,
        metadata: { component: { type: "application", name: repo?.name ?? String(job.repositoryId) }, ref: job.ref },
        components: (repo?.lockfiles ?? []).flatMap((l) =>
          l.dependencies.map((d) => ({ type: "library", name: d.name, version: d.version, licenses: [{ license: { id: d.license } }] })),
        ),
      });
    }
    return sendJson(res, 404, { error: `no admin endpoint ${route}` });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  baseUrl = `http://${host}:${address.port}`;

  const emulator: RunningEmulator = {
    url: baseUrl,
    port: address.port,
    token: tokens[0]!,
    tokens,
    requests: () => log,
    state: () => state,
    reset(next = preset) {
      preset = next;
      state = initialState(preset);
      log = [];
      writer.flush();
    },
    setFaults(settings) {
      const problem = validateFaultSettings(settings, OPERATIONS);
      if (problem) throw new Error(problem);
      Object.assign(faults, Object.fromEntries(Object.entries(settings).filter(([k, v]) => v !== undefined && k in faults)));
      if (settings.slowFromFirstWrite) wroteSinceSlowed = false;
      return { ...faults, kinds: [...faults.kinds], operations: [...faults.operations] };
    },
    async close() {
      writer.flush();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return emulator;
}

/**
 * A deployment has one policy API: a v1 policy operation of a migrated deployment answers 410
 * `DEPLOYMENT_MIGRATED`, a Policies V2 operation of one not migrated answers 403
 * `DEPLOYMENT_NOT_MIGRATED` (`"both"` serves both).
 */
function refuseOtherPolicyApi(route: Route, policiesV2: boolean | "both"): void {
  if (policiesV2 === "both") return;
  if (policiesV2 && route.replacedByPoliciesV2) throw new DeploymentMigrated();
  if (!policiesV2 && policiesV2Routes.includes(route)) throw new DeploymentNotMigrated();
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

/** Reads a JSON body; undefined when empty. 400 when malformed, 413 when too large. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, "request body too large");
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "invalid request: the body is not valid JSON");
  }
}
