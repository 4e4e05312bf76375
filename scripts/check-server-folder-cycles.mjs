/**
 * The one import rule dependency-cruiser cannot state (its `circular` sees files, and its folder
 * scope counts type-only imports): the server's folders (src/server/<folder>/) import each other
 * one way only. A folder that imports another which imports it back, directly or through others,
 * fails `npm run lint` (which runs this after dependency-cruiser), naming each loop and the imports
 * that make it.
 *
 * Only value imports count. An `import type` vanishes from the built server, so it cannot make one
 * folder's code load or run another's; such a back edge is allowed (.dependency-cruiser.cjs says
 * why). The files directly in src/server (app.ts, server.ts, main.ts) put the folders together and
 * are no folder.
 *
 * Usage: node scripts/check-server-folder-cycles.mjs, from the project's root (or any folder that
 * has a src/ and a tsconfig.json; the rules are always this project's .dependency-cruiser.cjs).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const repo = fileURLToPath(new URL('../', import.meta.url));
const cruiser = `${repo}node_modules/dependency-cruiser/bin/dependency-cruiser.mjs`;

/** The server folder a path lies in (its first folder under src/server), or null. */
const folderOf = (path) => /^src\/server\/([^/]+)\//.exec(path)?.[1] ?? null;

/**
 * Each folder's value imports of other folders: folder -> folder -> the imports (`from -> to`).
 * @param {{ source: string, dependencies: { resolved: string, dependencyTypes: string[] }[] }[]} modules
 */
export function folderImports(modules) {
  /** @type {Map<string, Map<string, string[]>>} */
  const graph = new Map();
  for (const module of modules) {
    const from = folderOf(module.source);
    if (!from) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    for (const dependency of module.dependencies) {
      const to = folderOf(dependency.resolved);
      if (!to || to === from || dependency.dependencyTypes.includes('type-only')) continue;
      const edges = graph.get(from);
      if (!edges.has(to)) edges.set(to, []);
      edges.get(to).push(`${module.source} -> ${dependency.resolved}`);
    }
  }
  return graph;
}

/** The groups of folders that reach each other (Tarjan's strongly connected components). */
function loopsOf(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const visit = (folder) => {
    index.set(folder, next);
    low.set(folder, next);
    next += 1;
    stack.push(folder);
    onStack.add(folder);
    for (const to of graph.get(folder)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(folder, Math.min(low.get(folder), low.get(to)));
      } else if (onStack.has(to)) low.set(folder, Math.min(low.get(folder), index.get(to)));
    }
    if (low.get(folder) !== index.get(folder)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== folder);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const folder of [...graph.keys()].sort()) if (!index.has(folder)) visit(folder);
  return groups;
}

/** The shortest way from `start` back to itself inside `group`: [start, ..., start]. */
function shortestLoop(graph, group, start) {
  const inGroup = new Set(group);
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const folder = queue.shift();
    for (const to of [...(graph.get(folder)?.keys() ?? [])].sort()) {
      if (!inGroup.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let step = folder; step !== start; step = cameFrom.get(step)) path.unshift(step);
        return [start, ...path];
      }
      if (cameFrom.has(to)) continue;
      cameFrom.set(to, folder);
      queue.push(to);
    }
  }
  return [];
}

/**
 * The loops among the server's folders, each once, with the imports along it: every pair of
 * folders that import each other, then, in each group of folders that reach each other, the
 * shortest loop through each of its folders.
 * @returns {{ folders: string[], imports: string[] }[]}
 */
export function folderCycles(modules) {
  const graph = folderImports(modules);
  const found = new Map();
  const add = (steps) => {
    // One name per loop whichever folder it starts from: rotated to start at its first by name.
    const first = steps.indexOf([...steps].sort()[0]);
    const rotated = [...steps.slice(first), ...steps.slice(0, first)];
    const key = rotated.join(' -> ');
    if (found.has(key)) return;
    const folders = [...rotated, rotated[0]];
    const imports = folders.slice(0, -1).flatMap((from, i) => graph.get(from).get(folders[i + 1]));
    found.set(key, { folders, imports });
  };
  const groups = loopsOf(graph);
  for (const group of groups)
    for (const from of group)
      for (const to of group)
        if (from < to && graph.get(from).has(to) && graph.get(to).has(from)) add([from, to]);
  for (const group of groups) for (const start of group) add(shortestLoop(graph, group, start).slice(0, -1));
  return [...found.values()];
}

async function main() {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [cruiser, 'src', '--config', `${repo}.dependency-cruiser.cjs`, '--output-type', 'json'],
    { cwd: process.cwd(), maxBuffer: 256 * 1024 * 1024 },
  );
  const cycles = folderCycles(JSON.parse(stdout).modules);
  if (cycles.length === 0) return;
  for (const { folders, imports } of cycles) {
    console.log(`error server-folder-cycles: ${folders.map((f) => `src/server/${f}`).join(' -> ')}`);
    for (const line of imports) console.log(`    ${line}`);
  }
  console.log(
    `\nx ${cycles.length} import loop(s) among the server's folders. Move what both sides need to ` +
      'src/server/platform, move a function to the folder that owns it, or hand it in from app.ts.',
  );
  process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
