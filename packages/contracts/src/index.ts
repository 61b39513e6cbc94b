export * from './problem.js'
export * from './quote.js'
