import { PROBLEM_CODES } from '@repo/contracts'
import { describe, expect, it } from 'vitest'
import { HttpProblem } from '../src/errors.js'

describe('HttpProblem', () => {
  it("takes its status from the code's entry in the contracts", () => {
    const problem = new HttpProblem('NOT_FOUND', 'No quote q9.')
    expect(problem).toBeInstanceOf(Error)
    expect(problem.name).toBe('HttpProblem')
    expect(problem.message).toBe('No quote q9.')
    expect(problem.code).toBe('NOT_FOUND')
    expect(problem.statusCode).toBe(PROBLEM_CODES.NOT_FOUND)
    expect(problem.extra).toEqual({})
    expect(problem.headers).toEqual({})
  })

  it('carries extra members and headers', () => {
    const problem = new HttpProblem('NOT_FOUND', 'x', {
      extra: { id: 'q9' },
      headers: { 'retry-after': '1' },
    })
    expect(problem.extra).toEqual({ id: 'q9' })
    expect(problem.headers).toEqual({ 'retry-after': '1' })
  })
})
