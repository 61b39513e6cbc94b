# The image of either service, chosen by APP. The build context is the repository root:
#   docker build --build-arg APP=quotes   -t quotes .
#   docker build --build-arg APP=data-api -t data-api .
#   docker run -p 3000:3000 -e DATABASE_URL=postgres://… -e REDIS_URL=redis://… quotes
#   docker run -p 3001:3001 -e DATABASE_URL=postgres://… -e REDIS_URL=redis://… data-api
# Works with the legacy builder and with BuildKit (no `# syntax=`, no RUN --mount, no heredocs).

# ---------------------------------------------------------------- build
FROM node:24-bookworm-slim AS build
# quotes | data-api: the workspace package @repo/$APP under apps/$APP.
ARG APP
# pnpm exactly as pinned in the root package.json ("packageManager"); checked below.
ARG PNPM_VERSION=10.34.8
ENV CI=true
RUN case "$APP" in quotes | data-api) ;; \
      *) echo "build with --build-arg APP=quotes or APP=data-api (got '$APP')" >&2; exit 1 ;; esac
RUN npm install -g pnpm@${PNPM_VERSION} && npm cache clean --force
WORKDIR /repo

# Manifests first: the install layer is reused until the lockfile or one of these changes.
# Only the app and the workspace packages both apps depend on (pnpm installs a filtered subset
# of the lockfile; the other projects' manifests are not needed). A new workspace dependency of
# an app must be added here and below.
# .pnpmfile.cjs: the lockfile records its checksum, so a frozen install needs it; patches/: the
# dependencies' fixes pnpm-workspace.yaml lists (applied at install).
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc .pnpmfile.cjs ./
COPY patches patches
COPY packages/contracts/package.json packages/contracts/
COPY packages/service-kit/package.json packages/service-kit/
COPY apps/${APP}/package.json apps/${APP}/
RUN test "pnpm@$(pnpm --version)" = "$(node -p 'require("./package.json").packageManager')" \
    || { echo "pnpm $(pnpm --version) is not the packageManager pinned in package.json" >&2; exit 1; }
RUN pnpm install --frozen-lockfile --filter "@repo/${APP}..."

# Sources, then build the packages and the app in dependency order (tsc -> dist/).
COPY tsconfig.base.json ./
COPY packages/contracts packages/contracts
COPY packages/service-kit packages/service-kit
COPY apps/${APP} apps/${APP}
RUN pnpm --filter "@repo/${APP}..." run build

# A self-contained copy of the app with its production dependencies only, at the lockfile's exact
# versions, offline from the store filled above; workspace packages are copied in as their packed
# form ("files": dist + package.json). pnpm 10's deploy needs inject-workspace-packages: set for
# this command only, it derives a dedicated lockfile from the shared one (the repository's
# lockfile is not injected, so `pnpm install` with the setting would fail; `--legacy` re-resolves
# the workspace packages' dependencies from the registry instead of using the lockfile).
# Then drop what cannot run here: dependencies' source maps (~18 MB; unused unless
# --enable-source-maps) and native prebuilds for other platforms (sodium-native ships 13).
RUN pnpm deploy --config.inject-workspace-packages=true --offline --filter "@repo/${APP}" --prod /out \
 && test -f /out/dist/server.js \
 && test -f /out/node_modules/@repo/service-kit/dist/index.js \
 && test -f /out/node_modules/@repo/service-kit/public/kit.css \
 && find /out/node_modules -name '*.map' -type f -delete \
 && find /out/node_modules -type d -path '*/prebuilds/*' -prune ! -name "linux-$(node -p process.arch)*" \
      -exec rm -rf {} +
# What the runtime needs, nothing else (the deployed copy also holds src/, test/, configs):
# the build, the migrations, the templates and assets, and quotes' corpus (data/) and share-card
# font (assets/).
RUN mkdir /app \
 && cd /out \
 && mv package.json node_modules dist migrations views public /app/ \
 && if [ "$APP" = quotes ]; then test -f data/quotes.json && test -f assets/fonts/DejaVuSerif.ttf && mv data assets /app/; fi

# ---------------------------------------------------------------- runtime
FROM node:24-bookworm-slim
ARG APP
# The commit built, for the build_info metric: docker build --build-arg GIT_COMMIT=$(git rev-parse HEAD)
# (compose passes $GIT_COMMIT). Empty: the metric says `unknown`.
ARG GIT_COMMIT=""
# A heap limit makes V8 collect instead of growing the heap toward gigabytes under load, and a
# 16 MB semi-space keeps the young generation from growing to 64 MB a half under load (peak RSS
# stays near 170 MB for quotes). Override NODE_OPTIONS to size it to the container. PORT is not set: each
# service listens on its own default (quotes 3000, data-api 3001) unless PORT says otherwise.
ENV APP=${APP} \
    GIT_COMMIT=${GIT_COMMIT} \
    NODE_ENV=production \
    NODE_OPTIONS="--max-old-space-size=512 --max-semi-space-size=16" \
    EMBEDDED_STORES=off \
    HOST=0.0.0.0
WORKDIR /app
# Owned by root, read-only for the service user: it needs to write nothing.
COPY --from=build /app ./
USER node
# quotes listens on 3000, data-api on 3001.
EXPOSE 3000 3001
# Liveness; compose checks /ready (Postgres and Redis) instead. Node's fetch: no curl in slim.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "const p=process.env.PORT||{quotes:3000,'data-api':3001}[process.env.APP];fetch('http://127.0.0.1:'+p+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node is PID 1 (the entrypoint execs it) and handles SIGTERM itself (close-with-grace):
# drain (SHUTDOWN_DRAIN_MS), stop accepting, finish in-flight requests within SHUTDOWN_GRACE_MS,
# close the pools, exit 0.
STOPSIGNAL SIGTERM
CMD ["node", "dist/server.js"]
