/**
 * The serialization shim between Pulumi's dynamic providers and our implementation.
 *
 * Pulumi serializes each resource's provider object into state (`__provider`) and evaluates it in
 * the engine's provider process, whose module paths start at the program's directory. So the
 * object serialized here captures nothing but the implementation's package path (a string) and
 * `require`s it at call time: it stays under a kilobyte, never holds a secret, and does not change
 * when the package's code does, so a new version of the package shows no diff.
 */
import type * as pulumi from "@pulumi/pulumi";

/** Package path of the connection module, required at call time in the provider process. */
export const CONFIG_MODULE = "pulumi-notify/dist/provider/config";

/**
 * The provider object for the implementation exported as `provider` by the module at `implPath`
 * (a package path such as `pulumi-notify/dist/provider/resources/integration`).
 */
export function serializableProvider(implPath: string): pulumi.dynamic.ResourceProvider {
  return {
    async configure(req) {
      // Only what the connection needs crosses over; the key stays in the provider process.
      require("pulumi-notify/dist/provider/config").setProviderConfig({
        apiUrl: req.config.get("notify:apiUrl"),
        apiKey: req.config.get("notify:apiKey"),
        allowInsecureHttp: req.config.get("notify:allowInsecureHttp"),
        requestTimeoutMs: req.config.get("notify:requestTimeoutMs"),
      });
    },
    check: (olds, news) => require(implPath).provider.check(olds, news),
    diff: (id, olds, news) => require(implPath).provider.diff(id, olds, news),
    create: (inputs) => require(implPath).provider.create(inputs),
    read: (id, props) => require(implPath).provider.read(id, props),
    update: (id, olds, news) => require(implPath).provider.update(id, olds, news),
    delete: (id, props) => require(implPath).provider.delete(id, props),
  };
}
