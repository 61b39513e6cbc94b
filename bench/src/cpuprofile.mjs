// node bench/src/cpuprofile.mjs <file.cpuprofile> [--top N]: where a V8 CPU profile (node
// --cpu-prof) spent its time, by self time: the top functions, then the same grouped by where the
// code lives (a package of node_modules, a file of ours, Node's internals, GC, idle).
// --callers <name>: the heaviest call stacks (innermost first) leading to functions so named.
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' }, callers: { type: 'string' } },
})
if (positionals.length !== 1) {
  console.error('usage: node bench/src/cpuprofile.mjs <file.cpuprofile> [--top N]')
  process.exit(2)
}
const top = Number(values.top)
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'))

/** Self time (µs) per node id: each sample's time delta goes to the node sampled. */
const selfUs = new Map()
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0))
})
const total = [...selfUs.values()].reduce((a, b) => a + b, 0)

/** Where a function's code lives: `pkg:<name>` for node_modules, else a short path. */
function origin(url, name) {
  if (url === '') {
    if (name === '(garbage collector)' || name === '(idle)' || name === '(program)') return name
    return '(native)'
  }
  if (url.startsWith('node:')) return 'node:internal'
  const modules = url.lastIndexOf('/node_modules/')
  if (modules !== -1) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/')
    return `pkg:${rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`
  }
  const repo = url.match(/\/(apps|packages)\/([^/]+)\/(?:dist|src)\/(.*)$/)
  return repo ? `${repo[1]}/${repo[2]}/${repo[3]}` : url.replace(/^file:\/\//, '')
}

const byFunction = new Map()
const byOrigin = new Map()
for (const node of profile.nodes) {
  const us = selfUs.get(node.id)
  if (!us) continue
  const { functionName, url, lineNumber } = node.callFrame
  const where = origin(url, functionName)
  const name = `${functionName || '(anonymous)'}  ${where}${url ? `:${lineNumber + 1}` : ''}`
  byFunction.set(name, (byFunction.get(name) ?? 0) + us)
  byOrigin.set(where, (byOrigin.get(where) ?? 0) + us)
}

function print(title, map, count) {
  console.log(`\n${title}`)
  const rows = [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, count)
  for (const [name, us] of rows) {
    console.log(
      `${((us / total) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`,
    )
  }
}

console.log(`${positionals[0]}: ${(total / 1e6).toFixed(2)} s sampled`)
print(`top ${top} functions by self time`, byFunction, top)
print(`by origin (package or file)`, byOrigin, top)

if (values.callers) {
  const parent = new Map()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node)
  const stacks = new Map()
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id)
    if (!us || node.callFrame.functionName !== values.callers) continue
    const frames = []
    for (let at = node; at && frames.length < 12; at = parent.get(at.id)) {
      const { functionName, url, lineNumber } = at.callFrame
      frames.push(`${functionName || '(anonymous)'} ${origin(url, functionName)}:${lineNumber + 1}`)
    }
    const key = frames.join('\n      < ')
    stacks.set(key, (stacks.get(key) ?? 0) + us)
  }
  print(`stacks leading to ${values.callers}`, stacks, 8)
}
