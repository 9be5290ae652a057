#!/usr/bin/env node
/**
 * `pulumi-semgrep-emulator`: runs the API emulator until SIGTERM/SIGINT.
 * Prints one line holding its address (`http://HOST:PORT`) once it listens.
 */
import { parseArgs } from "node:util";
import { argumentProblem, asksForHelp } from "../cli/arguments";
import { DETECTION_PRODUCTS, type DetectionProduct } from "../client/schemas/enums";
import { type PresetName, PRESETS } from "./model";
import { DEFAULT_TOKEN, startEmulator } from "./server";

const USAGE = `Usage: pulumi-semgrep-emulator [options]

Runs the Semgrep API emulator until SIGTERM or SIGINT; prints one line holding its address
(http://HOST:PORT) once it listens.

  --port N           port to listen on (0 = any free port; default 0)
  --host HOST        address to listen on (default 127.0.0.1)
  --token TOKEN      an accepted bearer token (default ${DEFAULT_TOKEN}); give it more than once
                     to accept several, each valid for every request (to test a token rotation)
  --data FILE        state file: loaded at start if present, every change persisted there
                     (default none: the state lives in memory, from the preset)
  --preset NAME      sample data: ${PRESETS.join(" | ")} (default demo)
  --projects N       the preset's projects repeated to N, copy k of acme/web-app named
                     acme/web-app-k (--preset large --projects 3000: its 300 ten times over);
                     with --data FILE not there yet, the data file is written at start
                     (default: the preset's own projects)
  --fault-rate R     share of requests answered with a transient fault (0 to 1; default 0)
  --latency-ms N     delay before every answer (default 0)
  --seed N           seed of the fault sequence, to replay it (default none: a new sequence each run)
  --omit-empty       leave out of every answer the fields at their default value (false, 0, "",
                     empty lists, null) except those the OpenAPI marks required, as protobuf's
                     JSON mapping does (default off)
  --policies-v2      the deployment is migrated to unified policies: the Policies V2 operations
                     answer, and the v1 policy operations answer 410 Gone with the error code
                     DEPLOYMENT_MIGRATED. Without it the deployment still uses v1 policies, and
                     every Policies V2 operation answers 403 with the error code
                     DEPLOYMENT_NOT_MIGRATED (a deployment has one of the two, as live; default off)
  --detection-products LIST
                     the products with a Policies V2 detection policy, comma-separated
                     (default ${DETECTION_PRODUCTS.join(",")}); the others answer 404 PRODUCT_NOT_ENABLED
  --dry-run-refusals Policies V2 dry runs answer in the live service's other form: an invalid
                     bundle is refused with 400 (409 RESERVED_SLUG) and the first problem's code
                     and fields, as its apply would be, instead of 200 with validation_errors;
                     a clean dry run leaves out state_version (default off)
  --no-experimental-endpoints
                     serve none of the operations Semgrep's OpenAPI marks experimental (product
                     settings, notification rules, deployment users): they answer 404, as a
                     service without them would (default: served)
  -h, --help         this text

Admin endpoints (no token): GET /_emulator/requests (the request log), DELETE /_emulator/requests,
POST /_emulator/reset, GET /_emulator/state, POST /_emulator/faults {"faultRate", "latencyMs", "slowFromFirstWrite",
"retryAfterSeconds", "kinds", "operations", "maxFaults"} with kinds from 429, 503, drop and, only when asked for, lost
(handled, answer never arrives) and concurrent-write (another client's apply lands just before a
Policies V2 apply, which then meets 409 STATE_VERSION_MISMATCH; drawn by the applies only).`;

/** A flag or value it cannot take: one line, status 2, before anything starts. */
function fail(message: string): never {
  process.stderr.write(`pulumi-semgrep-emulator: ${message} (pulumi-semgrep-emulator --help lists the options)\n`);
  process.exit(2);
}

function numberFlag(name: string, raw: string | undefined, check: (n: number) => boolean): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value) || !check(value)) fail(`--${name}: ${JSON.stringify(raw)} is not valid`);
  return value;
}

function productsFlag(raw: string | undefined): DetectionProduct[] | undefined {
  if (raw === undefined) return undefined;
  const products = raw.split(",").map((p) => p.trim());
  const bad = products.find((p) => !(DETECTION_PRODUCTS as readonly string[]).includes(p));
  if (bad !== undefined) fail(`--detection-products: ${JSON.stringify(bad)} is not one of ${DETECTION_PRODUCTS.join(", ")}`);
  return products as DetectionProduct[];
}

/** The command line's flags; a usage error for an unknown flag. */
function readFlags() {
  try {
    return parseArgs({
      options: {
        port: { type: "string" },
        host: { type: "string" },
        token: { type: "string", multiple: true },
        data: { type: "string" },
        preset: { type: "string" },
        projects: { type: "string" },
        "fault-rate": { type: "string" },
        "latency-ms": { type: "string" },
        seed: { type: "string" },
        "omit-empty": { type: "boolean" },
        "policies-v2": { type: "boolean" },
        "detection-products": { type: "string" },
        "dry-run-refusals": { type: "boolean" },
        "no-experimental-endpoints": { type: "boolean" },
      },
      strict: true,
    }).values;
  } catch (error) {
    fail(argumentProblem(error));
  }
}

async function main(): Promise<void> {
  if (asksForHelp(process.argv.slice(2))) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const values = readFlags();
  if (values.token?.includes("")) fail("--token: a token cannot be empty");
  if (values.preset !== undefined && !PRESETS.includes(values.preset as PresetName)) fail(`--preset must be one of ${PRESETS.join(", ")}`);
  const emulator = await startEmulator({
    port: numberFlag("port", values.port, (n) => Number.isInteger(n) && n >= 0 && n <= 65535),
    host: values.host,
    tokens: values.token,
    dataFile: values.data,
    preset: values.preset as PresetName | undefined,
    projects: numberFlag("projects", values.projects, (n) => Number.isInteger(n) && n >= 1),
    faultRate: numberFlag("fault-rate", values["fault-rate"], (n) => n >= 0 && n <= 1),
    latencyMs: numberFlag("latency-ms", values["latency-ms"], (n) => Number.isInteger(n) && n >= 0),
    seed: numberFlag("seed", values.seed, Number.isInteger),
    omitEmpty: values["omit-empty"],
    policiesV2: values["policies-v2"],
    detectionProducts: productsFlag(values["detection-products"]),
    dryRunRefusals: values["dry-run-refusals"],
    experimentalEndpoints: values["no-experimental-endpoints"] ? false : undefined,
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    emulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`pulumi-semgrep-emulator: error while stopping on ${signal}: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  // Announce the address only once a signal would stop the emulator cleanly.
  process.stdout.write(`pulumi-semgrep emulator listening on ${emulator.url}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`pulumi-semgrep-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
