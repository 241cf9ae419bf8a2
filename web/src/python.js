// Starting Python with dnlint, shared by the page's worker and the Node test: Pyodide's
// runtime, then dnlint's pure wheel unpacked into site-packages (no micropip, no index: the
// wheel is read from the site itself, and nothing else is installed).
export async function startPython(loadPyodide, config, wheels) {
  const python = await loadPyodide({ ...config, packages: [], checkAPIVersion: true });
  wheels.forEach((bytes, i) => python.FS.writeFile(`/tmp/wheel-${i}.whl`, bytes));
  python.runPython(`
import sysconfig, zipfile
for i in range(${wheels.length}):
    with zipfile.ZipFile(f"/tmp/wheel-{i}.whl") as wheel:
        wheel.extractall(sysconfig.get_paths()["purelib"])
`);
  const face = python.pyimport("dnlint.web_face");
  return { python, face };
}

// the page's options as Python data; a null or undefined value is left out (the face's
// default), never passed as JavaScript's null
export function lintOptions(python, options) {
  return python.toPy(withoutNulls(options || {}), { depth: 4 });
}

function withoutNulls(value) {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === "object" && !ArrayBuffer.isView(value)) {
    return Object.fromEntries(Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [k, withoutNulls(v)]));
  }
  return value;
}

// what the face lints: the editor's text, or an opened file's bytes as Python bytes
export function source(python, request) {
  if (request.bytes) {
    const view = python.toPy(request.bytes);
    try { return view.tobytes(); } finally { view.destroy(); }
  }
  return request.text;
}
