// The page in a real browser: web/dist served on 127.0.0.1, loaded in headless Chromium
// (Playwright driving the system's chromium through its executable path: CHROMIUM, else
// /usr/bin/chromium; no browser is downloaded). Types a broken cfg, waits for the findings,
// applies a fix, checks the table and the graph, opens a share link, opens bad files, and
// checks that no request went anywhere but the site itself. SCREENSHOT: where to save the
// page (default web/test-results/page.png).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, openSync, closeSync, ftruncateSync, writeFileSync, writeSync,
  readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";
import { cliFindings, cpython, DIST, ROOT, WEB } from "./helpers.mjs";

const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const SCREENSHOT = process.env.SCREENSHOT || join(WEB, "test-results", "page.png");
const LOAD_MS = 240_000; // a cold Pyodide start on a busy 2-core runner
const STEP_MS = 60_000;
const TINY = readFileSync(join(ROOT, "fixtures/examples/tiny-detector.cfg"), "utf8");

let server, origin, browser, context, page;
const foreign = [];
const problems = [];

before(async () => {
  server = await serve(DIST);
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-dev-shm-usage"] });
  context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  // every request of the page, its workers and its service worker
  context.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(origin + "/") && !/^(data|blob):/.test(url)) foreign.push(url);
  });
  page = await context.newPage();
  page.on("pageerror", (error) => problems.push(error.message));
  await page.goto(origin + "/");
  await page.waitForSelector("#status[data-state=ready]", { timeout: LOAD_MS });
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function settled(p = page) {
  await p.waitForSelector("#status[data-state=ready]", { timeout: STEP_MS });
  await p.waitForSelector("#layers[data-state=ready]", { timeout: STEP_MS });
  await p.waitForSelector("#graph[data-state=ready]", { timeout: STEP_MS });
}

async function shown(p = page) {
  return p.$$eval("#findings li", (items) => items.map((li) =>
    [li.dataset.code, li.dataset.line, li.dataset.severity]));
}

function expected(text, path = "model.cfg", flags = []) {
  return cliFindings(text, path, flags).map((d) => [d.code, d.line === null ? "" : String(d.line),
    d.severity]);
}

async function setText(text) {
  await page.evaluate((t) => window.dnlint.setText(t), text);
}

test("typing a broken cfg shows the command's findings at their lines", async () => {
  await setText(TINY.replace("mask=3,4,5", "mask=3,4,5,"));
  await settled();
  // the last edit typed through the editor's input layer, as a user types
  await page.click(".cm-content");
  await page.keyboard.press("Control+End");
  await page.keyboard.type("\n[route]\nlayers=-99\n");
  await page.waitForSelector("#findings li[data-code=DN301], #findings li[data-code=DN302]",
    { timeout: STEP_MS });
  await settled();
  const text = await page.evaluate(() => window.dnlint.getText());
  assert.equal(text, TINY.replace("mask=3,4,5", "mask=3,4,5,") + "\n[route]\nlayers=-99\n");
  assert.deepEqual(await shown(), expected(text));
  assert.ok(await page.locator(".cm-lintRange-error").count() > 0, "no underline");
  assert.ok(await page.locator(".cm-gutter-lint .cm-lint-marker").count() > 0, "no gutter marker");
});

test("a fix applies the command's edit, and fix all safe fixes the rest", async () => {
  const broken = TINY.replace("mask=3,4,5", "mask=3,4,5,").replaceAll("classes=3", "classes=5");
  await setText(broken);
  await settled();
  assert.deepEqual(await shown(), expected(broken));
  assert.deepEqual((await shown()).map((f) => f[0]), ["DN209", "DN409", "DN401"]);
  await page.click("#findings li[data-code=DN209] [data-action=fix]");
  await page.waitForFunction(() => !window.dnlint.getText().includes("mask=3,4,5,"),
    null, { timeout: STEP_MS });
  await settled();
  assert.deepEqual((await shown()).map((f) => f[0]), ["DN401", "DN401"]);
  await page.click("[data-action=fix-all]");
  await page.waitForFunction(() => !window.dnlint.getText().includes("filters=24"),
    null, { timeout: STEP_MS });
  await settled();
  assert.deepEqual(await shown(), []);
  const cli = cpython(["-m", "dnlint", "--no-config", "--fix", "--exit-zero",
    "--stdin-filename", "model.cfg", "-"], TINY.replaceAll("classes=3", "classes=5"));
  assert.equal(await page.evaluate(() => window.dnlint.getText()), cli);
});

