import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

export type ResponseStep = (request: FastifyRequest, reply: FastifyReply) => void

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs `step` on every response just before it is sent (set headers here). */
    beforeEverySend: (step: ResponseStep) => void
    /** Runs `step` after every response has been sent (count, log, observe here). */
    afterEveryResponse: (step: ResponseStep) => void
  }
}

/**
 * One onSend and one onResponse hook for all the service-wide, synchronous work on responses
 * (headers, metrics, access logging). Each Fastify hook costs a dispatch on every request;
 * several plugins each adding their own cost more than the work they do.
 */
const responsePipeline: FastifyPluginAsync = async (fastify) => {
  const beforeSend: ResponseStep[] = []
  const afterResponse: ResponseStep[] = []
  fastify.decorate('beforeEverySend', (step: ResponseStep) => {
    beforeSend.push(step)
  })
  fastify.decorate('afterEveryResponse', (step: ResponseStep) => {
    afterResponse.push(step)
  })
  fastify.addHook('onSend', (request, reply, payload, done) => {
    for (const step of beforeSend) step(request, reply)
    done(null, payload)
  })
  fastify.addHook('onResponse', (request, reply, done) => {
    for (const step of afterResponse) step(request, reply)
    done()
  })
}

export default fp(responsePipeline, { name: 'response-pipeline', fastify: '5.x' })
