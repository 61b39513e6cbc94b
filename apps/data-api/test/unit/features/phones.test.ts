import { REDACT_PHONE_FINDER_CHARACTERS } from '@repo/contracts'
import { describe, expect, it } from 'vitest'
import { findPhones } from '../../../src/features/phones.js'

/*
 * Phone numbers by libphonenumber's finder (leniency "valid") in the phone-like runs of a text
 * up to its budget of characters, and by their shape alone in runs longer than 40 characters and
 * past the budget. 555 numbers are fictional: the finder refuses them, the shape takes them.
 */

const found = (text: string) => findPhones(text).map(([start, end]) => text.slice(start, end))
/** 500 fictional numbers of 12 characters: exactly the finder's budget. */
const BUDGET_SPENT = Array.from({ length: 500 }, () => '555 123 4567').join(', ')

describe('findPhones', () => {
  it('places what the finder finds inside a run at its place in the text', () => {
    expect(findPhones('call 12 (212) 555-0123')).toEqual([[8, 22]])
  })

  it('places what the shape finds inside a long run at its place in the text', () => {
    const text = 'x 1 2 3 4 5 6 7 8 9 1 2 3 4 5 6 7 (212) 555-0123'
    expect(findPhones(text)).toEqual([[34, 48]])
  })

  it('counts zeros and nines among the seven digits a run needs', () => {
    expect(found('0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 (200) 500-0000')).toEqual(['(200) 500-0000'])
    expect(found('9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 (999) 999-9999')).toEqual(['(999) 999-9999'])
  })

  it('hands the finder a run of exactly 40 characters', () => {
    const run = '1 2 3 4 5 6 7 8 9 1 2 3 4 (555) 123-4567'
    expect(run).toHaveLength(40)
    expect(found(run)).toEqual([])
  })

  it('spends its budget to the last character, then judges by shape', () => {
    expect(BUDGET_SPENT).toHaveLength(REDACT_PHONE_FINDER_CHARACTERS + 2 * 499)
    expect(found(`${BUDGET_SPENT}, 555 123 4567`)).toEqual(['555 123 4567'])
    expect(found(BUDGET_SPENT)).toEqual([])
  })

  it('spends no budget on runs of fewer than seven digits, nor on bare digits', () => {
    expect(found(`${'1 2 3 4, '.repeat(900)}(555) 123-4567`)).toEqual([])
    expect(found(`${'order 2125550123, '.repeat(700)}(555) 123-4567`)).toEqual([])
  })

  it.each([
    '+44 20 7946 0958',
    '+33 (0)1 23 45 67 89',
    '+4930123456',
    '(212) 555-0123',
    '(212)555-0123',
    '212-555-0123',
    '212.555.0123',
    '+1 212 555 0123',
    '+1 (212) 555-0123',
    '1-800-555-0199',
    '1(212) 555-0123',
  ])('takes %s by its shape', (number) => {
    expect(found(`${BUDGET_SPENT}, and ${number} x`)).toEqual([number])
  })

  it.each(['+12 34', '212 555 01234', 'a212-555-0123', '212-555-0123-4'])(
    'does not take %s by its shape',
    (text) => {
      expect(found(`${BUDGET_SPENT}, and ${text} x`)).toEqual([])
    },
  )
})
