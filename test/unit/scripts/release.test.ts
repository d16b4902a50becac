/**
 * The release's version stamp (scripts/release.ts): every place that holds the version agrees
 * today; versions are checked with clear errors; the Go module's zip is one the go command's
 * layout expects. test/component/scripts/release.test.ts runs the built script on a copy of the
 * repository.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  changelogVersions, compareVersions, currentVersion, goTag, parseVersion, releaseNotes, versionPlaces, writeGoModule, zipArchive,
} from "../../../scripts/release";
import { ROOT } from "../../helpers/pulumi";

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

/** The entries of a zip as archive/zip reads them: name and inflated content. */
function readZip(zip: Buffer): { name: string; data: Buffer }[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const out: { name: string; data: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const size = zip.readUInt32LE(at + 20);
    const nameLen = zip.readUInt16LE(at + 28);
    const extraLen = zip.readUInt16LE(at + 30);
    const commentLen = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLen).toString("utf8");
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zlib.inflateRawSync(zip.subarray(dataAt, dataAt + size));
    expect(zlib.crc32(data)).toBe(zip.readUInt32LE(at + 16));
    out.push({ name, data });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

describe("the Go module in a proxy's layout", () => {
  it("zips sdk/go and the LICENSE under <module>@v<version>/, with its go.mod, info and list", () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "notify-release-go-"));
    try {
      const { module, proxy } = writeGoModule("0.1.0", out, ROOT, new Date("2026-01-02T03:04:05Z"));
      const at = path.join(proxy, module, "@v");
      expect(readdirSync(at).sort()).toEqual(["list", "v0.1.0.info", "v0.1.0.mod", "v0.1.0.zip"]);
      expect(readFileSync(path.join(at, "list"), "utf8")).toBe("v0.1.0\n");
      expect(JSON.parse(readFileSync(path.join(at, "v0.1.0.info"), "utf8"))).toEqual({ Version: "v0.1.0", Time: "2026-01-02T03:04:05Z" });
      expect(readFileSync(path.join(at, "v0.1.0.mod"), "utf8")).toBe(readFileSync(path.join(ROOT, "sdk/go/go.mod"), "utf8"));
      const entries = readZip(readFileSync(path.join(at, "v0.1.0.zip")));
      const prefix = `${module}@v0.1.0/`;
      expect(entries.every((e) => e.name.startsWith(prefix))).toBe(true);
      const names = entries.map((e) => e.name.slice(prefix.length));
      expect(names).toContain("go.mod");
      expect(names).toContain("LICENSE");
      expect(names).toContain("notify/pulumi-plugin.json");
      expect(entries.find((e) => e.name === `${prefix}notify/provider.go`)!.data).toEqual(readFileSync(path.join(ROOT, "sdk/go/notify/provider.go")));
      // One content, one zip: the entries carry no time of their own.
      expect(zipArchive([{ name: "a", data: Buffer.from("x") }])).toEqual(zipArchive([{ name: "a", data: Buffer.from("x") }]));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
