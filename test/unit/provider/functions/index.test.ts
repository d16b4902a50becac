import { describe, expect, it } from "vitest";
import { getChannelEndpoints } from "../../../../provider/functions/index";

describe("function arguments", () => {
  // The Go SDK sends an optional argument whose Output resolved to nil as null (seen with
  // getChannelEndpoints' connectionIdentifier from a Go program); Pulumi reads a null input as not set.
  it("take a null argument as not set, and still refuse the others naming them", async () => {
    const err = await getChannelEndpoints({ connectionIdentifier: null, channel: "slack" } as never).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/^getChannelEndpoints: invalid arguments: channel: must be one of /);
    expect((err as Error).message).not.toContain("connectionIdentifier");
  });

  it("refuse a null below the top level, naming it", async () => {
    const err = await getChannelEndpoints({ contextKeys: [null] } as never).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/^getChannelEndpoints: invalid arguments: contextKeys\[0\]: /);
  });
});
