/**
 * A copy of this checkout as git sees it (tracked and new files, not ignored ones), with the
 * dependencies by link: what a user's clone is after `npm ci`, for tests that run the repository's
 * own commands (the release script, the install commands a user runs "in the checkout") without
 * touching this one.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./pulumi";

/** Copies the checkout into `dest` (created); with `dist`, its compiled output too (less dist/release and dist/plugin-binary). */
export function copyCheckout(dest: string, opts: { dist?: boolean } = {}): string {
  const files = execFileSync("git", ["-C", ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard"], { encoding: "utf8" }).split("\0").filter(Boolean);
  for (const f of files) {
    // A file deleted in the working tree but not yet in the index.
    if (!existsSync(path.join(ROOT, f))) continue;
    mkdirSync(path.dirname(path.join(dest, f)), { recursive: true });
    cpSync(path.join(ROOT, f), path.join(dest, f));
  }
  if (opts.dist) cpSync(path.join(ROOT, "dist"), path.join(dest, "dist"), { recursive: true, filter: (f) => !/^(release|plugin-binary)$/.test(path.relative(path.join(ROOT, "dist"), f)) });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dest, "node_modules"), "dir");
  return dest;
}
