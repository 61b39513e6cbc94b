import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { PasswordStrength } from '../lib/password-strength.js'

declare module 'fastify' {
  interface FastifyInstance {
    passwordStrength: PasswordStrength
  }
}

/** zxcvbn-ts in a worker thread, started at the first check and stopped with the service. */
const passwordStrength: FastifyPluginAsync = async (fastify) => {
  const strength = new PasswordStrength()
  fastify.decorate('passwordStrength', strength)
  fastify.addHook('onClose', async () => {
    await strength.close()
  })
}

export default fp(passwordStrength, { name: 'password-strength', fastify: '5.x' })
