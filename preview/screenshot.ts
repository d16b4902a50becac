/**
 * PNG screenshots of rendered emails with a headless Chromium that playwright-core drives: the
 * browser the machine has (a CI runner's Chrome, Debian's `chromium`), never one downloaded. The
 * page gets no network (an email's remote images and fonts are not fetched, so a screenshot is
 * the same offline and on every run) and no scripts (mail clients run none).
 */
import { findOnPath, isExecutable } from "../provider/onPath";

/** The environment variable naming the browser when `--browser` does not. */
export const BROWSER_ENV = "NOTIFY_PREVIEW_BROWSER";

/** The executables looked for on `PATH`, in order, when neither `--browser` nor the variable names one. */
export const BROWSER_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"] as const;

/** The viewport width of a screenshot: wider than the 600-pixel column emails are laid out in. */
export const VIEWPORT = { width: 800, height: 600 } as const;

/**
 * The frame an email page (index.ts `emailPage`) holds the email in, below its header. The camera
 * grows it to the whole email before the shot: a full-page screenshot takes the page's size, not
 * a frame's content, and the page's scripts (which would size it) do not run.
 */
export const EMAIL_FRAME_ID = "email";

/** Where the browser is, or why there is none (for the summary). */
export type BrowserChoice = { path: string } | { skipped: string };

/**
 * The browser to use: `explicit` (the `--browser` option), else {@link BROWSER_ENV}, else the first
 * of {@link BROWSER_NAMES} on `PATH`; `false` when screenshots were turned off.
 */
export function chooseBrowser(explicit: string | false | undefined, env: NodeJS.ProcessEnv = process.env): BrowserChoice {
  if (explicit === false) return { skipped: "--no-screenshots was given" };
  const named = explicit ?? env[BROWSER_ENV];
  if (named) return isExecutable(named) ? { path: named } : { skipped: `the browser ${named} (from ${explicit ? "--browser" : BROWSER_ENV}) is not an executable file` };
  const found = findOnPath(BROWSER_NAMES, env.PATH ?? "");
  if (found) return { path: found };
  return { skipped: `no Chromium found: none of ${BROWSER_NAMES.join(", ")} is on PATH, and neither --browser nor ${BROWSER_ENV} names one` };
}

/** A started browser that screenshots HTML documents; {@link close} it when done. */
export interface Camera {
  /** Writes a full-page PNG of `html` to `file`; an email page's frame is grown to the email's height first. */
  shoot(html: string, file: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Grows the page's email frame, when it has one, to the email's size, and the viewport to the
 * page's. The frame is first given the viewport's height, the height the email had when it was the
 * page, so that its layout sees the same viewport; an email wider than the viewport widens the
 * viewport (and so the frame) to its width, as its full-page screenshot was that wide; then the
 * frame takes the height of the email's document. The viewport then takes the whole page: Chromium
 * paints a frame of another origin (the email's `data:` document) only where it meets the
 * viewport, so a full-page shot of a taller page would cut the email off. Playwright evaluates
 * here with the page's scripts off. (The package is compiled without the DOM types: hence the
 * cast and the strings.)
 */
async function fitEmailFrame(page: import("playwright-core").Page): Promise<void> {
  const element = await page.$(`iframe#${EMAIL_FRAME_ID}`);
  const frame = await element?.contentFrame();
  if (!element || !frame) return;
  const setHeight = (h: number) => element.evaluate((el, px) => {
    Object.assign((el as unknown as { style: object }).style, { flex: "none", height: px });
  }, `${h}px`);
  // The scrolling element: the root in standards mode, the body in quirks mode (an email without a doctype).
  const email = (size: "Width" | "Height") => frame.evaluate(`(document.scrollingElement || document.documentElement).scroll${size}`) as Promise<number>;
  await setHeight(VIEWPORT.height);
  const width = Math.max(VIEWPORT.width, Math.ceil(await email("Width")));
  if (width > VIEWPORT.width) await page.setViewportSize({ width, height: VIEWPORT.height });
  await setHeight(Math.max(VIEWPORT.height, Math.ceil(await email("Height"))));
  const whole = await page.evaluate("document.documentElement.scrollHeight") as number;
  await page.setViewportSize({ width, height: Math.max(VIEWPORT.height, Math.ceil(whole)) });
}

/** Starts the browser at `executablePath` (headless); throws with the browser's message when it cannot. */
export async function startCamera(executablePath: string): Promise<Camera> {
  const { chromium } = require("playwright-core") as typeof import("playwright-core");
  const browser = await chromium.launch({ executablePath, headless: true });
  const context = await browser.newContext({ viewport: VIEWPORT, javaScriptEnabled: false, offline: true });
  await context.route("**/*", (route) => (route.request().url().startsWith("data:") ? route.continue() : route.abort()));
  return {
    async shoot(html, file) {
      const page = await context.newPage();
      try {
        await page.setContent(html, { waitUntil: "load" });
        await fitEmailFrame(page);
        await page.screenshot({ path: file, fullPage: true });
      } finally {
        await page.close();
      }
    },
    close: () => browser.close(),
  };
}
