/**
 * The bench's reading of a V8 CPU profile (bench/cpuProfile.ts): each sample counted once by the
 * place of its innermost frame, once in each activity found anywhere on its stack however deep it
 * nests, and idle time left out; a frame's place named by the package its file is in.
 */
import { describe, expect, it } from "vitest";
import { place, summarize, type CpuProfile } from "../../../bench/cpuProfile";

const frame = (functionName: string, url = "") => ({ functionName, url });
/** The compiled package's folder as it appears in a frame's file URL (only a string here: this test loads nothing built). */
const DIST = ["", "dist", "provider"].join("/");

describe("CPU profile summary", () => {
  it("names a frame's place by its package, this package's folder, Node or V8", () => {
    expect(place(frame("parse", "file:///repo/node_modules/zod/v4/core/schemas.cjs"))).toBe("zod");
    expect(place(frame("x", "file:///repo/node_modules/@grpc/grpc-js/build/src/server.js"))).toBe("@grpc/grpc-js");
    // The innermost node_modules names the package, also under a scoped one.
    expect(place(frame("x", "file:///repo/node_modules/@pulumi/pulumi/node_modules/semver/index.js"))).toBe("semver");
    expect(place(frame("read", `file:///repo${DIST}/resources/topic.js`))).toBe("provider/resources");
    expect(place(frame("clientFor", `file:///repo${DIST}/config.js`))).toBe("provider");
    // This package installed by name in a project resolves through node_modules/pulumi-notify.
    expect(place(frame("read", `file:///project/node_modules/pulumi-notify${DIST}/client/http.js`))).toBe("provider/client");
    expect(place(frame("wrapModuleLoad", "node:internal/modules/cjs/loader"))).toBe("node");
    expect(place(frame("(garbage collector)"))).toBe("(garbage collector)");
  });

  it("counts each sample once by its innermost frame, once per activity on its stack, and leaves idle out", () => {
    // root -> load -> load (nested) -> zod parse; root -> (idle); root -> (garbage collector)
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame("(root)"), children: [2, 5, 6] },
        { id: 2, callFrame: frame("wrapModuleLoad", "node:internal/modules/cjs/loader"), children: [3] },
        { id: 3, callFrame: frame("wrapModuleLoad", "node:internal/modules/cjs/loader"), children: [4] },
        { id: 4, callFrame: frame("parse", "file:///r/node_modules/zod/index.cjs") },
        { id: 5, callFrame: frame("(idle)") },
        { id: 6, callFrame: frame("(garbage collector)") },
      ],
      samples: [4, 3, 5, 6, 4],
      timeDeltas: [1000, 2000, 50_000, 3000, 4000],
    };
    const s = summarize(profile, {
      loading: (f) => f.functionName === "wrapModuleLoad",
      zod: (f) => f.url.includes("/zod/"),
      gc: (f) => f.functionName === "(garbage collector)",
    });
    expect(s.sampledMs).toBe(10);
    expect(s.activities).toEqual({ loading: 7, zod: 5, gc: 3 });
    expect(s.byPlace).toEqual([["zod", 5], ["(garbage collector)", 3], ["node", 2]]);
  });
});
