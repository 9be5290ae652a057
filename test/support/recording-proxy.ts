/**
 * A recording HTTP proxy: forwards every request to a target (the emulator) unchanged and keeps
 * what went over the wire both ways, so that a test can check the client's real requests and the
 * emulator's real answers, not what either believes it sent.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { Exchange } from "./openapi";

export interface RecordingProxy {
  /** `http://127.0.0.1:PORT`: give this to the client instead of the target's address. */
  url: string;
  /** Every exchange so far, oldest first. */
  exchanges: Exchange[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const exchanges: Exchange[] = [];
  const server = createServer((req, res) => {
    forward(req).then(
      ({ status, headers, text }) => {
        exchanges.push({
          method: req.method ?? "GET",
          url: req.url ?? "/",
          headers: recordedHeaders(req),
          body: parseJson(requestText.get(req) ?? ""),
          status,
          answer: parseJson(text),
        });
        res.writeHead(status, headers).end(text);
      },
      (error: unknown) => res.writeHead(502, { "content-type": "text/plain" }).end(String(error)),
    );
  });
  const requestText = new WeakMap<IncomingMessage, string>();

  async function forward(req: IncomingMessage): Promise<{ status: number; headers: Record<string, string>; text: string }> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    requestText.set(req, body);
    const headers: Record<string, string> = {};
    for (const name of ["authorization", "content-type", "accept", ...RECORDED_HEADERS]) {
      const value = req.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    const response = await fetch(target + (req.url ?? "/"), { method: req.method, headers, body: body === "" ? undefined : body });
    return {
      status: response.status,
      headers: { "content-type": response.headers.get("content-type") ?? "application/json" },
      text: await response.text(),
    };
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Request headers an operation may declare, kept in the exchange (never the token). */
const RECORDED_HEADERS = ["if-match"];

function recordedHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of RECORDED_HEADERS) {
    const value = req.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  return headers;
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
