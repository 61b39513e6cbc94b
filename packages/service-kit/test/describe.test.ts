import type { FastifyPluginAsync } from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { baseConfigProperties, loadConfig } from '../src/config.js'
import { type DescribableAppOptions, describeService } from '../src/describe.js'
import openApiPlugin from '../src/plugins/openapi.js'

// describeService builds an app only to read its OpenAPI document: describeOnly, made ready,
// asked for the document, closed, whatever happens.

const config = loadConfig(Type.Object(baseConfigProperties({ port: 3100, database: 'things' })), {
  LOG_LEVEL: 'debug',
})
type Config = typeof config

describe('describeService', () => {
  it('returns the document of an app built to be described, then closes it', async () => {
    const seen: Array<{ describeOnly?: boolean; port: number; level: string }> = []
    let closed = 0
    const app: FastifyPluginAsync<DescribableAppOptions<Config>> = async (fastify, opts) => {
      seen.push({
        describeOnly: opts.describeOnly,
        port: opts.config.PORT,
        level: fastify.log.level,
      })
      await fastify.register(openApiPlugin, {
        title: 'T',
        description: 'D',
        version: '9',
        tags: [],
      })
      fastify.get('/things', { schema: { operationId: 'listThings' } }, async () => [])
      fastify.addHook('onClose', async () => {
        closed += 1
      })
    }
    const document = await describeService(app, config)
    expect(document).toMatchObject({
      openapi: '3.1.0',
      info: { title: 'T', version: '9' },
      paths: { '/things': { get: { operationId: 'listThings' } } },
    })
    // Built quietly, whatever the configured level.
    expect(seen).toEqual([{ describeOnly: true, port: 3100, level: 'warn' }])
    expect(closed).toBe(1)
  })

  it('closes the app when it fails to start, and says why', async () => {
    let closed = 0
    const app: FastifyPluginAsync<DescribableAppOptions<Config>> = async (fastify) => {
      fastify.addHook('onClose', async () => {
        closed += 1
      })
      fastify.addHook('onReady', async () => {
        throw new Error('cannot start')
      })
    }
    await expect(describeService(app, config)).rejects.toThrow('cannot start')
    expect(closed).toBe(1)
  })
})
