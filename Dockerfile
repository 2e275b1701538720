# The Airlock API as a container: `node api/dist/server.js`, built by `npm run build` (api/scripts/build.ts),
# which bundles the server with everything it reads at run time (PGlite's files, the wallet registry's list)
# into api/dist. The runtime image holds that folder and Node, nothing else: no npm, no node_modules, no
# sources. docker-compose.yml runs it with PostgreSQL (`docker compose up api`); README "Self-hosting".
#
#   docker build -t airlock-api .
#   docker run -p 8787:8787 -v $PWD/airlock.config.json:/etc/airlock/airlock.config.json:ro airlock-api

FROM node:20-bookworm AS build
WORKDIR /app
COPY . .
# npm 11 refuses `npm ci` when the lock lacks another platform's optional binaries (.ci/run says more).
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund --no-save
# The bundle takes the workspace packages from their sources, so the API's own build is all it needs.
RUN npm run build -w @airlock/api

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    AIRLOCK_CONFIG=/etc/airlock/airlock.config.json \
    AIRLOCK_DATA=/var/lib/airlock
WORKDIR /app
# PGlite's folder when DATABASE_URL is unset; owned by the unprivileged user the server runs as.
RUN mkdir -p /var/lib/airlock && chown node:node /var/lib/airlock
COPY --from=build --chown=root:root /app/api/dist ./api/dist
USER node
VOLUME ["/var/lib/airlock"]
EXPOSE 8787
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8787/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Commands run beside it the same way: `docker compose exec api node api/dist/cli.js project list`.
CMD ["node", "api/dist/server.js", "--host", "0.0.0.0", "--api-port", "8787"]
