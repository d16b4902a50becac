/** Injected faults: what the pipeline's fault step decides, and the hostile bodies it can send. */
import type { ServerResponse } from "node:http";
import type { Faults } from "./types";

/** What the fault step decided for one request. */
export type FaultDecision =
  | { kind: "none" }
  | { kind: "drop" }
  | { kind: "rate-limit" }
  | { kind: "error"; status: 500 | 503 }
  | { kind: "hostile"; hostile: NonNullable<Faults["hostile"]> }
  /** The work is done and the answer lost afterwards (the case that tests idempotency for real). */
  | { kind: "lost-after-work"; as: "drop" | "5xx" };

/**
 * Rolls the dice for one request. Dropped connections and 5xx come before the work half of the
 * time, and after it the other half.
 */
export function decideFault(f: Faults, random: () => number): FaultDecision {
  let lost: "drop" | "5xx" | undefined;
  if (f.dropRate && random() < f.dropRate) {
    if (random() < 0.5) return { kind: "drop" };
    lost = "drop";
  }
  if (!lost && f.rateLimitRate && random() < f.rateLimitRate) return { kind: "rate-limit" };
  if (!lost && f.errorRate && random() < f.errorRate) {
    if (random() < 0.5) return { kind: "error", status: random() < 0.5 ? 500 : 503 };
    lost = "5xx";
  }
  if (f.hostile) return { kind: "hostile", hostile: f.hostile };
  return lost ? { kind: "lost-after-work", as: lost } : { kind: "none" };
}

/** Answers with a hostile body of the given kind (for client robustness tests). */
export function sendHostile(kind: NonNullable<Faults["hostile"]>, res: ServerResponse, key: string): void {
  switch (kind) {
    case "html":
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>");
      return;
    case "truncated":
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"data":{"_id":"abc","name":"trunc');
      return;
    case "wrong-types":
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ data: { _id: 42, name: ["x"], active: "yes", workflows: "none", data: 5, hasMore: "no" } }));
      return;
    case "missing-fields":
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ data: { unexpected: true } }));
      return;
    case "huge": {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const write = (): void => {
        while (sent < 64 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) {
            res.once("drain", write);
            return;
          }
        }
        res.end();
      };
      write();
      return;
    }
    case "trickle": {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("{");
      const timer = setInterval(() => { if (res.destroyed) clearInterval(timer); else res.write(" "); }, 200);
      res.on("close", () => clearInterval(timer));
      return;
    }
    case "echo-key":
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ statusCode: 400, message: `bad key ApiKey ${key}`, error: "Bad Request" }));
      return;
  }
}
