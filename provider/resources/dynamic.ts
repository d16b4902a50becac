/**
 * The serialization shim between Pulumi's dynamic providers and our implementation.
 *
 * Pulumi serializes each resource's provider object into state (`__provider`, in the inputs and
 * again in the outputs) and evaluates it in the engine's provider process, whose module paths
 * start at the program's directory. So the object serialized here captures nothing but the
 * implementation's package path (a string) and `require`s it at call time: it never holds a
 * secret, and does not change when the package's code does, so a new version of the package shows
 * no diff. It is kept as short as the serializer allows (one small function per operation), since
 * the engine writes the whole state after every step and logs every property of every call.
 */
import type * as pulumi from "@pulumi/pulumi";

/**
 * The provider object for the implementation exported as `provider` by the module at `implPath`
 * (a package path such as `pulumi-notify/dist/provider/resources/integration`).
 */
export function serializableProvider(implPath: string): pulumi.dynamic.ResourceProvider {
  const p = () => require(implPath).provider;
  return {
    configure: (r) => require("pulumi-notify/dist/provider/config").configureFromStack(r),
    check: (o, n) => p().check(o, n),
    diff: (i, o, n) => p().diff(i, o, n),
    create: (n) => p().create(n),
    read: (i, o) => p().read(i, o),
    update: (i, o, n) => p().update(i, o, n),
    delete: (i, o) => p().delete(i, o),
  };
}
