/**
 * A scripted HTTP server for the client's edge cases that the emulator, being faithful, never
 * produces (a cursor that repeats, a wrong shape, a Retry-After as a date). Everything else is
 * tested against the emulator.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface StubServer {
  url: string;
  /** Requests received, as `METHOD /path?query`. */
  received: string[];
  close(): Promise<void>;
}

export async function startStub(handler: (req: IncomingMessage, res: ServerResponse, index: number) => void): Promise<StubServer> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    handler(req, res, received.length - 1);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}
