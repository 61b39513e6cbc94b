import type { Problem } from '@repo/contracts'
import { problemsPlugin, sendProblemJson } from '@repo/service-kit'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

/** The API answers problem+json; a browser on a dashboard page gets an HTML error page. */
function renderProblem(request: FastifyRequest, reply: FastifyReply, problem: Problem) {
  const wantsPage =
    !request.url.startsWith('/api/') && (request.headers.accept ?? '').includes('text/html')
  if (!wantsPage) return sendProblemJson(request, reply, problem)
  reply.status(problem.status).header('cache-control', 'no-store')
  return reply.viewAsync('error', { title: problem.title, problem })
}

const pageProblems: FastifyPluginAsync = async (fastify) => {
  await fastify.register(problemsPlugin, { render: renderProblem })
}

export default fp(pageProblems, { name: 'page-problems', fastify: '5.x', dependencies: ['pages'] })
