import Fastify from 'fastify'
import { Type } from 'typebox'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import openApiPlugin, { documentedAs } from '../src/plugins/openapi.js'

// The OpenAPI document is made from the route schemas and served at /docs/json, with the
// reference page at /docs; documentedAs lets a route show other schemas than it validates with.

const Thing = Type.Object({ name: Type.String() }, { $id: 'Thing' })

let app: ReturnType<typeof Fastify>
beforeEach(async () => {
  app = Fastify()
  await app.register(openApiPlugin, {
    title: 'Things API',
    description: 'Keeps things',
    version: '1.2.3',
    tags: [{ name: 'things', description: 'The things' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  })
  app.addSchema(Thing)
  app.get(
    '/things/:id',
    { schema: { tags: ['things'], response: { 200: Type.Ref('Thing') } } },
    async () => ({ name: 'a' }),
  )
  app.post(
    '/things',
    {
      schema: {
        body: Type.Object({ name: Type.String({ pattern: '^[a-z]+$' }) }),
        querystring: Type.Object({ n: Type.String({ pattern: '^[0-9]+$' }) }),
        response: {
          201: Type.Ref('Thing'),
          400: Type.Object({ why: Type.Optional(Type.String()) }),
        },
      },
      config: {
        swaggerTransform: documentedAs({
          body: Type.Object({ name: Type.String(), shown: Type.Boolean() }),
          querystring: Type.Object({ n: Type.Integer() }),
          response: { 400: Type.Object({ documented: Type.String() }) },
        }),
      },
    },
    async () => ({ name: 'b' }),
  )
  app.put(
    '/things/:id',
    {
      schema: { body: Type.Object({ name: Type.String() }) },
      config: { swaggerTransform: documentedAs({}) },
    },
    async () => ({ name: 'c' }),
  )
  await app.ready()
})
afterEach(async () => {
  await app.close()
})

// biome-ignore lint/suspicious/noExplicitAny: a generated document, read by path
type Doc = Record<string, any>

describe('openapi', () => {
  it('serves an OpenAPI 3.1 document with the service’s details at /docs/json', async () => {
    const response = await app.inject({ url: '/docs/json' })
    expect(response.statusCode).toBe(200)
    const doc = response.json() as Doc
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info).toEqual({
      title: 'Things API',
      description: 'Keeps things',
      version: '1.2.3',
      contact: { name: 'Quotes & Data API contributors' },
      license: { name: 'MIT', identifier: 'MIT' },
    })
    expect(doc.servers).toEqual([
      { url: '/', description: 'The server this document was fetched from' },
    ])
    expect(doc.tags).toEqual([{ name: 'things', description: 'The things' }])
    expect(doc.components.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer' } })
  })

  it('names shared schemas after their $id', async () => {
    const doc = app.swagger() as Doc
    expect(Object.keys(doc.components.schemas)).toEqual(['Thing'])
    expect(
      doc.paths['/things/{id}'].get.responses['200'].content['application/json'].schema,
    ).toEqual({ $ref: '#/components/schemas/Thing' })
  })

  it('shows what documentedAs gives instead of the validated schemas, and keeps the rest', async () => {
    const post = (app.swagger() as Doc).paths['/things'].post
    expect(post.requestBody.content['application/json'].schema.properties).toHaveProperty('shown')
    expect(post.parameters).toEqual([
      expect.objectContaining({ name: 'n', in: 'query', schema: { type: 'integer' } }),
    ])
    expect(Object.keys(post.responses)).toEqual(['201', '400'])
    expect(post.responses['400'].content['application/json'].schema.properties).toHaveProperty(
      'documented',
    )
    // Validation is unchanged: the pattern still applies.
    const refused = await app.inject({ method: 'POST', url: '/things?n=x', payload: { name: 'A' } })
    expect(refused.statusCode).toBe(400)
  })

  it('changes nothing with an empty documentedAs', async () => {
    const put = (app.swagger() as Doc).paths['/things/{id}'].put
    expect(put.requestBody.content['application/json'].schema.properties).toEqual({
      name: { type: 'string' },
    })
    expect(put.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path' })])
  })

  it('serves the reference page at /docs under a content security policy', async () => {
    const page = await app.inject({ url: '/docs' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toContain('text/html')
    expect(page.headers['content-security-policy']).toContain("default-src 'self'")
    const initializer = await app.inject({ url: '/docs/static/swagger-initializer.js' })
    expect(initializer.body).toContain('"deepLinking":true')
    expect(initializer.body).toContain('"docExpansion":"list"')
  })

  it('has empty components when the service names none', async () => {
    const bare = Fastify()
    await bare.register(openApiPlugin, { title: 't', description: 'd', version: '0', tags: [] })
    await bare.ready()
    expect((bare.swagger() as Doc).components).toEqual({ schemas: {} })
    expect(bare.hasPlugin('openapi')).toBe(true)
    await bare.close()
  })
})
