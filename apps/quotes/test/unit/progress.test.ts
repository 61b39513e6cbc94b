import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { progressBar } from '../../src/lib/progress.js'

/** Everything written to stderr, kept from the console; `tty` makes stderr a terminal. */
function captureStderr(tty: boolean) {
  const writes: string[] = []
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    writes.push(String(chunk))
    return true
  })
  const isTTY = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY')
  Object.defineProperty(process.stderr, 'isTTY', { value: tty, configurable: true })
  return {
    output: () => writes.join(''),
    restore: () => {
      if (isTTY) Object.defineProperty(process.stderr, 'isTTY', isTTY)
      else Reflect.deleteProperty(process.stderr, 'isTTY')
    },
  }
}

const EMPTY = '░'.repeat(40)

describe('progressBar', () => {
  let stderr: ReturnType<typeof captureStderr> | undefined
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    stderr?.restore()
    vi.restoreAllMocks()
    vi.useRealTimers()
  })

  it('prints a line at once when stderr is not a terminal, then one every 5 seconds', () => {
    stderr = captureStderr(false)
    const bar = progressBar('Loading', 12_345)
    const first = `Loading [${EMPTY}] 0% | 0/12,345 | 0s elapsed | ETA 0s\n`
    expect(stderr.output()).toBe(first)
    bar.update(1_234)
    vi.advanceTimersByTime(4_999)
    expect(stderr.output()).toBe(first)
    vi.advanceTimersByTime(1)
    expect(stderr.output()).toMatch(/\nLoading \[█{4}░{36}\] 9% \| 1,234\/12,345 \| 5s elapsed \|/)
    bar.stop()
  })

  it('prints the final count when stopped', () => {
    stderr = captureStderr(false)
    const bar = progressBar('Rows', 2_000_000)
    bar.update(2_000_000)
    bar.stop()
    expect(stderr.output().trimEnd().split('\n').at(-1)).toBe(
      `Rows [${'█'.repeat(40)}] 100% | 2,000,000/2,000,000 | 0s elapsed | ETA 0s`,
    )
  })

  it('hides the cursor on a terminal while it runs', () => {
    stderr = captureStderr(true)
    const bar = progressBar('Loading', 10)
    expect(stderr.output()).toContain('\x1B[?25l')
    expect(stderr.output()).toContain(`Loading [${EMPTY}] 0% | 0/10 |`)
    expect(stderr.output()).not.toContain('\x1B[?25h')
    bar.stop()
    expect(stderr.output()).toContain('\x1B[?25h')
  })
})
