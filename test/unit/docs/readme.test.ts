/**
 * README.md is the front door: under 200 lines (what a page of docs/ says in full, the README
 * links to), its first screen the two commands that do everything on a fresh machine (set-up and
 * the demo, then the tests), and every link it has, and every link of docs/ into it, leads
 * somewhere (a file that exists, a heading that the page has).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../scripts/workspace";

/** The longest the README may be, in lines. */
const MAX_LINES = 199;
/** A terminal's first screen, in lines. */
const FIRST_SCREEN = 24;

const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string): string => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");

/** The anchors of a Markdown file's headings (outside code blocks). */
function anchors(file: string): Set<string> {
  const text = readFileSync(file, "utf8").replace(/^```[\s\S]*?^```$/gm, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
}

/** The relative links of a Markdown text (outside code blocks): each its target path and anchor. */
function links(text: string): { target: string; anchor?: string }[] {
  return [...text.replace(/^```[\s\S]*?^```$/gm, "").matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!)
    .filter((l) => !/^[a-z]+:/.test(l))
    .map((l) => {
      const [target, anchor] = l.split("#");
      return { target: target!, anchor };
    });
}

/** The links of `file` (a path from the repository's root) that do not resolve. */
function broken(file: string, only: (target: string) => boolean = () => true): string[] {
  const dir = path.dirname(path.join(REPO_ROOT, file));
  return links(readFileSync(path.join(REPO_ROOT, file), "utf8")).flatMap(({ target, anchor }) => {
    const resolved = target ? path.resolve(dir, target) : path.join(REPO_ROOT, file);
    if (!only(resolved)) return [];
    const shown = `${file}: ${target}${anchor ? `#${anchor}` : ""}`;
    if (!existsSync(resolved)) return [shown];
    return anchor && resolved.endsWith(".md") && !anchors(resolved).has(anchor) ? [shown] : [];
  });
}

describe("README.md, the front door", () => {
  it(`has fewer than 200 lines (it has ${readme.split("\n").length - 1})`, () => {
    expect(readme.endsWith("\n")).toBe(true);
    expect(readme.split("\n").length - 1).toBeLessThanOrEqual(MAX_LINES);
  });

  it("the first screen holds the two commands of a fresh machine: set-up and the demo, then the tests", () => {
    const screen = readme.split("\n").slice(0, FIRST_SCREEN).join("\n");
    const block = /^```sh\n([\s\S]*?)^```$/m.exec(screen)?.[1];
    expect(block, `a \`\`\`sh block within the first ${FIRST_SCREEN} lines`).toBeDefined();
    const commands = block!.trim().split("\n").map((l) => l.replace(/\s+#.*$/, "").trim());
    expect(commands).toEqual(["npm run setup && npm run demo", "npm test"]);
    const scripts = (JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    for (const s of ["setup", "demo", "test"]) expect(scripts[s], `package.json script ${s}`).toBeDefined();
  });

  it("every relative link of the README leads to a file it names, and to a heading of that page", () => {
    expect(links(readme).length).toBeGreaterThan(10);
    expect(broken("README.md")).toEqual([]);
  });

  it("every link of a page of docs/ into the README leads to one of its headings", () => {
    const pages = readdirSync(path.join(REPO_ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);
    expect(pages.flatMap((p) => broken(p, (target) => target === path.join(REPO_ROOT, "README.md")))).toEqual([]);
  });

  it("the checks can fail: a missing file, a missing heading, a heading's anchor", () => {
    expect(anchorOf("Without a language host: notify-run")).toBe("without-a-language-host-notify-run");
    expect(anchorOf("The project's files")).toBe("the-projects-files");
    expect(links("[a](docs/none.md) [b](README.md#nowhere) [c](https://example.com) [d](#top)")).toEqual([
      { target: "docs/none.md", anchor: undefined }, { target: "README.md", anchor: "nowhere" }, { target: "", anchor: "top" },
    ]);
  });
});
