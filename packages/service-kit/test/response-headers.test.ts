import { describe, expect, it } from 'vitest'
import { helmetHeaders } from '../src/plugins/response-headers.js'

describe('helmetHeaders', () => {
  it('captures helmet’s headers once, with our CSP', () => {
    const headers = helmetHeaders()
    expect(headers['content-security-policy']).toContain("default-src 'self'")
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests')
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['strict-transport-security']).toBeUndefined()
  })
})
