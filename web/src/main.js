// The page: a CodeMirror editor whose text the worker lints as dnlint does, the findings,
// the fixes, the choices, the layer table and the graph. The stable surface that tests and
// users rely on is listed in docs/web.md.
import { EditorState } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, highlightSpecialChars, keymap,
  lineNumbers } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import { decodeShare, encodeShare } from "./share.js";

const TYPED = "model.cfg"; // what typed or pasted text is linted as
// changes of one task (a paste, a fix) are one lint; while a lint runs, the keys typed meanwhile
// are one lint after it (sendLint), so no fixed delay is added to a keystroke
const DEBOUNCE_MS = 0;
const MAX_ROWS = 500; // layer rows shown before "show all"
const MAX_GRAPH = 300; // layers drawn without asking
const MAX_CFG_BYTES = 64 * 1024 * 1024; // a bigger file is not read (the CLI reads 64 MiB)
const MAX_TEXT_BYTES = 8 * 1024 * 1024; // a .data or .names file

const $ = (selector) => document.querySelector(selector);
const state = {
  path: TYPED,
  bytes: null, // an opened file's bytes, linted as they are until the text is edited
  version: 0, // the text and choices: bumped on every change, results of an older one dropped
  sent: -1, // the version of the lint in flight, or -1
  timer: 0,
  queued: false, // a lint is to be posted at the end of this task
  programmatic: false,
  result: null,
  rows: null,
  rowsAll: false,
  graphAll: false,
  dot: null,
  dotDrawn: null, // the DOT of the graph drawn
  layersDrawn: undefined, // the JSON of the layer table drawn
  weights: [], // {file, head}
  data: null, // {name, text}
  names: null,
  fixing: 0,
  ready: false,
};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function setStatus(phase, text) {
  const status = $("#status");
  status.dataset.state = phase;
  status.textContent = text;
}

// --- the worker ------------------------------------------------------------------------------
let worker = null;
function startWorker() {
  if (typeof Worker !== "function" || typeof WebAssembly !== "object") {
    setStatus("failed", "This browser cannot run dnlint: it has no Web Workers or WebAssembly.");
    return;
  }
  worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  worker.onmessage = ({ data }) => handlers[data.type]?.(data);
  worker.onerror = (event) => setStatus("failed",
    `This browser cannot run dnlint here: ${event.message || "the worker did not start"}.`);
}

const handlers = {
  ready(data) {
    state.ready = true;
    $("#version").textContent = `dnlint ${data.version}, Python ${data.python} (Pyodide ${data.pyodide})`;
    lintSoon(0);
  },
  failed(data) {
    setStatus("failed", `This browser cannot run dnlint here: ${data.message}`);
  },
  findings(data) {
    if (data.id === state.sent) state.sent = -1;
    if (data.id !== state.version) { lintSoon(0); return; } // an older text: dropped
    state.result = data;
    showFindings(data);
  },
  details(data) {
    if (data.id !== state.version) return;
    showLayers(data.layers);
    showGraph(data.graph, data.layers);
    showWeights(data.weights);
  },
  fixed(data) {
    if (data.id !== state.fixing) return;
    state.fixing = 0;
    if (data.changed) setText(data.text, { keepPath: true });
    else setStatus("ready", "Nothing to fix: no safe fix applies.");
  },
  error(data) {
    if (data.request === "lint") {
      if (data.id === state.sent) state.sent = -1;
      if (data.id !== state.version) { lintSoon(0); return; }
    } else if (data.id === state.fixing) {
      state.fixing = 0;
    } else {
      return;
    }
    setStatus("failed", `dnlint failed on this text: ${data.message}`);
    for (const box of ["#layers", "#graph"]) $(box).dataset.state = "ready";
  },
};

function choices() {
  const form = $("#choices");
  return {
    dialect: form.elements.dialect.value,
    targets: [...form.querySelectorAll("input[name=target]:checked")].map((i) => i.value),
    recipe: form.elements.recipe.checked,
    gpu_memory: form.elements.gpu_memory.value.trim() || null,
    data: state.data,
    names: state.data ? state.names : null,
  };
}

