/** The plugin's gRPC server (work in progress by the lead). */
import { createRequire } from "node:module";

export const PLUGIN_NAME = "semgrep";

export async function startPlugin(_args: string[]): Promise<void> {
  const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/package.json"));
  const grpc = fromPulumi("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
  const server = new grpc.Server();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, p) => (error ? reject(error) : resolve(p))),
  );
  process.stdout.write(`${port}\n`);
}
