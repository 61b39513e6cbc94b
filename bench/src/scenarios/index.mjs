// Every scenario the runner measures, in order. Add a module's scenarios here (see README.md).
import dataApi from './data-api.mjs'
import quotes from './quotes.mjs'

export default [...quotes, ...dataApi]
