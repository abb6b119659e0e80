// Shared by the browser test and the page benchmark: serve web/dist on a
// free localhost port and open Debian's Chromium through playwright-core
// (which never downloads a browser of its own).

import { chromium } from "playwright-core";
import { fileURLToPath } from "node:url";
import { access } from "node:fs/promises";
import { serve } from "../serve.mjs";

export const dist = fileURLToPath(new URL("../dist/", import.meta.url));
export const CHROMIUM = process.env.WORDHOARD_CHROMIUM ?? "/usr/bin/chromium";

/** The server and the browser; `close()` stops both. */
export async function start() {
  await access(`${dist}index.html`).catch(() => {
    throw new Error(`no ${dist}index.html: run 'make web' first`);
  });
  const server = await serve(dist, 0);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Root in a container needs --no-sandbox; the rest keep Chromium off
    // the network this machine does not have.
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  const close = async () => {
    await browser.close();
    await new Promise((ok) => server.close(ok));
  };
  return { url, browser, close };
}

/** A page that has loaded the index; console errors fail the caller. */
export async function openPage(browser, url, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  // The headers of each response, by path (what was sent, and how).
  const responses = new Map();
  page.on("response", (r) => responses.set(new URL(r.url()).pathname, r.headers()));
  await page.goto(url);
  await page.waitForSelector("body.ready", { timeout: 60_000 });
  return { page, context, errors, responses };
}