// with no delay the lint is posted at the end of the current task (a microtask), before the
// browser lays out and paints the edit: a timer would wait for that frame, tens of ms on a
// long text, before the worker even has the text
function lintSoon(delay = DEBOUNCE_MS) {
  clearTimeout(state.timer);
  state.timer = 0;
  if (delay > 0) {
    state.timer = setTimeout(sendLint, delay);
  } else if (!state.queued) {
    state.queued = true;
    queueMicrotask(() => { state.queued = false; sendLint(); });
  }
}

function sendLint() {
  if (!state.ready || state.sent !== -1) return; // the answer in flight sends the next one
  const request = { type: "lint", id: state.version, path: state.path,
    options: { ...choices(), max_rows: state.rowsAll ? null : MAX_ROWS,
      max_graph: state.graphAll ? null : MAX_GRAPH },
    weights: state.weights };
  if (state.bytes) request.bytes = state.bytes;
  else request.text = view.state.doc.toString();
  state.sent = state.version;
  worker.postMessage(request);
}

function changed() {
  state.version += 1;
  if (state.ready) setStatus("pending", "Linting…");
  $("#layers").dataset.state = "pending";
  $("#graph").dataset.state = "pending";
  lintSoon();
}

// --- the editor ------------------------------------------------------------------------------
const view = new EditorView({
  parent: $("#editor"),
  state: EditorState.create({
    doc: "",
    extensions: [
      EditorState.lineSeparator.of("\n"), // keep CR characters: dnlint reports them (DN013)
      lineNumbers(), highlightSpecialChars(), history(), drawSelection(), highlightActiveLine(),
      keymap.of([...defaultKeymap, ...historyKeymap]), lintGutter(),
      EditorView.lineWrapping,
      EditorView.updateListener.of((update) => {
        if (!update.docChanged) return;
        if (!state.programmatic) state.bytes = null; // edited: lint the editor's UTF-8 text
        changed();
      }),
    ],
  }),
});

function setText(text, { path = null, keepPath = false } = {}) {
  state.programmatic = true;
  try {
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
  } finally {
    state.programmatic = false;
  }
  state.bytes = null;
  if (!keepPath) {
    state.path = path || TYPED;
    state.rowsAll = state.graphAll = false; // a new document: its long table on demand again
  }
  $("#filename").textContent = state.path;
}

function gotoLine(line, from = null, to = null) {
  if (!line) return;
  const doc = view.state.doc;
  const at = doc.line(Math.min(Math.max(line, 1), doc.lines));
  const start = from !== null && from <= doc.length ? from : at.from;
  const end = to !== null && to <= doc.length && to >= start ? to : start;
  view.dispatch({ selection: { anchor: start, head: end }, scrollIntoView: true });
  view.focus();
}

// --- findings --------------------------------------------------------------------------------
function describe(finding, rules) {
  const box = el("div", { class: "finding-detail" },
    el("div", {}, el("strong", {}, finding.code), ` ${finding.name} · ${finding.severity}`),
    el("div", {}, finding.message));
  if (finding.hint) box.append(el("div", { class: "hint" }, `hint: ${finding.hint}`));
  if (finding.fix) box.append(el("div", { class: "fixable" }, `fix: ${finding.fix.applicability}`));
  const text = rules[finding.code];
  if (text) {
    box.append(el("details", {}, el("summary", {}, "Explain (as dnlint --explain)"),
      el("pre", {}, text)));
  }
  return box;
}

