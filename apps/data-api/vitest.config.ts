import { serviceTestProjects } from '@repo/service-kit/vitest-projects'
import { defineConfig } from 'vitest/config'

export default defineConfig({ test: { projects: serviceTestProjects } })
