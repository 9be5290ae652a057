/**
 * The emulator module as the `omit-empty` test project sees it (an alias in vitest.config.mts):
 * the same exports, but every emulator a test starts answers as protobuf's JSON mapping does by
 * default, leaving out fields at their default value. The end-to-end and data-source tests run
 * once more this way, so that nothing depends on a field the live service may leave out.
 */
// `/index`, not the folder: the alias in vitest.config.mts takes `../../provider/emulator` to this very
// module, which would then import itself (every omit-empty test failed: maximum call stack size exceeded).
import { type EmulatorOptions, type RunningEmulator, startEmulator as startFullEmulator } from "../../provider/emulator/index";

export * from "../../provider/emulator/index";

export function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startFullEmulator({ omitEmpty: true, ...options });
}