function showFindings(result) {
  const doc = view.state.doc;
  const clamp = (n) => Math.min(Math.max(n, 0), doc.length);
  const diagnostics = result.findings.filter((f) => f.from !== null && f.from !== undefined).map((f) => ({
    from: clamp(f.from),
    to: clamp(Math.max(f.to ?? f.from, f.from)),
    severity: f.severity,
    source: f.code,
    message: `${f.code}: ${f.message}`,
    renderMessage: () => describe(f, result.rules),
    actions: f.fix ? [{ name: f.fix.applicability === "safe" ? "Fix" : "Fix (unsafe)",
      apply: () => applyFix(f) }] : [],
  }));
  view.dispatch(setDiagnostics(view.state, diagnostics));

  const list = $("#findings");
  list.replaceChildren(...result.findings.map((f) => {
    const where = f.line ? `${f.path ? f.path + " " : ""}${f.line}:${f.column ?? 1}` :
      f.byte_offset != null ? `${f.path || ""} byte ${f.byte_offset.toLocaleString()}` :
        (f.path || "file");
    const item = el("li", { class: `severity-${f.severity}`,
      dataset: { code: f.code, line: f.line ?? "", severity: f.severity },
      onclick: (event) => { // the item clicks to its line; its buttons and details do their own
        if (!event.target.closest("button, details")) gotoLine(f.line, f.from, f.to);
      } },
    el("button", { type: "button", class: "where", onclick: () => gotoLine(f.line, f.from, f.to) },
      `${f.code} ${where}`),
    el("span", { class: "message" }, ` ${f.message}`));
    if (f.hint) item.append(el("div", { class: "hint" }, f.hint));
    if (f.fix) {
      item.append(el("button", { type: "button", class: `fix fix-${f.fix.applicability}`,
        dataset: { action: "fix", applicability: f.fix.applicability },
        title: f.fix.applicability === "safe" ? "the edit dnlint --fix makes" :
          "the edit dnlint --fix --unsafe-fixes makes: check its intent",
        onclick: () => applyFix(f) }, f.fix.applicability === "safe" ? "Fix" : "Fix (unsafe)"));
    }
    const text = result.rules[f.code];
    if (text) item.append(el("details", {}, el("summary", {}, "explain"), el("pre", {}, text)));
    return item;
  }));
  const count = (s) => result.findings.filter((f) => f.severity === s).length;
  const summary = `${count("error")} errors, ${count("warning")} warnings, ${count("info")} infos`;
  $("#counts").textContent = summary;
  const reason = result.dialect ? `read as ${result.dialect}` +
    (choices().dialect === "auto" ? `: ${result.dialect_reason}` : "") : "";
  $("#dialect-reason").textContent = reason;
  setStatus("ready", `${summary}${result.dialect ? ` · ${result.dialect}` : ""}`);
}

function fixRequest(type, extra) {
  state.fixing = ++fixCounter;
  const request = { type, id: state.fixing, path: state.path, options: choices(), ...extra };
  if (state.bytes) request.bytes = state.bytes;
  else request.text = view.state.doc.toString();
  worker.postMessage(request);
}
let fixCounter = 0;

function applyFix(finding) {
  if (!state.result || state.result.id !== state.version) return; // not this text's finding
  fixRequest("apply-fix", { edits: finding.fix.edits });
}

// --- layers, graph, weights -----------------------------------------------------------------
const COLUMNS = ["#", "type", "what", "input", "output", "params", "BFLOPs", "GPU train",
  "weights at"];

function showLayers(layers) {
  const box = $("#layers");
  state.rows = layers ? layers.rows : null;
  // most keys leave the table as it was (a comment, a value that changes no shape): then the
  // table drawn stays, and the browser lays out and paints no new one
  const drawn = JSON.stringify(layers);
  if (drawn === state.layersDrawn) {
    box.dataset.state = "ready";
    return;
  }
  state.layersDrawn = drawn;
  if (!layers) {
    box.replaceChildren(el("p", {}, "No layer table: the cfg does not build a network."));
  } else {
    const table = el("table", {},
      el("thead", {}, el("tr", {}, ...COLUMNS.map((c) => el("th", {}, c)))),
      el("tbody", {}, ...layers.rows.map(row)));
    box.replaceChildren(table);
    if (layers.rows.length < layers.count) {
      box.append(el("button", { type: "button", onclick: () => { state.rowsAll = true; changed(); } },
        `Show all ${layers.count.toLocaleString()} layers (with their memory)`));
    }
    if (layers.expected_bytes) {
      box.append(el("p", {}, `A weights file for this cfg holds ` +
        `${layers.expected_bytes.toLocaleString()} bytes (what load_weights reads).`));
    }
  }
  box.dataset.state = "ready";
}

function row(layer) {
  const memory = layer.memory ? `${(layer.memory.gpu_train / 2 ** 20).toFixed(1)} MiB` : "";
  const cells = [layer.index, layer.type, layer.geometry, layer.input_text,
    layer.output.join(" x "), layer.params.toLocaleString(), layer.bflops.toFixed(3), memory,
    layer.load_offset == null ? "" : layer.load_offset.toLocaleString()];
  return el("tr", { class: layer.broken ? "broken" : null,
    dataset: { index: layer.index, line: layer.line }, onclick: () => gotoLine(layer.line) },
  ...cells.map((c) => el("td", {}, String(c))));
}

