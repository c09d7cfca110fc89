// Opens a generated Allure 3 report in headless Chromium over 127.0.0.1 and checks what a reader sees:
// - the sweep's chart attachment on the given test, expanded, really renders as an SVG image;
// - with SUMMARY NAME: the sweep's summary result comes first in its branch of the tree, and its page
//   shows the verdict and the answer first, what was measured (date, server, model, client machine, ...), then the
//   charts (data: URI images), the findings and the table of levels in its description.
// Saves a screenshot of each (and of the tree, beside SUMMARY_SCREENSHOT as *-tree.png). Exits non-zero, with one line saying why, when something is missing.
//
//   node check-report.mjs REPORT_DIR "TEST NAME" ATTACHMENT_NAME SCREENSHOT.png ["SUMMARY NAME" SUMMARY_SCREENSHOT.png]
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import { serveFolder } from "./serve-folder.mjs";

const [reportDir, testName, attachmentName, screenshot, summaryName, summaryScreenshot] = process.argv.slice(2);
if (!screenshot || (summaryName && !summaryScreenshot)) {
  console.error("usage: node check-report.mjs REPORT_DIR \"TEST NAME\" ATTACHMENT_NAME SCREENSHOT.png [\"SUMMARY NAME\" SUMMARY_SCREENSHOT.png]");
  process.exit(2);
}
const fail = (why) => {
  console.error(`report check failed: ${why}`);
  process.exit(1);
};

const server = await serveFolder(reportDir);
const base = server.base;

const results = JSON.parse(await readFile(join(reportDir, "test-results.json"), "utf8"));
// Results left from earlier runs show as retries with no page of their own: take the one with a page.
const withPage = async (name) => {
  const candidates = Object.values(results.byId ?? results).filter((r) => r.name === name);
  const entry = (await Promise.all(candidates.map(async (r) =>
    (await readFile(join(reportDir, "data", "test-results", `${r.id}.json`)).then(() => r, () => null)))))
    .find((r) => r !== null);
  return entry ?? fail(`no test named "${name}" in the report`);
};
const entry = await withPage(testName);

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
  if (summaryName) await checkSummary(page, await withPage(summaryName));
} finally {
  clearTimeout(timer);
  await browser.close();
  server.close();
}

