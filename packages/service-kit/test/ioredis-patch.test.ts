import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PrivateRedis, startPrivateRedis } from '../src/testing/index.js'

// patches/ioredis@6.0.0.patch: ioredis cleared a command's timeout timer with `delete`, which
// turns the command into a dictionary-mode object (slow properties) on every answered command
// when `commandTimeout` is set, as the kit's clients always do. The patch sets the field to
// undefined instead. V8 tells the two apart only through a native (%HasFastProperties), so a
// child Node with --allow-natives-syntax sends real commands to a Redis of the test's own and
// reports; on upstream's Command.js `fastAfter` is false. The timeouts themselves (a command
// Redis does not answer in time fails) are pinned in redis-client.test.ts.

const execFileAsync = promisify(execFile)
const ioredisDir = dirname(createRequire(import.meta.url).resolve('ioredis/package.json'))

const CHILD = `
const require = (await import('node:module')).createRequire(process.env.IOREDIS_DIR + '/')
const { Redis } = require('./built/index.js')
const Command = require('./built/Command.js').default
const redis = new Redis({
  host: '127.0.0.1', port: Number(process.env.REDIS_PORT), commandTimeout: 1000, blockingTimeout: 1000,
})
async function answered(name, args) {
  const command = new Command(name, args, { replyEncoding: 'utf8' })
  redis.sendCommand(command)
  const timers = { command: command._commandTimeoutTimer, blocking: command._blockingTimeoutTimer }
  const reply = await command.promise
  const state = (timer) => (timer === undefined ? 'none' : timer._destroyed ? 'cleared' : 'pending')
  return {
    reply,
    commandTimer: state(timers.command),
    blockingTimer: state(timers.blocking),
    fieldsUndefined: command._commandTimeoutTimer === undefined && command._blockingTimeoutTimer === undefined,
    fastAfter: %HasFastProperties(command),
  }
}
const out = { ping: await answered('ping', []), blpop: await answered('blpop', ['ioredis-patch:none', '0.05']) }
redis.disconnect()
console.log(JSON.stringify(out))
`

let redis: PrivateRedis
beforeAll(async () => {
  redis = await startPrivateRedis()
})
afterAll(async () => {
  await redis?.close()
})

async function runChild() {
  const { stdout } = await execFileAsync(
    process.execPath,
    ['--allow-natives-syntax', '--input-type=module', '-e', CHILD],
    { env: { ...process.env, IOREDIS_DIR: ioredisDir, REDIS_PORT: String(redis.port) } },
  )
  return JSON.parse(stdout) as Record<string, Record<string, unknown>>
}

describe('ioredis as patched', () => {
  it('clears an answered command’s timers and leaves the command with fast properties', async () => {
    const out = await runChild()
    expect(out.ping).toEqual({
      reply: 'PONG',
      commandTimer: 'cleared',
      blockingTimer: 'none',
      fieldsUndefined: true,
      fastAfter: true,
    })
    // A blocking command's own timer (blockingTimeout) goes the same way.
    expect(out.blpop).toEqual({
      reply: null,
      commandTimer: 'cleared',
      blockingTimer: 'cleared',
      fieldsUndefined: true,
      fastAfter: true,
    })
  })
})
