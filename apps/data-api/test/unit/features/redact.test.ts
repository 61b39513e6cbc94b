import type { RedactKind } from '@repo/contracts'
import { describe, expect, it } from 'vitest'
import { redact } from '../../../src/features/redact.js'

const run = (text: string, options: { kinds?: RedactKind[]; mask?: string } = {}) =>
  redact(text, { feature: 'redact', ...options })

const masked = (text: string) => run(text).text

describe('redact', () => {
  it('masks every kind and counts them', () => {
    const text =
      'Mail a.b@example.com or call +44 20 7946 0958 or (212) 555-0123. ' +
      'Card 4111 1111 1111 1111, server 192.168.0.1 and 2001:db8::1.'
    const result = run(text)
    expect(result.text).toBe(
      'Mail *************** or call **************** or **************. ' +
        'Card *******************, server *********** and ***********.',
    )
    expect(result.counts).toEqual({ emails: 1, phones: 2, cards: 1, ips: 2 })
    expect(result.total).toBe(6)
  })

  it('leaves a Luhn-invalid 16-digit number alone', () => {
    const result = run('Order 1234 5678 9012 3456 and 4111 1111 1111 1112 shipped.')
    expect(result.text).toBe('Order 1234 5678 9012 3456 and 4111 1111 1111 1112 shipped.')
    expect(result.total).toBe(0)
  })

  it.each([
    '4111111111111111',
    '4111-1111-1111-1111',
    '5555 5555 5555 4444',
    '378282246310005', // American Express, 15 digits
    '3782 822463 10005',
  ])('masks the card number %s', (card) => {
    expect(masked(`Paid with ${card}.`)).toBe(`Paid with ${'*'.repeat(card.length)}.`)
  })

  it('reads card numbers written side by side as separate numbers', () => {
    const result = run('4111111111111111 5555555555554444')
    expect(result.counts.cards).toBe(2)
    expect(result.text).toBe(`${'*'.repeat(16)} ${'*'.repeat(16)}`)
  })

  it.each([
    'john.doe+news@mail.example.co.uk',
    'a.b@example.com',
    'USER_1@sub.domain.org',
    'jürgen@bücher.de',
  ])('masks the e-mail address %s', (email) => {
    expect(masked(`<${email}>`)).toBe(`<${'*'.repeat([...email].length)}>`)
  })

  it.each([
    '+44 20 7946 0958',
    '+1 (212) 555-0123',
    '+33 1 23 45 67 89',
    '+33 (0)1 23 45 67 89',
    '+4930123456',
    '+81 3-1234-5678',
    '+86 10 1234 5678',
    '+7 495 123-45-67',
    '(212) 555-0123',
    '212-555-0123',
    '212.555.0123',
    '1-800-555-0199',
  ])('masks the phone number %s', (phone) => {
    const result = run(`Call ${phone} today`)
    expect(result.text).toBe(`Call ${'*'.repeat(phone.length)} today`)
    expect(result.counts.phones).toBe(1)
  })

  it.each([
    '192.168.0.1',
    '8.8.8.8',
    '255.255.255.255',
    '2001:db8::1',
    '::1',
    'fe80::1%eth0',
    '2001:0db8:85a3:0000:0000:8a2e:0370:7334',
    '::ffff:192.168.0.1',
  ])('masks the IP address %s', (ip) => {
    const result = run(`host ${ip} is up`)
    expect(result.text).toBe(`host ${'*'.repeat(ip.length)} is up`)
    expect(result.counts.ips).toBe(1)
  })

  it.each([
    'at 12:30:45 today',
    'version 1.2.3.4.5',
    'address 256.1.1.1',
    'on 2024-01-15',
    'MAC 00:1A:2B:3C:4D:5E',
    'std::vector',
    'x :: Int',
    'order 5551234567',
    'order 2125550123',
    'fictional (555) 123-4567',
    'the invalid +1 555 123 4567',
    'call me @ noon',
    'score 3-2',
  ])('leaves %j alone', (text) => {
    expect(run(text)).toEqual({
      text,
      counts: { emails: 0, phones: 0, cards: 0, ips: 0 },
      total: 0,
    })
  })

  it('masks only the kinds asked for', () => {
    const result = run('a.b@example.com 192.168.0.1 (212) 555-0123', { kinds: ['emails'] })
    expect(result.text).toBe('*************** 192.168.0.1 (212) 555-0123')
    expect(result.counts).toEqual({ emails: 1, phones: 0, cards: 0, ips: 0 })
  })

  it('uses the mask character asked for', () => {
    expect(run('ip 10.0.0.1', { mask: '#' }).text).toBe('ip ########')
    expect(run('ip 10.0.0.1', { mask: '█' }).text).toBe('ip ████████')
  })

  it('keeps the text as it was around what it masks', () => {
    const text = 'Unicode ✓ stays — and so do CRLF\r\nbreaks; 10.0.0.1!'
    expect(run(text).text).toBe('Unicode ✓ stays — and so do CRLF\r\nbreaks; ********!')
    expect(run('').text).toBe('')
  })
})

describe('redact on many phone numbers', () => {
  it('checks phone-like runs with libphonenumber up to its budget, then by their shape', () => {
    // 1,000 fictional North American numbers (area code 555 does not exist): libphonenumber
    // refuses the first ones; past its budget of characters the shape alone masks them.
    const numbers = Array.from({ length: 1000 }, (_, i) => `(555) 123-${String(1000 + i)}`)
    const result = run(numbers.join(' and '))
    const checked = Math.floor(6_000 / '(555) 123-1000'.length)
    expect(result.counts.phones).toBe(1000 - checked)
    expect(result.text.startsWith('(555) 123-1000 and')).toBe(true)
    expect(result.text.endsWith(` and ${'*'.repeat(14)}`)).toBe(true)
  })

  it('judges a run of digit groups longer than 40 characters by its shape', () => {
    const run40 = `${'12 '.repeat(14)}+44 20 7946 0958`
    expect(run(run40).text).toBe(`${'12 '.repeat(14)}${'*'.repeat(16)}`)
    // Within 40 characters libphonenumber decides, and finds the same number.
    expect(run('12 +44 20 7946 0958').text).toBe(`12 ${'*'.repeat(16)}`)
  })

  it('does not take digits alone for a phone number, even a valid one', () => {
    expect(run('call 2125550123 or +12125550123').text).toBe(`call 2125550123 or ${'*'.repeat(12)}`)
  })
})