test("the layer table and the graph are the command's", async () => {
  await setText(TINY.replace("layers=-1,8", "layers=-1,80"));
  await settled();
  const text = TINY.replace("layers=-1,8", "layers=-1,80");
  const cli = JSON.parse(cpython(["-m", "dnlint", "--no-config", "--format", "json", "--layers",
    "--exit-zero", "--stdin-filename", "model.cfg", "-"], text)).files[0];
  const rows = await page.$$eval("#layers tr[data-index]", (trs) => trs.map((tr) =>
    [Number(tr.dataset.index), tr.children[1].textContent, tr.children[4].textContent,
      tr.classList.contains("broken")]));
  assert.deepEqual(rows.map((r) => r.slice(0, 3)),
    cli.layers.map((l) => [l.index, l.type, l.output.join(" x ")]));
  assert.ok(rows.some((r) => r[3]), "the broken route is not marked");
  const nodes = await page.$$eval("#graph svg g.node[id^=layer-]", (gs) => gs.map((g) => g.id));
  nodes.sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)));
  assert.deepEqual(nodes, cli.layers.map((l) => `layer-${l.index}`));
  // the route's inputs are edges into its node; a node clicks to its line
  const route = cli.layers.find((l) => l.type === "route" && l.line > 110);
  await page.click(`#graph svg g#layer-${route.index}`);
  const line = await page.evaluate(() => window.dnlint.cursorLine());
  assert.equal(line, route.line);
  // an edit that changes no layer keeps the table and graph drawn; one that does redraws them
  await page.evaluate(() => { document.querySelector("#layers table").dataset.kept = "1";
    document.querySelector("#graph svg").dataset.kept = "1"; });
  await setText(text + "# a comment\n");
  await settled();
  assert.equal(await page.locator("#layers table[data-kept] tr[data-index]").count(), rows.length);
  assert.equal(await page.locator("#graph svg[data-kept] g.node[id^=layer-]").count(), nodes.length);
  await setText(text.replace("filters=24", "filters=30"));
  await settled();
  assert.equal(await page.locator("#layers table[data-kept]").count(), 0);
  assert.equal(await page.locator("#graph svg[data-kept]").count(), 0);
  assert.equal(await page.locator("#graph svg g.node[id^=layer-]").count(), nodes.length);
});

test("choices: dialect and target give the command's findings for them", async () => {
  await setText(TINY);
  await page.selectOption("select[name=dialect]", "pjreddie");
  await page.check("input[name=target][value=opencv]");
  await settled();
  assert.deepEqual(await shown(), expected(TINY, "model.cfg",
    ["--dialect", "pjreddie", "--target", "opencv"]));
  assert.match(await page.textContent("#dialect-reason"), /pjreddie/);
});

