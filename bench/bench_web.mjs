// Benchmark the web page (web/dist) in headless Chromium: cold load to first findings, and
// keystroke to updated findings on a large cfg (default: yolov4-p6.cfg of ../shared/corpus).
//
//   npm --prefix web ci && npm --prefix web run build
//   node bench/bench_web.mjs [--cfg PATH] [--loads 3] [--keys 40] [--warmup 10]
//
// Cold load: a fresh browser context each time (no cache, no service worker), from
// navigation until #status has data-state="ready" (Pyodide started, dnlint unpacked and the
// bundled example linted). Keystroke: in the page, from the keydown of one character typed
// into a comment at the end of the cfg until #status is "ready" again for the new text
// (the findings shown are that text's); the table and graph that follow are not counted.
// Each keystroke is also split where its time goes: the page until the lint is posted, the
// worker from receiving the text to posting the findings (the Python lint, its JSON and
// JSON.parse), and the page from the findings' message to #status ready (drawn).
// Prints a Markdown table. CHROMIUM: the browser (default /usr/bin/chromium).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const WEB = join(ROOT, "web");
const { chromium } = await import(pathToFileURL(join(WEB, "node_modules/playwright-core/index.mjs")).href);
const { serve } = await import(pathToFileURL(join(WEB, "test/serve.mjs")).href);

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
}

const shared = process.env.DNLINT_SHARED || join(dirname(ROOT), "shared");
const CFG = option("cfg", join(shared, "corpus/alexeyab/cfg/yolov4-p6.cfg"));
const LOADS = Number(option("loads", 3));
const KEYS = Number(option("keys", 40));
const WARMUP = Number(option("warmup", 10));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(0)} ms`;

if (!existsSync(join(WEB, "dist/index.html"))) throw new Error("build first: npm --prefix web run build");
if (!existsSync(CFG)) throw new Error(`no cfg at ${CFG} (--cfg PATH, or DNLINT_SHARED)`);
const server = await serve(join(WEB, "dist"));
const origin = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-dev-shm-usage"] });

const loads = [];
for (let i = 0; i < LOADS; i++) {
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  const start = Date.now();
  await page.goto(origin);
  await page.waitForSelector("#status[data-state=ready]", { timeout: 600_000 });
  loads.push(Date.now() - start);
  await context.close();
}

const context = await browser.newContext({ serviceWorkers: "block" });
const page = await context.newPage();
await page.goto(origin);
await page.waitForSelector("#status[data-state=ready]", { timeout: 600_000 });
const text = readFileSync(CFG, "utf8");
await page.evaluate((t) => window.dnlint.setText(t + "\n# typed: "), text);
await page.waitForSelector("#status[data-state=ready]", { timeout: 600_000 });
// the lint worker's side: when each lint request arrived and when its findings were posted
// (wall-clock times of both threads on one axis: performance.timeOrigin + now())
const worker = page.workers().find((w) => w.url().includes("worker"));
await worker.evaluate(() => {
  const now = () => performance.timeOrigin + performance.now();
  self.__spans = [];
  const receive = self.onmessage;
  self.onmessage = (event) => {
    if (event.data.type === "lint") self.__received = now();
    receive(event);
  };
  const post = self.postMessage.bind(self);
  self.postMessage = (message) => {
    if (message.type === "findings") self.__spans.push([self.__received, now()]);
    post(message);
  };
});
await page.evaluate(() => {
  const now = () => performance.timeOrigin + performance.now();
  const status = document.querySelector("#status");
  window.__keys = [];
  window.__down = 0;
  document.addEventListener("keydown", () => { window.__down = now(); }, true);
  new MutationObserver(() => {
    if (status.dataset.state === "ready" && window.__down) {
      window.__keys.push([window.__down, now()]);
      window.__down = 0;
    }
  }).observe(status, { attributes: true });
});
await page.click(".cm-content");
await page.keyboard.press("Control+End");
const keys = [];
const parts = { page: [], worker: [], drawn: [] };
for (let i = 0; i < WARMUP + KEYS; i++) {
  const before = await page.evaluate(() => window.__keys.length);
  await page.keyboard.type("x");
  await page.waitForFunction((n) => window.__keys.length > n, before, { timeout: 600_000 });
  if (i >= WARMUP) {
    const [down, drawn] = await page.evaluate(() => window.__keys.at(-1));
    const [received, posted] = await worker.evaluate(() => self.__spans.at(-1));
    keys.push(drawn - down);
    parts.page.push(received - down);
    parts.worker.push(posted - received);
    parts.drawn.push(drawn - posted);
  }
  // let the table and graph that follow the findings finish, as between a user's keys
  await page.waitForSelector("#graph[data-state=ready]", { timeout: 600_000 });
}
await browser.close();
server.close();

const lines = text.split("\n").length;
console.log("| what | median | min | max | runs |");
console.log("|---|---|---|---|---|");
console.log(`| cold load to first findings | ${ms(median(loads))} | ${ms(Math.min(...loads))} | ` +
  `${ms(Math.max(...loads))} | ${loads.length} |`);
console.log(`| keystroke to findings, ${CFG.split("/").pop()} (${lines} lines) | ` +
  `${ms(median(keys))} | ${ms(Math.min(...keys))} | ${ms(Math.max(...keys))} | ${keys.length} |`);
const row = (what, xs) => console.log(`| ${what} | ${ms(median(xs))} | ${ms(Math.min(...xs))} | ` +
  `${ms(Math.max(...xs))} | ${xs.length} |`);
row("· keydown to the worker receiving the text", parts.page);
row("· worker: text received to findings posted (the lint)", parts.worker);
row("· findings posted to drawn (#status ready)", parts.drawn);
