import { fstatSync } from 'node:fs'
import { type DestinationStream, pino } from 'pino'

/** What Node's stream handle for a pipe or socket offers (libuv's uv_stream_set_blocking). */
interface BlockingHandle {
  setBlocking?: (blocking: boolean) => number
}

/**
 * Makes a piped stdout blocking again, so that a log write waits only as long as the reader
 * needs. Node opens a pipe or socket on stdout non-blocking (libuv) as soon as anything touches
 * `process.stdout` (the ESM facade of `node:process` does, at the first `import`); the log's
 * synchronous writes to the same descriptor then meet `EAGAIN` whenever the reader (Docker's log
 * driver, a collector) falls behind by the pipe's 64 KB, and sonic-boom answers each `EAGAIN` by
 * sleeping 100 ms: the whole service stalls in steps of 100 ms. Files are always blocking and
 * TTYs Node already makes blocking. The handle is Node's private `_handle`, the one its own
 * Windows path and the `set-blocking` package use; where it is missing nothing changes.
 * Returns whether stdout was a pipe or socket made blocking.
 */
export function blockingStdout(): boolean {
  const stat = fstatSync(1)
  if (!stat.isFIFO() && !stat.isSocket()) return false
  const handle = (process.stdout as unknown as { _handle?: BlockingHandle })._handle
  return handle?.setBlocking?.(true) === 0
}

/** The bytes of log lines kept before one `write(2)` (about 70 access lines). */
export const BATCH_BYTES = 16_000

/**
 * The services' log destination: stdout (or `fd`), written synchronously in batches of
 * BATCH_BYTES. A `write(2)` per access-log line would cost more than the request; batched, lines
 * are written about 70 at a time, at least every 250 ms, and at exit (`flushSync`). 16 KB rather
 * than 4 KB since patches/sonic-boom@4.2.1.patch made a line's cost independent of its batch's
 * size: the batches' `write(2)` to a pipe went from 5-6 % of a service's busy CPU to 2.6-3.8 %,
 * 0.5-0.8 µs a request (bench/README.md, "Log batches of 16 KB"). Synchronous: sonic-boom's
 * asynchronous mode measured 0.6-2.0 µs dearer per request and tripled the p99 (bench/README.md,
 * "The access log at info", measured before the patch). A log reader that stops reading makes the
 * process wait for it (as pino's default does) rather than keep lines in the heap without a
 * bound; see blockingStdout for how long.
 */
export function logDestination(fd?: number): DestinationStream & { flushSync(): void } {
  if (fd === undefined || fd === 1) blockingStdout()
  return pino.destination({
    dest: fd,
    // Stryker disable next-line BooleanLiteral: when lines are written (now, or in the thread pool), not which
    sync: true,
    // One write(2) takes at most 64 KB (a pipe's buffer), a batch and a long line after it.
    minLength: BATCH_BYTES,
    maxWrite: 65_536,
    periodicFlush: 250,
  })
}
