// Opens the run's overview (index.html beside the sweeps' folders) in headless Chromium over 127.0.0.1 and checks
// what a reader sees: the count of verdicts first, then one row per sweep with its verdict and a link, the sweeps
// that did not pass above those that passed; then follows the link of one sweep and checks its page: the verdict
// first, then what was measured (date, duration, server and version, model, deployment, client machine), and the
// table of levels with TPOT and ITL under vllm bench serve's names. Saves a screenshot of the overview and of the
// sweep's verdict and facts. Exits non-zero, with one line saying why, when something is missing or out of order.
//
//   node check-overview.mjs REPORT_ROOT "SWEEP FOLDER" OVERVIEW_SCREENSHOT.png FACTS_SCREENSHOT.png
import puppeteer from "puppeteer-core";
import { serveFolder } from "./serve-folder.mjs";

const [root, sweep, overviewShot, factsShot] = process.argv.slice(2);
if (!factsShot) {
  console.error('usage: node check-overview.mjs REPORT_ROOT "SWEEP FOLDER" OVERVIEW_SCREENSHOT.png FACTS_SCREENSHOT.png');
  process.exit(2);
}
const fail = (why) => {
  console.error(`overview check failed: ${why}`);
  process.exit(1);
};

const server = await serveFolder(root);
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic"],
});
const timer = setTimeout(() => fail("timed out after 60 s"), 60_000);
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1000 });
  const response = await page.goto(`${server.base}/index.html`, { waitUntil: "networkidle0" });
  if (!response.ok()) fail(`${root}/index.html is not there (HTTP ${response.status()}): the run wrote no overview`);
  const overview = await page.evaluate(() => {
    const top = (el) => (el ? el.getBoundingClientRect().top + window.scrollY : -1);
    const verdict = document.querySelector(".verdict h2");
    const rows = [...document.querySelectorAll("table.overview tr")].slice(1).map((tr) => ({
      status: tr.className,
      link: tr.querySelector("a")?.getAttribute("href") ?? "",
      title: tr.querySelector("a")?.textContent ?? "",
      cells: [...tr.querySelectorAll("td")].map((td) => td.innerText.trim()),
    }));
    return {
      count: verdict?.textContent ?? "",
      verdictTop: top(verdict),
      tableTop: top(document.querySelector("table.overview")),
      rows,
      pageWidth: document.documentElement.scrollWidth,
      windowWidth: window.innerWidth,
    };
  });
  const counted = overview.count.match(/^(\d+) sweeps?: /);
  if (!counted) fail(`the overview does not start with the count of verdicts (found "${overview.count}")`);
  if (Number(counted[1]) !== overview.rows.length) fail(`the overview counts ${counted[1]} sweeps but lists ${overview.rows.length}`);
  if (overview.verdictTop < 0 || overview.tableTop <= overview.verdictTop) fail("the overview's count is not above its table of sweeps");
  const rank = { broken: 0, failed: 1, passed: 2 };
  for (let i = 1; i < overview.rows.length; i++) {
    if (rank[overview.rows[i].status] < rank[overview.rows[i - 1].status]) {
      fail(`the overview lists "${overview.rows[i].title}" (${overview.rows[i].status}) below "${overview.rows[i - 1].title}" `
        + `(${overview.rows[i - 1].status}): sweeps that did not pass come first`);
    }
  }
  const missing = overview.rows.filter((r) => !r.link.endsWith("/index.html") || !(r.status in rank));
  if (missing.length) fail(`rows without a verdict or a link to their page: ${missing.map((r) => r.title).join(", ")}`);
  if (overview.pageWidth > overview.windowWidth) fail(`the overview is ${overview.pageWidth} px wide in a ${overview.windowWidth} px window`);
  await page.screenshot({ path: overviewShot, fullPage: true });
  console.log(`overview check passed: "${overview.count}", ${overview.rows.length} sweeps each with its verdict and link, `
    + `those that did not pass first; screenshot ${overviewShot}`);

  // The sweep's own page, reached by its link.
  const link = await page.$(`table.overview a[href="${sweep}/index.html"]`);
  if (!link) fail(`the overview has no link to "${sweep}/index.html"`);
  await Promise.all([page.waitForNavigation({ waitUntil: "networkidle0" }), link.click()]);
  const facts = await page.evaluate(() => {
    const top = (el) => (el ? el.getBoundingClientRect().top + window.scrollY : -1);
    const rows = Object.fromEntries([...document.querySelectorAll("table.facts tr")]
      .map((tr) => [tr.querySelector("th")?.textContent ?? "", tr.querySelector("td")?.textContent ?? ""]));
    const headers = [...document.querySelectorAll("table.levels th")].map((th) => th.textContent);
    return {
      verdict: document.querySelector(".verdict h2")?.textContent ?? "",
      verdictTop: top(document.querySelector(".verdict")),
      factsTop: top(document.querySelector("table.facts")),
      chartTop: top(document.querySelector("div.charts svg")),
      rows,
      headers,
    };
  });
  if (!/^Verdict: (passed|failed|broken)$/.test(facts.verdict)) fail(`the page of ${sweep} states no verdict (found "${facts.verdict}")`);
  if (!(facts.verdictTop >= 0 && facts.verdictTop < facts.factsTop && facts.factsTop < facts.chartTop)) {
    fail(`the page of ${sweep} does not show its verdict, then what was measured, then its charts`);
  }
  const wanted = ["date", "duration", "server", "server version", "model", "deployment", "client machine"];
  const absent = wanted.filter((k) => !facts.rows[k]);
  if (absent.length) fail(`the page of ${sweep} does not say its ${absent.join(", ")}`);
  const vllm = ["Mean TPOT (ms)", "Median TPOT (ms)", "P99 TPOT (ms)", "Mean ITL (ms)", "Median ITL (ms)", "P99 ITL (ms)"];
  const noColumn = vllm.filter((h) => !facts.headers.includes(h));
  if (noColumn.length) fail(`the table of levels of ${sweep} has no column ${noColumn.join(", ")}`);
  const box = await page.evaluate(() => {
    const a = document.querySelector(".verdict").getBoundingClientRect();
    const b = document.querySelector("table.facts").getBoundingClientRect();
    return { x: 0, y: a.top + window.scrollY - 10, width: window.innerWidth, height: b.bottom - a.top + 20 };
  });
  await page.screenshot({ path: factsShot, clip: box });
  console.log(`overview check passed: its link opens ${sweep}: "${facts.verdict}", then ${wanted.length} facts `
    + `(server: ${facts.rows.server.slice(0, 90)}; client machine: ${facts.rows["client machine"].slice(0, 60)}), then the charts; `
    + `TPOT and ITL columns as vllm bench serve names them; screenshot ${factsShot}`);
} finally {
  clearTimeout(timer);
  await browser.close();
  server.close();
}
