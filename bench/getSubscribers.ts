/**
 * Child process of the functions benchmark: one getSubscribers call (connection from
 * NOTIFY_API_URL / NOTIFY_API_KEY), reporting time and peak resident memory as JSON.
 */
import { getSubscribers } from "pulumi-notify";

async function main(): Promise<void> {
  const maxResults = Number(process.argv[2]);
  const baselineRssBytes = process.memoryUsage().rss;
  const t0 = performance.now();
  const r = await getSubscribers({ maxResults });
  const ms = Math.round(performance.now() - t0);
  // maxRSS is in KiB and covers the whole process life, which is this one call.
  const peakRssBytes = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(JSON.stringify({ ms, count: r.subscribers.length, baselineRssBytes, peakRssBytes }));
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