let graphWorker = null;
function showGraph(dot, layers) {
  const box = $("#graph");
  state.dot = dot;
  if (!dot) state.dotDrawn = null; // what replaces the graph below is drawn every time
  if (!dot && layers && layers.count > MAX_GRAPH && !state.graphAll) {
    box.replaceChildren(el("button", { type: "button", onclick: () => {
      state.graphAll = true; changed(); } },
    `Draw the graph of ${layers.count.toLocaleString()} layers`));
    box.dataset.state = "ready";
    return;
  }
  if (!dot) {
    box.replaceChildren(el("p", {}, "No graph: the cfg does not build a network."));
    box.dataset.state = "ready";
    return;
  }
  if (dot === state.dotDrawn) { // the graph shown is this text's already
    box.dataset.state = "ready";
    return;
  }
  state.dotDrawn = null;
  if (!graphWorker) {
    graphWorker = new Worker(new URL("./graph.js", import.meta.url), { type: "module" });
    graphWorker.onmessage = ({ data }) => drawGraph(data);
  }
  box.dataset.state = "pending";
  graphWorker.postMessage({ id: state.version, dot });
}

function drawGraph({ id, svg, error }) {
  if (id !== state.version) return;
  const box = $("#graph");
  if (error) {
    box.replaceChildren(el("p", {}, `The graph could not be drawn: ${error}`));
  } else {
    state.dotDrawn = state.dot;
    const parsed = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
    for (const node of parsed.querySelectorAll("g.node")) {
      const match = /^f\d+_(\d+)$/.exec(node.querySelector("title")?.textContent || "");
      if (!match) continue;
      const index = Number(match[1]);
      node.id = `layer-${index}`;
      node.dataset.index = index;
    }
    box.replaceChildren(document.importNode(parsed, true));
    // a node clicks to its layer's line
    for (const node of box.querySelectorAll("g.node[data-index]")) {
      const layer = state.rows?.[Number(node.dataset.index)];
      if (layer) node.addEventListener("click", () => gotoLine(layer.line));
    }
  }
  box.dataset.state = "ready";
}

function showWeights(weights) {
  const box = $("#weights");
  if (!weights) { box.replaceChildren(); box.hidden = true; return; }
  box.hidden = false;
  const header = weights.header ? `header ${weights.header.major}.${weights.header.minor}.` +
    `${weights.header.revision}, seen ${weights.header.seen.toLocaleString()}` : "no header";
  box.replaceChildren(el("h2", {}, `Weights: ${weights.path}`),
    el("p", {}, `${(weights.actual_bytes ?? 0).toLocaleString()} bytes; this cfg reads ` +
      `${weights.expected_bytes.toLocaleString()} · ${header} · ` +
      (weights.loadable ? "loads" : "does not load as it is")),
    ...(weights.differences || []).map((d) => el("p", { class: "hint" }, String(d))));
}

// --- files -----------------------------------------------------------------------------------
function decodeBytes(bytes) { // as web_face.display_text: UTF-16 by its BOM, else UTF-8
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes);
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
}

function note(text) { $("#file-note").textContent = text; }

async function openFiles(files) {
  const messages = [];
  for (const file of files) {
    const name = file.name;
    if (/\.weights$/i.test(name)) {
      // only the first kilobytes are read here; the worker reads no more
      const head = new Uint8Array(await file.slice(0, 65536).arrayBuffer());
      state.weights = [...state.weights.filter((w) => w.file.name !== name), { file, head }];
    } else if (/\.(data|names)$/i.test(name)) {
      if (file.size > MAX_TEXT_BYTES) { messages.push(`${name}: too large to be a ${name.split(".").pop()} file`); continue; }
      const entry = { name, text: await file.text() };
      if (/\.data$/i.test(name)) state.data = entry; else state.names = entry;
    } else if (file.size > MAX_CFG_BYTES) {
      messages.push(`${name}: ${file.size.toLocaleString()} bytes, too large to be a cfg (not read)`);
    } else {
      const bytes = new Uint8Array(await file.arrayBuffer());
      setText(decodeBytes(bytes), { path: name });
      state.bytes = bytes; // linted from its bytes, as the CLI reads the file
      changed();
    }
  }
  showCompanions();
  note(messages.join("; "));
  changed();
}

