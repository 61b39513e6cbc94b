// What the kernel says about a process under test: CPU time and memory, from /proc/<pid>.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

const MB = 1024 * 1024

/** Clock ticks per second of /proc/<pid>/stat times (`getconf CLK_TCK`; 100 on Linux). */
export const CLOCK_TICKS = (() => {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())
    return Number.isSafeInteger(ticks) && ticks > 0 ? ticks : 100
  } catch {
    return 100
  }
})()

/**
 * User + system CPU time of `pid` (all its threads) in µs, from utime and stime of
 * /proc/<pid>/stat (fields 14 and 15, in clock ticks). Throws once the process is gone.
 */
export function cpuMicros(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Field 2 (the command) is in parentheses and may hold spaces: count fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const utime = Number(fields[11])
  const stime = Number(fields[12])
  return ((utime + stime) * 1_000_000) / CLOCK_TICKS
}

/** VmRSS and VmHWM of `pid` in MB, from /proc/<pid>/status (undefined once it has exited). */
export function memoryOf(pid) {
  let status
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return undefined
  }
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0)
  const mb = (field) => Math.round((kb(field) * 1024 * 10) / MB) / 10
  return { rssMb: mb('VmRSS'), hwmMb: mb('VmHWM') }
}

/**
 * The host's huge pages (/proc/meminfo), in MB: `totalMb` configured (vm.nr_hugepages), `takenMb`
 * in use or reserved (Postgres with `huge_pages` on or try reserves its shared memory there).
 */
export function hostHugePages() {
  const meminfo = readFileSync('/proc/meminfo', 'utf8')
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(meminfo)?.[1] ?? 0)
  const pageMb = field('Hugepagesize') / 1024
  const total = field('HugePages_Total')
  const taken = total - field('HugePages_Free') + field('HugePages_Rsvd')
  return { totalMb: total * pageMb, takenMb: taken * pageMb }
}

/**
 * Samples VmRSS every `everyMs`; stop() returns { peakRssMb, peakSinceMarkMb, hwmMb, samples }
 * (peakSinceMarkMb: the peak since the last mark(), or since the start without one).
 */
export function sampleRss(pid, everyMs = 100) {
  let peak = 0
  let peakSinceMark = 0
  let samples = 0
  const sample = () => {
    const memory = memoryOf(pid)
    if (!memory) return
    samples += 1
    peak = Math.max(peak, memory.rssMb)
    peakSinceMark = Math.max(peakSinceMark, memory.rssMb)
  }
  sample()
  const timer = setInterval(sample, everyMs)
  return {
    /** Starts a second peak from now (stop() reports it as peakSinceMarkMb), sampled at once. */
    mark() {
      peakSinceMark = 0
      sample()
    },
    stop() {
      clearInterval(timer)
      sample()
      return {
        peakRssMb: peak,
        peakSinceMarkMb: peakSinceMark,
        hwmMb: memoryOf(pid)?.hwmMb,
        samples,
      }
    },
  }
}
