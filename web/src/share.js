// Share links: the text and the choices in the URL fragment, never sent to any server.
//
//   #cfg=<base64url, unpadded, of the deflate-raw compressed UTF-8 bytes of the text>
//    &dialect=<auto|pjreddie|alexeyab|hank>&target=<name> (repeated) &recipe=1
//    &gpu-memory=<size> &path=<file name>
//
// cfg comes first; every key after it is optional and an unknown key is ignored, so a link
// made today opens in every later version of the page (docs/web.md).

async function pipe(bytes, transform) {
  const stream = new Blob([bytes]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export function toBase64url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export function fromBase64url(text) {
  const plain = text.replaceAll("-", "+").replaceAll("_", "/");
  const binary = atob(plain + "=".repeat((4 - (plain.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export async function encodeShare({ text, dialect, targets = [], recipe, gpuMemory, path }) {
  const packed = await pipe(new TextEncoder().encode(text), new CompressionStream("deflate-raw"));
  const parts = [`cfg=${toBase64url(packed)}`];
  if (dialect) parts.push(`dialect=${encodeURIComponent(dialect)}`);
  for (const target of targets) parts.push(`target=${encodeURIComponent(target)}`);
  if (recipe) parts.push("recipe=1");
  if (gpuMemory) parts.push(`gpu-memory=${encodeURIComponent(gpuMemory)}`);
  if (path) parts.push(`path=${encodeURIComponent(path)}`);
  return "#" + parts.join("&");
}

// the state a fragment holds, or null when it holds no cfg= (throws on a damaged link)
export async function decodeShare(fragment) {
  const params = new URLSearchParams(fragment.replace(/^#/, ""));
  const cfg = params.get("cfg");
  if (cfg === null) return null;
  if (!/^[A-Za-z0-9_-]*$/.test(cfg)) throw new Error("the link's cfg= is not base64url");
  const bytes = await pipe(fromBase64url(cfg), new DecompressionStream("deflate-raw"));
  return {
    text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes),
    dialect: params.get("dialect") || "auto",
    targets: params.getAll("target"),
    recipe: params.get("recipe") === "1",
    gpuMemory: params.get("gpu-memory") || "",
    path: params.get("path") || "",
  };
}
