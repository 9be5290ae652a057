// The emulator from code (docs/emulator.md): type-checked by `npm run typecheck`.
import { startEmulator } from "pulumi-semgrep/emulator";

const emulator = await startEmulator({ preset: "large", faultRate: 0.1 });
console.log(emulator.url, emulator.token, emulator.requests().length);
await emulator.close();
