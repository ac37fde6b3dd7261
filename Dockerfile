# docloom's service as a container image (issue #16, docs/team-server.md "Deployment"): `docloom serve` with the
# GUI, the bundled fonts and the production dependencies only, as a non-root user. Docker cannot run on the machines
# this project is tested on; test/deploy/container-layout.test.ts assembles the same files this file copies and
# runs the service from them with the production dependencies alone.

# Node 24 in both stages: the Node the desktop app ships (Electron 40+) and the one `scripts/setup.sh` starts the
# service on, so the team server runs the runtime the service is tested and measured on (docs/benchmarks.md).

# ── build: compile the service (tsc) and the GUI (Vite) ─────────────────────────────────────────────────────────
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# Scripts skipped: electron's postinstall would try to download its binary, which the service does not need.
RUN npm ci --ignore-scripts
COPY tsconfig.json ./
COPY bin ./bin
COPY server ./server
COPY electron ./electron
COPY renderer ./renderer
COPY scripts ./scripts
COPY resources ./resources
RUN npm run build

# ── runtime ───────────────────────────────────────────────────────────────────────────────────────────────────────
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    DOCLOOM_HOST=0.0.0.0 \
    DOCLOOM_PORT=7463 \
    DOCLOOM_DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /src/bin ./bin
COPY --from=build /src/dist/server ./dist/server
COPY --from=build /src/dist/renderer ./dist/renderer
# The fonts documents are drawn with and the sample templates; icons are the desktop app's business.
COPY --from=build /src/resources/fonts ./resources/fonts
COPY --from=build /src/resources/templates ./resources/templates
RUN groupadd --system docloom && useradd --system --gid docloom --home-dir /data docloom \
    && mkdir -p /data && chown docloom:docloom /data
USER docloom
VOLUME ["/data"]
EXPOSE 7463
# DOCLOOM_PUBLIC_URL must be set when the container is run (the address clients use); the service refuses to
# listen beyond loopback without it.
CMD ["node", "bin/docloom.js", "serve"]
