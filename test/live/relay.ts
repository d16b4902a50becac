/**
 * A counting relay on a loopback port: the engine's provider (and the functions) talk to the live
 * service through it, so the run can say how many requests they sent and show the last exchanges
 * of a failure. It forwards each request as it came (method, path, headers but the host, body) to
 * the live address only, and its answer back as it came; it changes nothing.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";

export interface Relay {
  url: string;
  count(): number;
  /** The newest exchanges: `METHOD path -> status`. */
  recent(): string[];
  close(): Promise<void>;
}

const body = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

const HOP_BY_HOP = new Set(["host", "connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "content-length"]);

export async function startRelay(target: string): Promise<Relay> {
  const base = target.replace(/\/+$/, "");
  let count = 0;
  const recent: string[] = [];
  const server = createServer((req, res) => {
    count++;
    void (async () => {
      const payload = await body(req);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => !HOP_BY_HOP.has(k) && v !== undefined)) as Record<string, string | string[]>;
      const answer = await request(base + (req.url ?? "/"), {
        method: req.method as "GET", headers, body: payload.length ? payload : undefined,
      });
      const bytes = Buffer.from(await answer.body.arrayBuffer());
      recent.push(`${req.method} ${req.url} -> ${answer.statusCode}`);
      if (recent.length > 50) recent.shift();
      const out = Object.fromEntries(Object.entries(answer.headers).filter(([k, v]) => !HOP_BY_HOP.has(k) && v !== undefined)) as Record<string, string | string[]>;
      res.writeHead(answer.statusCode, out);
      res.end(bytes);
    })().catch((e: unknown) => {
      recent.push(`${req.method} ${req.url} -> relay failed: ${e instanceof Error ? e.message : String(e)}`);
      res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => count,
    recent: () => [...recent],
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
