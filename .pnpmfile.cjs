// openapi-typescript (packages/client's generator) drives the TypeScript compiler API, which
// TypeScript 7, the native compiler the workspace builds with, no longer ships. Its `typescript`
// peer would resolve to that one: it gets TypeScript 5 as a dependency of its own instead.
module.exports = {
  hooks: {
    readPackage(pkg) {
      if (pkg.name === 'openapi-typescript') {
        delete pkg.peerDependencies?.typescript
        pkg.dependencies = { ...pkg.dependencies, typescript: '5.9.3' }
      }
      return pkg
    },
  },
}
