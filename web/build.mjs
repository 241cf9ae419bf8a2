// Builds the static site into web/dist/: the page and its scripts (esbuild), the Pyodide
// runtime from the pinned npm package, dnlint's pure wheel built from this checkout
// (DNLINT_PURE=1) and the examples. Everything the page loads comes from dist/ itself.
//
//   npm --prefix web ci && npm --prefix web run build
//
// PYTHON: the interpreter that builds the wheel (default python3); DNLINT_WHEEL: use this
// already built py3-none-any wheel instead of building one.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync,
  writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const WEB = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(WEB);
const DIST = join(WEB, "dist");
const PYODIDE = join(WEB, "node_modules", "pyodide");
// the runtime: the loader, the interpreter and the standard library (no package wheels)
const RUNTIME = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
  "pyodide-lock.json"];

function wheel() {
  const out = join(DIST, "wheels");
  mkdirSync(out, { recursive: true });
  if (process.env.DNLINT_WHEEL) {
    copyFileSync(process.env.DNLINT_WHEEL, join(out, basename(process.env.DNLINT_WHEEL)));
  } else {
    const env = { ...process.env, DNLINT_PURE: "1", DNLINT_REQUIRE_COMPILED: "" };
    execFileSync(process.env.PYTHON || "python3",
      ["-m", "pip", "wheel", "-q", "--no-deps", "-w", out, ROOT], { env, stdio: "inherit" });
  }
  const built = readdirSync(out).filter((n) => /^dnlint-.*-py3-none-any\.whl$/.test(n));
  if (built.length !== 1) throw new Error(`expected one pure dnlint wheel, got ${built}`);
  return built;
}

// the bundled example and broken variants of it, one click away
function examples() {
  const tiny = readFileSync(join(ROOT, "fixtures/examples/tiny-detector.cfg"), "utf8");
  const variants = [
    ["tiny-detector.cfg", "The bundled example (two heads, 3 classes)", tiny],
    ["classes-changed.cfg", "Classes changed to 5, filters left at 24",
      tiny.replaceAll("classes=3", "classes=5")],
    ["bad-route.cfg", "A route to a layer that does not exist",
      tiny.replace("layers=-1,8", "layers=-1,80")],
    ["trailing-comma.cfg", "A trailing comma in a mask", tiny.replace("mask=3,4,5", "mask=3,4,5,")],
    ["broken.cfg", "Several mistakes at once",
      readFileSync(join(ROOT, "fixtures/examples/broken.cfg"), "utf8")],
  ];
  for (const [, , text] of variants.slice(1, 4)) {
    if (text === tiny) throw new Error("an example variant no longer changes the example");
  }
  return variants.map(([name, title, text]) => ({ name, title, text }));
}

async function main() {
  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(join(DIST, "pyodide"), { recursive: true });
  for (const name of RUNTIME) copyFileSync(join(PYODIDE, name), join(DIST, "pyodide", name));
  const wheels = wheel();
  const version = JSON.parse(readFileSync(join(PYODIDE, "package.json"), "utf8")).version;
  writeFileSync(join(DIST, "wheels", "index.json"),
    JSON.stringify({ wheels, pyodide: version }, null, 2) + "\n");
  writeFileSync(join(DIST, "examples.json"), JSON.stringify(examples(), null, 2) + "\n");
  await build({
    entryPoints: { main: join(WEB, "src/main.js"), worker: join(WEB, "src/worker.js"),
      graph: join(WEB, "src/graph-worker.js"), sw: join(WEB, "src/sw.js") },
    bundle: true, format: "esm", minify: true, sourcemap: false, target: ["es2022"],
    outdir: join(DIST, "assets"), logLevel: "warning", legalComments: "linked",
  });
  // the service worker must sit at the site's root to cache the whole site
  cpSync(join(DIST, "assets", "sw.js"), join(DIST, "sw.js"));
  rmSync(join(DIST, "assets", "sw.js"));
  copyFileSync(join(WEB, "src/index.html"), join(DIST, "index.html"));
  copyFileSync(join(WEB, "src/style.css"), join(DIST, "assets", "style.css"));
  writeFileSync(join(DIST, ".nojekyll"), "");
  if (!existsSync(join(DIST, "assets", "main.js"))) throw new Error("the bundle is missing");
  console.log(`web/dist: dnlint wheel ${wheels[0]}, Pyodide ${version}`);
}

await main();
