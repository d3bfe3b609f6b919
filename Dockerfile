# syntax=docker/dockerfile:1
# Polyflow in one container: the server, the built console and /sdk.js on port 3000, data in /data.
# Not built or run on the development machines (they have no Docker engine); see README "Docker".

FROM node:20-bookworm-slim AS build
WORKDIR /app
# Manifests first, so that the dependency layer is reused while only sources change.
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY packages/sdk/package.json packages/sdk/
COPY apps/server/package.json apps/server/
COPY apps/console/package.json apps/console/
COPY examples/demo-dapp/package.json examples/demo-dapp/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY packages/sdk/package.json packages/sdk/
COPY apps/server/package.json apps/server/
COPY apps/console/package.json apps/console/
COPY examples/demo-dapp/package.json examples/demo-dapp/
COPY e2e/package.json e2e/
# The server's runtime dependencies only (the workspace packages it uses are bundled into dist/).
RUN npm ci --omit=dev --workspace apps/server --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/console/dist apps/console/dist
COPY --from=build /app/packages/sdk/dist packages/sdk/dist
COPY --from=build /app/docs/.vitepress/dist docs/.vitepress/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# The admin command line: docker exec -it <container> node apps/server/dist/admin.js --help
# libuv's thread pool serves Node's file calls and DuckDB's queries alike: more threads than DuckDB has
# connections, so that serving the console's files never waits for a query (docs/decisions/034).
ENV UV_THREADPOOL_SIZE=16
# Two glibc malloc arenas instead of one per thread: what V8's and libuv's threads freed is not kept per
# thread (about 4 MB less resident when idle; docs/decisions/089).
ENV MALLOC_ARENA_MAX=2
CMD ["node", "--max-semi-space-size=32", "--expose-gc", "apps/server/dist/main.js"]
