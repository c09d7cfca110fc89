// Opens a generated Allure 3 report in headless Chromium over 127.0.0.1, expands the sweep's chart
// attachment on the given test, checks that the SVG image really rendered, and saves a screenshot.
// Exits non-zero, with one line saying why, when the chart is missing.
//
//   node check-report.mjs REPORT_DIR "TEST NAME" ATTACHMENT_NAME SCREENSHOT.png
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import puppeteer from "puppeteer-core";

const [reportDir, testName, attachmentName, screenshot] = process.argv.slice(2);
if (!screenshot) {
  console.error("usage: node check-report.mjs REPORT_DIR \"TEST NAME\" ATTACHMENT_NAME SCREENSHOT.png");
  process.exit(2);
}
const fail = (why) => {
  console.error(`report check failed: ${why}`);
  process.exit(1);
};

const types = { ".html": "text/html", ".js": "text/javascript", ".json": "application/json", ".svg": "image/svg+xml",
  ".css": "text/css", ".csv": "text/csv", ".txt": "text/plain", ".png": "image/png" };
const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
  const file = join(reportDir, path.endsWith("/") ? path + "index.html" : path);
  try {
    const body = await readFile(file);
    res.writeHead(200, { "Content-Type": types[extname(file)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${server.address().port}`;

const results = JSON.parse(await readFile(join(reportDir, "test-results.json"), "utf8"));
// Results left from earlier runs show as retries with no page of their own: take the one with a page.
const candidates = Object.values(results.byId ?? results).filter((r) => r.name === testName);
const entry = (await Promise.all(candidates.map(async (r) =>
  (await readFile(join(reportDir, "data", "test-results", `${r.id}.json`)).then(() => r, () => null)))))
  .find((r) => r !== null);
if (!entry) fail(`no test named "${testName}" in the report`);

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic"],
});
const timer = setTimeout(() => fail("timed out after 60 s"), 60_000);
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1600 });
  await page.goto(`${base}/#${entry.id}`, { waitUntil: "networkidle0" });
  const header = await page.waitForFunction((name) => {
    const el = [...document.querySelectorAll("*")].find((e) => e.children.length === 0 && e.textContent.trim() === name);
    return el ?? null;
  }, { timeout: 20_000 }, attachmentName).catch(() => null);
  if (!header) fail(`the test page of "${testName}" shows no attachment "${attachmentName}"`);
  await header.asElement().click();
  const image = await page.waitForFunction(() => {
    const img = [...document.querySelectorAll("img")].find((i) => i.complete && i.naturalWidth > 100 && /svg|blob|attachments/.test(i.src));
    return img ?? null;
  }, { timeout: 20_000 }).catch(() => null);
  if (!image) fail(`attachment "${attachmentName}" was expanded but no chart image rendered`);
  await image.asElement().scrollIntoView();
  const size = await image.evaluate((i) => `${i.naturalWidth}x${i.naturalHeight}`);
  await page.screenshot({ path: screenshot });
  console.log(`report check passed: "${attachmentName}" on "${testName}" rendered as a ${size} image; screenshot ${screenshot}`);
} finally {
  clearTimeout(timer);
  await browser.close();
  server.close();
}
