/**
 * The Go module of a release in a Go module proxy's folder (scripts/release.ts writeGoModule): the
 * proxy's `list`, `.info` and `.mod`, and the zip that scripts/gomodzip makes with
 * golang.org/x/mod/zip. The zip must hold what the go command serves from the module's tag: the
 * files of sdk/go that git keeps, and the repository's LICENSE. Checked three ways: x/mod's
 * CheckZip takes it and lists those files; the go command downloads it from the folder
 * (GOPROXY=file://) and unpacks those files with those contents; and its hash, the one go.sum
 * records, is the h1: hash of those files computed here from the checkout. A small repository
 * checks the other rules: a module's own LICENSE, nested modules and links left out, a file git
 * ignores refused. Needs Go (scripts/gomodzip is built with it on first use); without Go on PATH
 * the file is skipped, saying so (with CI=true it fails instead).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkGoModuleZip, GO_MODULE_DIR, writeGoModule } from "../../../scripts/release";
import { ROOT } from "../../helpers/pulumi";
import { runs, toolchain } from "../../helpers/toolchain";

const FILE = "test/component/scripts/goModule.test.ts";
const hasGo = toolchain(FILE, runs("go", ["version"]), "Go is not on PATH (scripts/gomodzip, which makes the Go module's zip, is built with Go)");

/** Files under `dir` (regular files), as slash-separated paths relative to it, sorted. */
function filesUnder(dir: string, sub = ""): string[] {
  return readdirSync(path.join(dir, sub), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(dir, path.posix.join(sub, e.name)) : e.isFile() ? [path.posix.join(sub, e.name)] : []))
    .sort();
}

/** The files of `dir` in `root` as a commit of the working tree would hold them: tracked and new, not ignored, relative to `dir`. */
function gitFiles(root: string, dir: string): string[] {
  return execFileSync("git", ["-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", dir], { encoding: "utf8" })
    .split("\0").filter(Boolean).map((f) => path.posix.relative(dir, f)).sort();
}

/** golang.org/x/mod/sumdb/dirhash's Hash1 (the `h1:` of go.sum) of files named `<module>@<version>/<path>`. */
function hash1(files: { name: string; data: Buffer }[]): string {
  const lines = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((f) => `${createHash("sha256").update(f.data).digest("hex")}  ${f.name}\n`).join("");
  return `h1:${createHash("sha256").update(lines).digest("base64")}`;
}

describe.skipIf(!hasGo)("the Go module in a proxy's folder", () => {
  let out: string;
  let module: string;
  let at: string;
  /** The files the tag of sdk/go would hold, with the repository's LICENSE (sdk/go has none of its own). */
  let expected: string[];

  beforeAll(() => {
    out = mkdtempSync(path.join(os.tmpdir(), "notify-go-module-"));
    ({ module } = writeGoModule("0.1.0", out, ROOT, new Date("2026-01-02T03:04:05Z")));
    at = path.join(out, "goproxy", module, "@v");
    const own = gitFiles(ROOT, GO_MODULE_DIR);
    expect(own).not.toContain("LICENSE");
    expected = [...own, "LICENSE"].sort();
  });
  afterAll(() => {
    // The module cache's folders are read-only unless -modcacherw; the test sets it, this is in case it did not.
    if (out) spawnSync("chmod", ["-R", "u+w", out]);
    if (out) rmSync(out, { recursive: true, force: true });
  });

  /** The source of a file of the zip: sdk/go's, or the repository's LICENSE. */
  const source = (f: string) => (f === "LICENSE" ? path.join(ROOT, "LICENSE") : path.join(ROOT, GO_MODULE_DIR, f));

  it("has the proxy's list, info and go.mod", () => {
    expect(readdirSync(at).sort()).toEqual(["list", "v0.1.0.info", "v0.1.0.mod", "v0.1.0.zip"]);
    expect(readFileSync(path.join(at, "list"), "utf8")).toBe("v0.1.0\n");
    expect(JSON.parse(readFileSync(path.join(at, "v0.1.0.info"), "utf8"))).toEqual({ Version: "v0.1.0", Time: "2026-01-02T03:04:05Z" });
    expect(readFileSync(path.join(at, "v0.1.0.mod"), "utf8")).toBe(readFileSync(path.join(ROOT, "sdk/go/go.mod"), "utf8"));
  });

  it("has a zip golang.org/x/mod/zip's CheckZip takes, of sdk/go's files as git keeps them and the repository's LICENSE", () => {
    const checked = checkGoModuleZip(path.join(at, "v0.1.0.zip"), module, "v0.1.0");
    expect(checked.Error).toBeUndefined();
    expect(checked.Invalid).toEqual([]);
    expect(checked.Omitted).toEqual([]);
    expect([...checked.Valid].sort()).toEqual(expected.map((f) => `${module}@v0.1.0/${f}`));
  });

  it("is downloaded by the go command from the folder, with those files and contents, and the hash of them go.sum records", () => {
    const cache = path.join(out, "modcache");
    const work = path.join(out, "empty");
    mkdirSync(work);
    const r = spawnSync("go", ["mod", "download", "-json", `${module}@v0.1.0`], {
      cwd: work, encoding: "utf8",
      env: { ...process.env, GOMODCACHE: cache, GOPROXY: `file://${path.join(out, "goproxy")}`, GOSUMDB: "off", GOFLAGS: "-modcacherw", GOTOOLCHAIN: "local", GOWORK: "off" },
    });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    const downloaded = JSON.parse(r.stdout) as { Dir: string; Sum: string; Error?: string };
    expect(downloaded.Error).toBeUndefined();
    expect(filesUnder(downloaded.Dir)).toEqual(expected);
    for (const f of expected) expect(readFileSync(path.join(downloaded.Dir, f)).equals(readFileSync(source(f))), f).toBe(true);
    expect(downloaded.Sum).toBe(hash1(expected.map((f) => ({ name: `${module}@v0.1.0/${f}`, data: readFileSync(source(f)) }))));
  });
});

