// The worker's lint in Node, with the same Pyodide and the same wheel as the page: every
// rule's cfg examples and the bad inputs give exactly the dnlint command's findings (run
// under CPython from the checkout at test time), under Python 3.14.
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadPyodide } from "pyodide";
import { lintOptions, source, startPython } from "../src/python.js";
import { decodeShare, encodeShare, fromBase64url, toBase64url } from "../src/share.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { builtWheels, cliFindings, cpython, ROOT, WEB, withoutFaceKeys } from "./helpers.mjs";

const started = startPython(loadPyodide, {}, builtWheels());

function lint(python, face, request, options) {
  // as the worker does: the face's JSON text, so that None is null as in the CLI's JSON
  return JSON.parse(face.lint_json(source(python, request), request.path,
    lintOptions(python, options)));
}

test("the page's Python is 3.14 and imports neither numpy, click nor rich", async () => {
  const { python, face } = await started;
  lint(python, face, { text: "[net]\n", path: "model.cfg" }, { targets: ["opencv"] });
  assert.equal(python.runPython("import sys; '%d.%d' % sys.version_info[:2]"), "3.14");
  const loaded = python.runPython(
    "import sys; ','.join(sorted({m.split('.')[0] for m in sys.modules} & {'numpy', 'click', 'rich'}))");
  assert.equal(loaded, "");
});

test("the page's options: null means the default, limits cut long tables", async () => {
  const { python, face } = await started;
  const text = "[net]\nwidth=32\nheight=32\nchannels=3\n" +
    "[convolutional]\nfilters=8\nsize=1\n".repeat(4);
  const all = lint(python, face, { text, path: "model.cfg" },
    { max_rows: null, max_graph: null, gpu_memory: null, dialect: null });
  assert.deepEqual([all.layers.count, all.layers.rows.length, typeof all.graph], [4, 4, "string"]);
  assert.equal(all.layers.rows[0].memory.gpu_infer > 0, true);
  const cut = lint(python, face, { text, path: "model.cfg" }, { max_rows: 2, max_graph: 3 });
  assert.deepEqual([cut.layers.count, cut.layers.rows.length, cut.graph], [4, 2, null]);
  assert.equal(cut.layers.rows[1].memory, null);
  assert.deepEqual(cut.layers.rows.map((r) => r.output), all.layers.rows.slice(0, 2).map((r) => r.output));
});

test("the details after a findings-only lint are that run's table and graph", async () => {
  const { python, face } = await started;
  const text = "[net]\nwidth=32\nheight=32\nchannels=3\n" +
    "[convolutional]\nfilters=8\nsize=1\n".repeat(4);
  const all = lint(python, face, { text, path: "model.cfg" }, { max_rows: 3 });
  const quick = lint(python, face, { text, path: "model.cfg" }, { layers: false, graph: false });
  assert.deepEqual([quick.layers, quick.graph, quick.findings], [null, null, all.findings]);
  const details = JSON.parse(face.details_json(lintOptions(python, { max_rows: 3 })));
  assert.deepEqual(details, { layers: all.layers, graph: all.graph, weights: all.weights });
  assert.equal(details.layers.rows.length, 3);
  assert.equal(face.details_json(), "null"); // given once
});

test("every rule example and bad input: exactly the command's findings", async () => {
  const { python, face } = await started;
  const cases = JSON.parse(cpython([join(WEB, "test", "cli_cases.py")]));
  assert.ok(cases.length > 500, `only ${cases.length} cases`);
  for (const c of cases) {
    const bytes = Uint8Array.from(Buffer.from(c.data, "base64"));
    const report = lint(python, face, { bytes, path: c.path }, { ...c.options, layers: false,
      graph: false });
    assert.deepEqual(withoutFaceKeys(report.findings), c.findings, c.name);
  }
});

test("a weights file is judged by its size and first bytes", async () => {
  const { python, face } = await started;
  const tiny = readFileSync(join(ROOT, "fixtures", "examples", "tiny-detector.cfg"), "utf8");
  const head = new Uint8Array(20);
  head.set([0, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0]);
  const size = 250 * 1024 * 1024;
  const report = lint(python, face, { text: tiny, path: "tiny.cfg" },
    { weights: [{ name: "tiny.weights", size, head }] });
  assert.deepEqual(report.findings.map((f) => [f.code, f.path, f.line, f.from]),
    [["DN516", "tiny.weights", null, null]]);
  assert.equal(report.weights.actual_bytes, size);
  assert.equal(report.weights.expected_bytes, 3244692);
  assert.equal(report.findings[0].message, "262,144,000 bytes, but load_weights reads " +
    "3,244,692 (alexeyab, 20-byte header): 258,899,308 bytes (64,724,827 floats) left over " +
    "from byte 3,244,692");
});

test("fixes: one finding's edits, and fix all safe as dnlint --fix", async () => {
  const { python, face } = await started;
  const text = "[net]\nwidth=32\nheight=32\nchannels=3\nsteps=10,20,\n\n[convolutional]\nfilters=16\nsize=3\n";
  const report = lint(python, face, { text, path: "model.cfg" }, {});
  const comma = report.findings.find((f) => f.code === "DN209");
  assert.deepEqual(comma.fix, { applicability: "safe",
    edits: [{ start: 42, end: 48, content: "10,20" }] });
  assert.equal(text.slice(comma.from, comma.to), ",");
  const fixed = face.apply_fix(text, python.toPy(comma.fix.edits));
  assert.equal(fixed, text.replace("10,20,", "10,20"));
  const all = JSON.parse(face.fix_all_json(text, "model.cfg", lintOptions(python, {}), false));
  const cli = cpython(["-m", "dnlint", "--no-config", "--fix", "--exit-zero",
    "--stdin-filename", "model.cfg", "-"], text);
  assert.equal(all.text, cli);
  assert.deepEqual(cliFindings(text, "model.cfg"), withoutFaceKeys(report.findings));
});

test("share links: unpadded base64url of deflate-raw UTF-8, options after the text", async () => {
  const hash = await encodeShare({ text: "[net]\r\nwidth=32 # é\n", dialect: "hank",
    targets: ["opencv", "hank-onnx"], recipe: true, gpuMemory: "8G", path: "" });
  assert.match(hash, /^#cfg=[A-Za-z0-9_-]+&dialect=hank&target=opencv&target=hank-onnx&recipe=1&gpu-memory=8G$/);
  assert.deepEqual(await decodeShare(hash), { text: "[net]\r\nwidth=32 # é\n", dialect: "hank",
    targets: ["opencv", "hank-onnx"], recipe: true, gpuMemory: "8G", path: "" });
  // a link made by the first version of the page: it must open in every later one
  const old = "#cfg=i85LLYnlKs9MKcmwNTbiykjNTM8oAbG4opPz88ryc0pLMvPzEnNiudIyc0pSi2yNuQA&dialect=alexeyab&target=opencv";
  assert.deepEqual(await decodeShare(old), { text: "[net]\nwidth=32\nheight=32\n\n[convolutional]\nfilter=3\n",
    dialect: "alexeyab", targets: ["opencv"], recipe: false, gpuMemory: "", path: "" });
  assert.deepEqual(fromBase64url(toBase64url(Uint8Array.of(251, 255, 0))), Uint8Array.of(251, 255, 0));
  assert.equal(await decodeShare("#dialect=hank"), null);
  await assert.rejects(decodeShare("#cfg=not*base64"), /not base64url/);
});
