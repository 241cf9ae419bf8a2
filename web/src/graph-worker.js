// Renders dnlint's DOT graph to SVG with Graphviz (viz.js, WebAssembly) off the page's
// thread, so that a long network's layout never blocks typing.
import { instance } from "@viz-js/viz";

const viz = instance();

self.onmessage = async ({ data }) => {
  try {
    // Graphviz measures text with the metrics of the fonts it knows: Courier is the monospace
    // one (the page's CSS draws it in the browser's monospace, of the same width)
    const dot = data.dot.replaceAll('fontname="monospace"', 'fontname="Courier"');
    const svg = (await viz).renderString(dot, { format: "svg", engine: "dot" });
    postMessage({ id: data.id, svg });
  } catch (error) {
    postMessage({ id: data.id, error: String(error && error.message || error) });
  }
};
