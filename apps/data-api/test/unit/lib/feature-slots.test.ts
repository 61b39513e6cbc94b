import { describe, expect, it } from 'vitest'
import { FeatureSlots } from '../../../src/lib/feature-slots.js'

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
