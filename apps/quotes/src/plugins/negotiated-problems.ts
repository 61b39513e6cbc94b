import type { Problem } from '@repo/contracts'
import { problemsPlugin, sendProblemJson } from '@repo/service-kit'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { negotiate } from '../lib/negotiate.js'

/** Errors speak the format the client asked for: problem+json, a plain sentence, or a page. */
function renderProblem(request: FastifyRequest, reply: FastifyReply, problem: Problem) {
  reply.header('vary', 'Accept')
  switch (negotiate(request.headers.accept)) {
    case 'json':
      return sendProblemJson(request, reply, problem)
    case 'text':
      return reply
        .status(problem.status)
        .type('text/plain; charset=utf-8')
        .send(`${problem.detail}\n`)
    default:
      reply.status(problem.status)
      return reply.viewAsync('error', { title: problem.title, problem })
  }
}

const negotiatedProblems: FastifyPluginAsync = async (fastify) => {
  await fastify.register(problemsPlugin, { render: renderProblem })
}

export default fp(negotiatedProblems, {
  name: 'negotiated-problems',
  fastify: '5.x',
  dependencies: ['pages'],
})