describe.skipIf(!hasGo)("the Go module's zip, of a small repository", () => {
  let root: string;
  const MODULE = "example.com/repo/sdk/go";
  const write = (f: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    writeFileSync(path.join(root, f), text);
  };
  const zipNames = (out: string) => checkGoModuleZip(path.join(out, "goproxy", MODULE, "@v/v0.1.0.zip"), MODULE, "v0.1.0").Valid.map((n) => n.slice(`${MODULE}@v0.1.0/`.length)).sort();

  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), "notify-go-module-repo-"));
    execFileSync("git", ["init", "--quiet", root]);
    write(".gitignore", "*.log\n");
    write("LICENSE", "the repository's licence\n");
    write("sdk/go/go.mod", `module ${MODULE}\n\ngo 1.25\n`);
    write("sdk/go/a.go", "package notify\n");
    write("sdk/go/inner/go.mod", "module example.com/repo/sdk/go/inner\n");
    write("sdk/go/inner/b.go", "package inner\n");
    symlinkSync("a.go", path.join(root, "sdk/go/link.go"));
  });
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("leaves out nested modules and links, and takes the repository's LICENSE, or the module's own", () => {
    const out = path.join(root, "out-1");
    writeGoModule("0.1.0", out, root);
    expect(zipNames(out)).toEqual(["LICENSE", "a.go", "go.mod"]);
    write("sdk/go/LICENSE", "the module's licence\n");
    const out2 = path.join(root, "out-2");
    const { files } = writeGoModule("0.1.0", out2, root);
    expect(files).toEqual(["LICENSE", "a.go", "go.mod"]);
    // The module's own LICENSE: the zip's file has its text, not the repository's.
    const unzipped = path.join(root, "unzipped");
    execFileSync("go", ["mod", "download", "-json", `${MODULE}@v0.1.0`], {
      cwd: root, stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, GOMODCACHE: unzipped, GOPROXY: `file://${path.join(out2, "goproxy")}`, GOSUMDB: "off", GOFLAGS: "-modcacherw", GOTOOLCHAIN: "local", GOWORK: "off" },
    });
    expect(readFileSync(path.join(unzipped, `${MODULE}@v0.1.0`, "LICENSE"), "utf8")).toBe("the module's licence\n");
  });

  it("refuses a module folder holding a file git ignores, which the tag would not hold", () => {
    write("sdk/go/debug.log", "x\n");
    try {
      expect(() => writeGoModule("0.1.0", path.join(root, "out-3"), root)).toThrow(/sdk\/go has files git ignores, which the go command's zip from the tag would not hold: sdk\/go\/debug\.log; remove them/);
    } finally {
      rmSync(path.join(root, "sdk/go/debug.log"));
    }
  });
});
