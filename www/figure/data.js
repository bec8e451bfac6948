// The page's committed data files (www/data/*.json: a command's output with the command and
// the commit it ran at): inlined in the single-file build, fetched otherwise, each once.
const cache = new Map();

/** The parsed contents of www/data/`name`.json. */
export function data(name) {
  if (!cache.has(name)) {
    cache.set(
      name,
      (async () => {
        const inline = globalThis.MIDPOINT_INLINE?.data?.[name];
        if (inline !== undefined) return JSON.parse(inline);
        const url = new URL(`../data/${name}.json`, import.meta.url);
        const res = await fetch(url);
        if (!res.ok) throw new Error(`${url} answered ${res.status}`);
        return res.json();
      })(),
    );
  }
  return cache.get(name);
}
