/**
 * The connection check: one small authenticated request (`GET /v1/environments/me`) before anything
 * is registered or configured, so that a refused key or a wrong address stops the run before the
 * engine stores the provider's configuration with any resource. Without it, a failed `up` stored
 * the refused key with every unchanged resource (the next destroy then used it), an `up` with
 * nothing to change succeeded with it (no request made) and stored it all the same, and a
 * `preview --refresh` passed on the key stored earlier. Once per process and connection.
 */
import { NotifyConfigError } from "./client/errors";
export { KEY_ENVIRONMENT_ROUTE as CONNECTION_CHECK_ROUTE } from "./client/environments";
import { clientFor, isUnauthorized, refusedKeyHint, resolveConnection, type ConnectionSettings } from "./config";

const checked = new Map<string, Promise<void>>();

/**
 * Resolves once the service at the connection of `settings` has accepted its key; rejects with a
 * message naming the address, what the service answered and, for a refused key, where the key
 * comes from (`keySource`). A connection not configured at all is not checked: the operations
 * that need one say so when they do (a preview of new resources needs none).
 */
export function checkConnection(settings: ConnectionSettings, keySource: string): Promise<void> {
  let apiUrl: string;
  let apiKey: string;
  try {
    ({ apiUrl, apiKey } = resolveConnection(settings));
  } catch {
    return Promise.resolve();
  }
  const key = `${apiUrl}\u0000${apiKey}`;
  let check = checked.get(key);
  if (!check) {
    check = clientFor(settings).environments.me().then(() => undefined, (err: unknown) => {
      const why = err instanceof Error ? err.message.replace(/[.\s]+$/, "") : String(err);
      const hint = isUnauthorized(err) ? ` ${refusedKeyHint(keySource)}.` : "";
      throw new NotifyConfigError(
        `pulumi-notify cannot use the service at ${apiUrl}: ${why}.${hint} ` +
        "Nothing was registered or stored; fix the connection and run again",
      );
    });
    checked.set(key, check);
  }
  return check;
}
