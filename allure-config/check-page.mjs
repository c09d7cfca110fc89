// Opens a sweep's own page (index.html in its LLMBench folder) in headless Chromium over 127.0.0.1 and checks
// what a reader sees, in order: the answer first, then the headline charts, then the findings, then the table of
// levels, with nothing wider than the window; then opens one level's fold and checks that its timeline and its
// over-time chart render. Saves a screenshot of the top of the page and of the opened level. Exits non-zero, with
// one line saying why, when something is missing or out of order.
//
//   node check-page.mjs SWEEP_DIR "LEVEL" TOP_SCREENSHOT.png LEVEL_SCREENSHOT.png
import puppeteer from "puppeteer-core";
import { serveFolder } from "./serve-folder.mjs";

const [sweepDir, level, topShot, levelShot] = process.argv.slice(2);
if (!levelShot) {
  console.error('usage: node check-page.mjs SWEEP_DIR "LEVEL" TOP_SCREENSHOT.png LEVEL_SCREENSHOT.png');
  process.exit(2);
}
const fail = (why) => {
  console.error(`page check failed: ${why}`);
  process.exit(1);
};

const server = await serveFolder(sweepDir);

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic"],
});
const timer = setTimeout(() => fail("timed out after 60 s"), 60_000);
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 1000 });
  await page.goto(`${server.base}/index.html`, { waitUntil: "networkidle0" });
  const layout = await page.evaluate(() => {
    const top = (el) => (el ? el.getBoundingClientRect().top + window.scrollY : -1);
    const heading = (text) => [...document.querySelectorAll("h3")].find((h) => h.textContent.trim() === text);
    const firstChart = document.querySelector("div.charts svg");
    return {
      answer: top(document.querySelector(".verdict")),
      answerText: document.querySelector(".verdict")?.innerText ?? "",
      chart: top(firstChart),
      chartTitle: firstChart?.textContent ?? "",
      findings: top(heading("Findings")),
      levels: top(document.querySelector("table.levels")),
      levelRows: document.querySelectorAll("table.levels tr").length - 1,
      pageWidth: document.documentElement.scrollWidth,
      windowWidth: window.innerWidth,
    };
  });
  const order = ["answer", "chart", "findings", "levels"];
  const missing = order.filter((k) => layout[k] < 0);
  if (missing.length) fail(`the page has no ${missing.join(", ")} (expected the verdict, a headline chart, the findings and the table of levels)`);
  for (let i = 1; i < order.length; i++) {
    if (layout[order[i]] <= layout[order[i - 1]]) fail(`the page shows ${order[i]} above ${order[i - 1]}; the order should be ${order.join(", ")}`);
  }
  if (layout.pageWidth > layout.windowWidth) fail(`the page is ${layout.pageWidth} px wide in a ${layout.windowWidth} px window: something does not wrap`);
  await page.screenshot({ path: topShot });
  console.log(`page check passed: answer, headline chart ("${layout.chartTitle.split("\n")[0].slice(0, 60)}"), findings and a table `
    + `of ${layout.levelRows} levels in that order, ${layout.pageWidth} px wide; screenshot ${topShot}`);
  console.log(`  answer: ${layout.answerText.split("\n").filter((l) => l.trim()).slice(1, 3).join(" | ").slice(0, 240)}`);

  const fold = await page.evaluateHandle((name) => [...document.querySelectorAll("details.level")]
    .find((d) => d.querySelector("summary")?.textContent.trim() === name) ?? null, level);
  if (!(await fold.evaluate((d) => d !== null))) fail(`the page has no fold for level "${level}" under "Inside each level"`);
  await fold.evaluate((d) => { d.open = true; d.scrollIntoView(); });
  const inside = await fold.evaluate((d) => {
    const timeline = d.querySelector("svg.llmbench-timeline");
    const charts = [...d.querySelectorAll("svg")].map((s) => s.getBoundingClientRect());
    return {
      bars: timeline ? timeline.querySelectorAll("rect").length : 0,
      title: timeline?.querySelector("text")?.textContent ?? "",
      sizes: charts.map((r) => `${Math.round(r.width)}x${Math.round(r.height)}`),
      overTime: [...d.querySelectorAll("svg")].some((s) => /in flight over time/.test(s.textContent)),
    };
  });
  if (inside.bars < 2) fail(`level "${level}" shows no timeline with bars`);
  if (!inside.overTime) fail(`level "${level}" shows no throughput and in-flight chart`);
  if (inside.sizes.some((s) => s.startsWith("0x") || s.endsWith("x0"))) fail(`a chart of level "${level}" has no size: ${inside.sizes}`);
  await page.screenshot({ path: levelShot });
  console.log(`page check passed: "${inside.title}" with ${inside.bars} bars and legend boxes, and the over-time chart `
    + `(${inside.sizes.join(", ")}); screenshot ${levelShot}`);
} finally {
  clearTimeout(timer);
  await browser.close();
  server.close();
}
