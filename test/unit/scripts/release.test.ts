/**
 * The release's version stamp (scripts/release.ts): every place that holds the version agrees
 * today; versions are checked with clear errors. test/component/scripts/release.test.ts runs the
 * built script on a copy of the repository; test/component/scripts/goModule.test.ts checks the Go
 * module's proxy folder and zip (made by scripts/gomodzip, a Go program).
 */
import { describe, expect, it } from "vitest";
import {
  changelogVersions, compareVersions, currentVersion, goTag, parseVersion, releaseNotes, versionPlaces,
} from "../../../scripts/release";

describe("the version", () => {
  it("every place that holds it agrees with package.json's", () => {
    const version = currentVersion();
    const places = versionPlaces();
    expect(places.filter((p) => p.version !== version)).toEqual([]);
    // Each kind of place is there (a reader that finds nothing reads undefined, which fails above).
    expect(places.map((p) => p.place.split(" ")[0])).toEqual(expect.arrayContaining(["package.json", "schema.json", "sdk/python/pyproject.toml", "sdk/go/notify/pulumi-plugin.json"]));
  });

  it("has a CHANGELOG.md section, the newest", () => {
    expect(changelogVersions()[0]).toBe(currentVersion());
    expect(releaseNotes()).toMatch(/^### Upgrading\n/);
  });

  it("is a semantic version the Go module's path can carry, or a clear error", () => {
    expect(parseVersion("0.2.0")).toEqual({ major: 0, minor: 2, patch: 0 });
    expect(parseVersion("1.0.0-rc.1")).toEqual({ major: 1, minor: 0, patch: 0, pre: "rc.1" });
    expect(() => parseVersion("v0.2.0")).toThrow(/version "v0.2.0" is not a semantic version; allowed: MAJOR.MINOR.PATCH/);
    expect(() => parseVersion("0.2")).toThrow(/version "0.2" is not a semantic version/);
    expect(() => parseVersion("2.0.0")).toThrow(/major version 2 needs the Go module path to end in \/v2.*allowed without that change: 0.x.y or 1.x.y/);
    expect(goTag("0.2.0")).toBe("sdk/go/v0.2.0");
  });

  it("orders versions as semver does", () => {
    const sorted = ["1.0.0", "0.2.0", "1.0.0-rc.1", "0.10.0", "1.0.0-alpha", "1.0.0-rc.10", "1.0.0-rc.2", "0.2.1"].sort(compareVersions);
    expect(sorted).toEqual(["0.2.0", "0.2.1", "0.10.0", "1.0.0-alpha", "1.0.0-rc.1", "1.0.0-rc.2", "1.0.0-rc.10", "1.0.0"]);
  });
});
