// The lint worker: loads Pyodide and dnlint's wheel from the site itself, then lints what
// the page sends. Python runs synchronously here, so a lint cannot be interrupted; instead
// only the newest queued request runs (older ones are dropped) and the page discards any
// result that is not for its current text.
import { lintOptions, source, startPython } from "./python.js";

let face = null;
let python = null;
let latest = null; // the newest lint not yet run: it replaces an older one
const jobs = []; // fixes, run in order before the lint
let scheduled = false;
let mounts = 0;
let lints = 0; // lints run so far: the details belong to the newest
// the page answers findings with the next text at once: wait that long before the table
// and graph, which a newer text makes useless
const DETAILS_DELAY_MS = 30;

const base = new URL("../", self.location.href).href; // the site's root (assets/..)

async function start() {
  try {
    if (typeof WebAssembly !== "object") throw new Error("this browser has no WebAssembly");
    const { loadPyodide } = await import(/* @vite-ignore */ base + "pyodide/pyodide.mjs");
    const index = await (await fetch(base + "wheels/index.json")).json();
    const wheels = await Promise.all(index.wheels.map(async (name) =>
      new Uint8Array(await (await fetch(base + "wheels/" + name)).arrayBuffer())));
    ({ python, face } = await startPython(loadPyodide, { indexURL: base + "pyodide/" }, wheels));
    const version = python.runPython("import sys; '%d.%d.%d' % sys.version_info[:3]");
    postMessage({ type: "ready", version: face.version(), python: version,
      pyodide: python.version });
  } catch (error) {
    postMessage({ type: "failed", message: String(error && error.message || error) });
  }
}

// a dropped .weights file: mounted read-only so that the check reads its size and first
// bytes only (WORKERFS reads the slices asked for, never the whole file)
function weightsEntry({ file, head }) {
  const FS = python.FS;
  const workerfs = FS.filesystems && FS.filesystems.WORKERFS;
  if (workerfs && typeof file.slice === "function") {
    const dir = `/weights-${++mounts}`;
    FS.mkdir(dir);
    FS.mount(workerfs, { files: [file] }, dir);
    return { entry: { path: `${dir}/${file.name}` }, dir };
  }
  return { entry: { name: file.name, size: file.size, head }, dir: null };
}

// Python objects made here are released at once: a 5 MB file linted on every key must not
// pile up in Python's memory
function release(...proxies) {
  for (const proxy of proxies) if (proxy && typeof proxy.destroy === "function") proxy.destroy();
}

function call(method, ...args) {
  try { return JSON.parse(method(...args)); } finally { release(...args); }
}

function unmount(dirs) {
  for (const dir of dirs) {
    try { python.FS.unmount(dir); python.FS.rmdir(dir); } catch { /* already gone */ }
  }
}

// findings first, then (unless a newer request is already waiting) the table, the graph and
// the weights verdict of that same run: the face keeps the run's network for them, so the
// text is linted once
function lint(request) {
  const { id, path } = request;
  const mounted = [];
  const options = { ...request.options };
  options.weights = (request.weights || []).map((file) => {
    const { entry, dir } = weightsEntry(file);
    if (dir) mounted.push(dir);
    return entry;
  });
  try {
    const quick = { ...options, layers: false, graph: false };
    const findings = call(face.lint_json, source(python, request), path,
      lintOptions(python, quick));
    postMessage({ type: "findings", id, ...findings });
  } finally {
    unmount(mounted); // the run has read what it needs of them
  }
  const run = ++lints; // the face keeps the last lint's run only: a later lint's is not ours
  setTimeout(() => {
    try {
      if (run !== lints || latest || jobs.length) return; // the next lint gives its own
      const { max_rows, max_graph } = options;
      const details = call(face.details_json, lintOptions(python, { max_rows, max_graph }));
      if (details) postMessage({ type: "details", id, ...details });
    } catch (error) {
      postMessage({ type: "error", request: "lint", id, message: lastLine(error) });
    }
  }, DETAILS_DELAY_MS);
}

function run(request) {
  const { type, id } = request;
  try {
    if (type === "lint") {
      lint(request);
    } else if (type === "fix-all") {
      const fixed = call(face.fix_all_json, source(python, request), request.path,
        lintOptions(python, request.options), Boolean(request.unsafe));
      postMessage({ type: "fixed", id, ...fixed });
    } else if (type === "apply-fix") {
      const input = source(python, request);
      const edits = python.toPy(request.edits);
      try {
        const text = face.apply_fix(input, edits);
        postMessage({ type: "fixed", id, text, changed: true, fixed: 1 });
      } finally {
        release(input, edits);
      }
    }
  } catch (error) {
    postMessage({ type: "error", request: type, id, message: lastLine(error) });
  }
}

// a Python exception's message is its whole traceback: the page shows its last line
function lastLine(error) {
  const lines = String(error && error.message || error).trim().split("\n");
  return lines[lines.length - 1];
}

function drain() {
  scheduled = false;
  while (jobs.length) run(jobs.shift());
  const request = latest;
  latest = null;
  if (request) run(request);
}

function schedule() {
  if (face && !scheduled && (latest || jobs.length)) {
    scheduled = true;
    setTimeout(drain, 0);
  }
}

self.onmessage = ({ data }) => {
  if (data.type === "lint") latest = data; // an older queued lint is dropped
  else jobs.push(data);
  schedule();
};

start().then(schedule);
