import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { ClientGoneError, FeatureSlots, RequestSlot } from '../../../src/lib/feature-slots.js'

describe('FeatureSlots', () => {
  it('gives a key at most its limit of slots at once, per key', () => {
    const slots = new FeatureSlots()
    const first = slots.take('k', 2)
    const second = slots.take('k', 2)
    expect(first).toBeTypeOf('function')
    expect(second).toBeTypeOf('function')
    expect(slots.take('k', 2)).toBeUndefined()
    expect(slots.held('k')).toBe(2)
    expect(slots.take('other', 2)).toBeTypeOf('function')
    expect(slots.held('other')).toBe(1)
  })

  it('frees a slot on release, once however often release is called', () => {
    const slots = new FeatureSlots()
    const release = slots.take('k', 2) as () => void
    slots.take('k', 2)
    release()
    release()
    expect(slots.held('k')).toBe(1)
    expect(slots.take('k', 2)).toBeTypeOf('function')
    expect(slots.take('k', 2)).toBeUndefined()
  })

  it('forgets a key whose last slot is released', () => {
    const slots = new FeatureSlots()
    const release = slots.take('k', 1) as () => void
    release()
    expect(slots.held('k')).toBe(0)
    expect((slots as unknown as { running: Map<string, number> }).running.size).toBe(0)
  })

  it('gives nothing when the limit is 0', () => {
    expect(new FeatureSlots().take('k', 0)).toBeUndefined()
  })
})

describe('RequestSlot', () => {
  /** A slot of key `k` (limit 1) and a way to settle the work it holds. */
  function slotOf(slots: FeatureSlots) {
    const slot = new RequestSlot(slots.take('k', 1) as () => void)
    let settle: (ok: boolean) => void = () => {}
    const work = () =>
      new Promise<string>((resolve, reject) => {
        settle = (ok) => (ok ? resolve('done') : reject(new Error('failed')))
      })
    return { slot, work, settle: (ok: boolean) => settle(ok) }
  }

  it('frees the slot when the response closes with no work running', () => {
    const slots = new FeatureSlots()
    const { slot } = slotOf(slots)
    slot.close()
    expect(slots.held('k')).toBe(0)
  })

  it('closes with its response, or at once when the response closed before (a client gone during the key look-up)', () => {
    const slots = new FeatureSlots()
    const open = Object.assign(new EventEmitter(), { destroyed: false })
    slotOf(slots).slot.closeWith(open)
    expect(slots.held('k')).toBe(1)
    open.emit('close')
    expect(slots.held('k')).toBe(0)
    const gone = Object.assign(new EventEmitter(), { destroyed: true })
    slotOf(slots).slot.closeWith(gone)
    expect(slots.held('k')).toBe(0)
  })

  it('runs no work once the response has closed (the client went away)', async () => {
    const slots = new FeatureSlots()
    const { slot } = slotOf(slots)
    slot.close()
    let ran = false
    await expect(
      slot.hold(async () => {
        ran = true
      }),
    ).rejects.toBeInstanceOf(ClientGoneError)
    await expect(slot.hold(async () => 'never')).rejects.toMatchObject({
      name: 'ClientGoneError',
      message: 'The connection closed before the feature started; nothing was run.',
    })
    expect(ran).toBe(false)
    expect(slots.held('k')).toBe(0)
  })

  it.each([
    { ends: 'succeeds', ok: true },
    { ends: 'fails', ok: false },
  ])(
    'keeps the slot past the close while its work runs, and frees it when the work $ends',
    async ({ ok }) => {
      const slots = new FeatureSlots()
      const { slot, work, settle } = slotOf(slots)
      const held = slot.hold(work)
      slot.close()
      expect(slots.held('k')).toBe(1)
      settle(ok)
      // The work's outcome is passed on either way.
      await (ok ? expect(held).resolves.toBe('done') : expect(held).rejects.toThrow('failed'))
      expect(slots.held('k')).toBe(0)
    },
  )

  it('tells its work when the response closes, so work not yet started can be given up', async () => {
    const slots = new FeatureSlots()
    const { slot, work, settle } = slotOf(slots)
    const signals: AbortSignal[] = []
    const held = slot.hold((gone) => {
      signals.push(gone)
      return work()
    })
    expect(signals[0]?.aborted).toBe(false)
    slot.close()
    expect(signals[0]?.aborted).toBe(true)
    // The slot is still held until the work settles, whatever the work made of the signal.
    expect(slots.held('k')).toBe(1)
    settle(true)
    await expect(held).resolves.toBe('done')
    expect(slots.held('k')).toBe(0)
  })

  it('does not abort the signal of work that has settled: nothing is left to give up', async () => {
    const slots = new FeatureSlots()
    const { slot, work, settle } = slotOf(slots)
    let signal: AbortSignal | undefined
    const held = slot.hold((gone) => {
      signal = gone
      return work()
    })
    settle(true)
    await held
    slot.close()
    expect(signal?.aborted).toBe(false)
    expect(slots.held('k')).toBe(0)
  })

  it('keeps it after the work until the response closes', async () => {
    const slots = new FeatureSlots()
    const { slot, work, settle } = slotOf(slots)
    const held = slot.hold(work)
    settle(true)
    await held
    expect(slots.held('k')).toBe(1)
    slot.close()
    expect(slots.held('k')).toBe(0)
  })

  it('waits for every piece of work it holds', async () => {
    const slots = new FeatureSlots()
    const slot = new RequestSlot(slots.take('k', 1) as () => void)
    const ends: Array<() => void> = []
    const work = () => new Promise<void>((resolve) => ends.push(resolve))
    const both = [slot.hold(work), slot.hold(work)]
    slot.close()
    ends[0]?.()
    await both[0]
    expect(slots.held('k')).toBe(1)
    ends[1]?.()
    await both[1]
    expect(slots.held('k')).toBe(0)
  })
})