test("a share link restores the text and the choices", async () => {
  const text = "[net]\r\nwidth=32\nheight=32\nchannels=3\n\n[convolutional]\nfilter=3\n";
  await setText(text);
  await settled();
  const other = await context.newPage();
  try {
    await page.click("[data-action=share]");
    // the link is written once the text is compressed (CompressionStream is asynchronous)
    await page.waitForFunction(() => document.querySelector("#share-link").value !== "",
      null, { timeout: STEP_MS });
    const link = await page.inputValue("#share-link");
    assert.match(link, /#cfg=[A-Za-z0-9_-]+&dialect=pjreddie&target=opencv$/);
    await other.goto(link);
    await other.waitForSelector("#status[data-state=ready]", { timeout: LOAD_MS });
    assert.equal(await other.evaluate(() => window.dnlint.getText()), text);
    assert.equal(await other.inputValue("select[name=dialect]"), "pjreddie");
    assert.equal(await other.isChecked("input[name=target][value=opencv]"), true);
    assert.deepEqual(await shown(other), expected(text, "model.cfg",
      ["--dialect", "pjreddie", "--target", "opencv"]));
    assert.ok((await shown(other)).some((f) => f[0] === "DN013"), "the CR was lost");
  } finally {
    // the later tests start from the default choices even when this one fails
    await other.close();
    await page.selectOption("select[name=dialect]", "auto");
    await page.uncheck("input[name=target][value=opencv]");
  }
});

test("bad files: binary junk, UTF-16, a 5 MB cfg, a huge weights file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "dnlint-e2e-"));
  const files = {
    "junk.cfg": Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256)),
    "utf16.cfg": Buffer.from("\ufeff[net]\nwidth=32\nheight=32\n", "utf16le"),
    // 5 MB: 62,000 comment lines and 2,000 layers (the worker test lints 150,000 layers)
    "big.cfg": Buffer.from("[net]\nwidth=64\nheight=64\nchannels=3\n" +
      `#${"x".repeat(78)}\n`.repeat(62_000) + "[convolutional]\nfilters=8\nsize=1\n".repeat(2000) +
      "[route]\nlayers=-999999\n"),
  };
  for (const [name, data] of Object.entries(files)) {
    writeFileSync(join(dir, name), data);
    await page.setInputFiles("#open", join(dir, name));
    await page.waitForFunction((n) => document.querySelector("#filename").textContent === n,
      name, { timeout: STEP_MS });
    await page.waitForSelector("#status[data-state=ready]", { timeout: STEP_MS * 2 });
    assert.deepEqual(await shown(), expected(data, name), name);
    assert.ok((await shown()).length > 0, name);
  }
  // the editor keeps taking keys while the 5 MB cfg is linted
  const started = Date.now();
  await page.click(".cm-content");
  await page.keyboard.press("Control+End");
  await page.keyboard.type("#x");
  assert.ok(Date.now() - started < 5000, "typing waited for the lint");
  await page.waitForSelector("#status[data-state=ready]", { timeout: STEP_MS * 2 });
  await page.waitForSelector("#layers[data-state=ready]", { timeout: STEP_MS * 2 });
  // a long network: its first rows, the rest on demand; its graph on demand
  assert.equal(await page.locator("#layers tr[data-index]").count(), 500);
  assert.match(await page.textContent("#graph"), /Draw the graph of 2,001 layers/);
  await page.click("#layers button");
  await page.waitForFunction(() => document.querySelectorAll("#layers tr[data-index]").length === 2001,
    null, { timeout: STEP_MS * 2 });
  // a 3 GiB weights file beside the cfg: judged by its size and first bytes only
  await setText(TINY);
  await settled();
  const weights = join(dir, "tiny.weights");
  const fd = openSync(weights, "w");
  writeSync(fd, Buffer.from([0, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
  ftruncateSync(fd, 3 * 1024 ** 3);
  closeSync(fd);
  await page.setInputFiles("#open", weights);
  await page.waitForSelector("#findings li[data-code=DN516]", { timeout: STEP_MS });
  await settled(); // the verdict comes with the table
  assert.match(await page.textContent("#weights"), /3,221,225,472 bytes/);
  await page.click(".chip button");
  await settled();
});

test("a dropped obj.data and names file are checked against the heads", async () => {
  await setText(TINY);
  await settled();
  const dir = mkdtempSync(join(tmpdir(), "dnlint-e2e-data-"));
  writeFileSync(join(dir, "obj.data"), "classes=3\nnames=data/obj.names\n");
  writeFileSync(join(dir, "obj.names"), "a\nb\n");
  await page.setInputFiles("#open", [join(dir, "obj.data"), join(dir, "obj.names")]);
  await page.waitForSelector("#findings li[data-code=DN413]", { timeout: STEP_MS });
  await settled();
  assert.deepEqual(await shown(), [["DN413", "95", "error"], ["DN413", "137", "error"]]);
  assert.match(await page.textContent("#findings"), /classes=3 here but data\/obj.names has 2 names/);
  for (let i = 0; i < 2; i++) await page.click(".chip button");
  await settled();
  assert.deepEqual(await shown(), []);
});

test("nothing but the site's own files was requested; the page looks right", async () => {
  await setText(TINY.replace("mask=3,4,5", "mask=3,4,5,").replaceAll("classes=3", "classes=5"));
  await settled();
  await page.click("#findings li[data-code=DN209] .where"); // its underline in view
  mkdirSync(dirname(SCREENSHOT), { recursive: true });
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
  assert.deepEqual(foreign, []);
  assert.deepEqual(problems, []);
});
