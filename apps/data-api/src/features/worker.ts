import { workerData } from 'node:worker_threads'
import { type FeatureWorkerData, taskRunner } from './task-runner.js'

// The worker threads' entry (see pool.ts): the task function of task-runner.ts, set up with what
// the pool handed this thread.
export default taskRunner(workerData as FeatureWorkerData | null)