function showCompanions() {
  const box = $("#companions");
  const chip = (label, remove) => el("span", { class: "chip" }, label,
    el("button", { type: "button", title: "remove", onclick: () => { remove(); showCompanions();
      changed(); } }, "×"));
  box.replaceChildren(
    ...state.weights.map((w) => chip(`${w.file.name} (${w.file.size.toLocaleString()} bytes)`,
      () => { state.weights = state.weights.filter((x) => x !== w); })),
    ...(state.data ? [chip(state.data.name, () => { state.data = null; })] : []),
    ...(state.names ? [chip(state.names.name, () => { state.names = null; })] : []));
}

function dropped(event) {
  event.preventDefault();
  document.body.classList.remove("dragging");
  const items = [...(event.dataTransfer.items || [])];
  const folders = items.filter((i) => i.webkitGetAsEntry?.()?.isDirectory);
  const files = [...event.dataTransfer.files].filter((f) =>
    !folders.some((i) => i.getAsFile()?.name === f.name));
  if (folders.length) note("A folder cannot be linted here: drop the cfg, .weights, .data and .names files themselves.");
  if (files.length) openFiles(files).then(() => folders.length && note("A folder was skipped: drop its files."));
}

// --- share, examples -------------------------------------------------------------------------
async function share() {
  const c = choices();
  const hash = await encodeShare({ text: view.state.doc.toString(), dialect: c.dialect,
    targets: c.targets, recipe: c.recipe, gpuMemory: c.gpu_memory,
    path: state.path === TYPED ? "" : state.path });
  const link = location.href.replace(/#.*$/, "") + hash;
  const box = $("#share-link");
  box.value = link;
  box.hidden = false;
  box.select();
  try { await navigator.clipboard.writeText(link); note("Link copied."); } catch { /* shown */ }
}

async function openShared() {
  if (!location.hash.includes("cfg=")) return false;
  try {
    const shared = await decodeShare(location.hash);
    if (!shared) return false;
    const form = $("#choices");
    form.elements.dialect.value = shared.dialect;
    for (const box of form.querySelectorAll("input[name=target]")) {
      box.checked = shared.targets.includes(box.value);
    }
    form.elements.recipe.checked = shared.recipe;
    form.elements.gpu_memory.value = shared.gpuMemory;
    setText(shared.text, { path: shared.path || TYPED });
    return true;
  } catch (error) {
    note(`This link is damaged: ${error.message}`);
    return false;
  }
}

async function loadExamples() {
  const examples = await (await fetch("examples.json")).json();
  const select = $("#examples");
  select.append(...examples.map((e, i) => el("option", { value: i }, e.title)));
  select.addEventListener("change", () => {
    const example = examples[Number(select.value)];
    if (example) setText(example.text, { path: TYPED });
    select.value = "";
  });
  return examples;
}

// --- start -----------------------------------------------------------------------------------
async function start() {
  setStatus("loading", "Loading Python (Pyodide): the first load takes a few seconds…");
  startWorker();
  $("#choices").addEventListener("input", changed);
  $("#choices").addEventListener("submit", (e) => e.preventDefault());
  $("[data-action=fix-all]").addEventListener("click", () => {
    if (state.result && state.result.id === state.version) fixRequest("fix-all", {});
  });
  $("[data-action=share]").addEventListener("click", share);
  $("#open").addEventListener("change", (e) => openFiles([...e.target.files]));
  document.addEventListener("dragover", (e) => { e.preventDefault();
    document.body.classList.add("dragging"); });
  document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
  document.addEventListener("drop", dropped);
  window.addEventListener("hashchange", openShared);
  const examples = await loadExamples();
  if (!(await openShared())) setText(examples[0].text);
  if ("serviceWorker" in navigator && (location.protocol === "https:" ||
      ["localhost", "127.0.0.1"].includes(location.hostname))) {
    navigator.serviceWorker.register("sw.js").catch(() => { /* online only */ });
  }
}

window.dnlint = {
  getText: () => view.state.doc.toString(),
  setText: (text) => setText(String(text)), // as typed or pasted: linted as model.cfg
  get version() { return state.version; },
  // for tests: the line of the cursor (a clicked finding, row or graph node moves it)
  cursorLine: () => view.state.doc.lineAt(view.state.selection.main.head).number,
};

start();