/** The sweep summary: first in its branch of the tree, and its description shows the table, findings and charts. */
async function checkSummary(page, summary) {
  const tree = JSON.parse(await readFile(join(reportDir, "widgets", "tree.json"), "utf8"));
  const leaf = tree.leavesById[summary.id] ?? fail(`"${summaryName}" is not in the report's tree`);
  const branch = Object.values(tree.groupsById).find((g) => (g.leaves ?? []).includes(leaf.nodeId));
  const siblings = branch.leaves.map((n) => tree.leavesById[n]).filter((l) => l.nodeId !== leaf.nodeId);
  if (siblings.length === 0) fail(`"${summaryName}" is alone in its branch "${branch.name}": it should sit beside the levels`);
  // What the reader sees: the tree (sorted by start, as Allure sorts by default) lists the summary first.
  // Allure opens only branches with failures: open each group on the way down.
  const parent = new Map(Object.values(tree.groupsById).flatMap((g) => (g.groups ?? []).map((c) => [c, g.nodeId])));
  const path = [];
  for (let id = branch.nodeId; id; id = parent.get(id)) path.unshift(tree.groupsById[id].name);
  await page.goto(`${base}/`, { waitUntil: "networkidle0" });
  const shown = (name, timeout) => page.waitForFunction((n) => [...document.querySelectorAll("*")]
    .find((e) => e.children.length === 0 && e.textContent.trim() === n) ?? null, { timeout }, name).catch(() => null);
  for (const [i, group] of path.entries()) {
    const next = path[i + 1] ?? summaryName;
    if (await shown(next, 1_000)) continue;
    const row = await shown(group, 20_000);
    if (!row) fail(`the tree on the report's first page shows no group "${group}" on the way to "${summaryName}"`);
    await row.asElement().click();
  }
  const order = await page.waitForFunction((names) => {
    const rows = names.map((n) => [...document.querySelectorAll("*")]
      .find((e) => e.children.length === 0 && e.textContent.trim() === n));
    return rows.every((r) => r) ? rows.map((r) => r.getBoundingClientRect().top) : null;
  }, { timeout: 20_000 }, [summaryName, ...siblings.map((l) => l.name)]).catch(() => null);
  if (!order) fail(`the tree on the report's first page does not show "${summaryName}" and its levels`);
  const tops = await order.jsonValue();
  if (tops.slice(1).some((top) => top <= tops[0])) {
    fail(`the tree lists "${summaryName}" after a level of its sweep; it should come first in "${branch.name}"`);
  }
  const treeShot = summaryScreenshot.replace(/(\.png)?$/, "-tree.png");
  await page.screenshot({ path: treeShot });
  await page.goto(`${base}/#${summary.id}`, { waitUntil: "networkidle0" });
  // Allure 3 shows a description in a sandboxed srcdoc iframe.
  // Polled until the table and a chart are there (images may still be decoding), for up to 20 s.
  let found = null;
  for (let i = 0; i < 40 && !(found?.charts.length > 0); i++) {
    for (const frame of page.frames()) {
      found = await frame.evaluate(() => {
        const table = [...document.querySelectorAll("pre")].find((p) => / \| .* ok \(\d+ err\) \| /.test(p.textContent));
        const charts = [...document.querySelectorAll("img")]
          .filter((i) => i.src.startsWith("data:image/svg+xml") && i.complete && i.naturalWidth > 100);
        const verdict = document.querySelector(".verdict");
        const firstChart = charts[0];
        return table ? { rows: table.textContent.trim().split("\n").length, findings: document.querySelectorAll("li").length,
          charts: charts.map((c) => `${c.naturalWidth}x${c.naturalHeight}`),
          answerFirst: !!verdict && !!firstChart && verdict.getBoundingClientRect().top < firstChart.getBoundingClientRect().top,
          verdict: verdict?.querySelector("h2")?.textContent ?? "",
          facts: [...document.querySelectorAll("table.facts th")].map((th) => th.textContent),
          levels: document.querySelectorAll("table.levels tr").length - 1 } : null;
      }).catch(() => null);
      if (found) break;
    }
    if (!(found?.charts.length > 0)) await new Promise((r) => setTimeout(r, 500));
  }
  if (!found) fail(`the page of "${summaryName}" shows no sweep table in its description`);
  if (found.findings === 0) fail(`the page of "${summaryName}" shows the table but no findings`);
  if (found.charts.length === 0) fail(`the page of "${summaryName}" shows the table but no chart rendered`);
  if (!found.answerFirst) fail(`the page of "${summaryName}" does not show the answer above its charts`);
  if (found.levels < 1) fail(`the page of "${summaryName}" shows no table of levels`);
  if (!/^Verdict: (passed|failed|broken)$/.test(found.verdict)) fail(`the page of "${summaryName}" states no verdict first`);
  const facts = ["date", "duration", "server", "server version", "model", "deployment", "client machine"];
  const unsaid = facts.filter((f) => !found.facts.includes(f));
  if (unsaid.length) fail(`the page of "${summaryName}" does not say what was measured: no ${unsaid.join(", ")}`);
  await page.screenshot({ path: summaryScreenshot });
  console.log(`report check passed: "${summaryName}" comes first in "${branch.name}" (screenshot ${treeShot}); its page shows `
    + `"${found.verdict}" and what was measured (${found.facts.join(", ")}), the answer above the charts, a table of ${found.levels} levels (${found.rows} console lines), ${found.findings} findings and ${found.charts.length} charts (${found.charts[0]}); screenshot ${summaryScreenshot}`);
}
