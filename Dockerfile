# syntax=docker/dockerfile:1
# The one image recipe of every process (the gateway and each service), built with the repository
# root as the context and the process named by build arguments (deploy/docker/images.mjs lists them
# and prints each image's command):
#   docker build --build-arg WORKSPACE=services/tools --build-arg PORT=50052 \
#     --build-arg HOST_VARIABLE=VOICE_TOOLS_HOST -t voice/tools:<version> .
# Only the workspaces the process builds from and runs with enter its image (deploy/docker/
# workspaces.mjs reads them from the repository), so the gateway's holds no service code.
# Pin the base image by digest in a release pipeline: --build-arg NODE_IMAGE=node:<tag>@sha256:<digest>

ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# Every workspace's package.json and the committed lockfile: npm resolves the tree from all of them.
# (`npm ci` rejects our lockfile, which records only one platform's optional packages; `npm install`
# installs the locked versions and changes nothing else.) No toolchain: better-sqlite3 13 ships its
# N-API binaries inside the npm package, so nothing is compiled.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY proto/package.json proto/
COPY services/runtime/package.json services/runtime/
COPY contracts/package.json contracts/
COPY services/identity/package.json services/identity/
COPY services/tools/package.json services/tools/
COPY services/telephony/package.json services/telephony/
COPY services/billing/package.json services/billing/
COPY services/platform-users/package.json services/platform-users/
COPY services/assistants/package.json services/assistants/
COPY services/calls/package.json services/calls/
COPY services/campaigns/package.json services/campaigns/
COPY services/webhooks/package.json services/webhooks/
COPY services/voice-sandbox/package.json services/voice-sandbox/
COPY gateway/package.json gateway/
COPY client/package.json client/
COPY platform/package.json platform/
COPY test/package.json test/
COPY bench/package.json bench/
COPY deploy/docker/workspaces.mjs /usr/local/lib/voice/workspaces.mjs

# Build: every dependency, dev ones included, from the lockfile (no install scripts: compiling needs
# no native addon); the sources of the workspace and its project references, then `tsc -b`, which
# builds the references first, and the workspace's `build:assets` where it has one (the gateway
# copies Scalar's bundle into dist/); dist/ and package.json of what it runs with go to /out.
FROM manifests AS build
ARG WORKSPACE
ARG PORT
ARG HOST_VARIABLE
RUN if [ -z "$WORKSPACE" ] || [ -z "$PORT" ] || [ -z "$HOST_VARIABLE" ]; then \
      echo 'name the process: --build-arg WORKSPACE=... PORT=... HOST_VARIABLE=... (node deploy/docker/images.mjs prints them)' >&2; exit 1; \
    fi
RUN npm install --no-audit --no-fund --ignore-scripts
COPY tsconfig.base.json tsconfig.json ./
RUN --mount=type=bind,target=/context \
    for ws in $(node /usr/local/lib/voice/workspaces.mjs build "$WORKSPACE" /context); do \
      mkdir -p "$ws" && cp -R "/context/$ws/." "$ws/"; \
    done \
 && node_modules/.bin/tsc -b "$WORKSPACE" \
 && npm run --if-present build:assets -w "$WORKSPACE" \
 && mkdir /out \
 && for ws in $(node /usr/local/lib/voice/workspaces.mjs runtime "$WORKSPACE"); do \
      mkdir -p "/out/$ws" && cp "$ws/package.json" "/out/$ws/" && cp -R "$ws/dist" "/out/$ws/dist"; \
    done \
 && ln -s "$WORKSPACE/dist/src/main.js" /out/main.js \
 && find /out -name '*.tsbuildinfo' -delete

# Production dependencies of the workspace and the workspaces it depends on, same lockfile;
# better-sqlite3 keeps only its glibc Linux binaries (not its C sources or other systems' builds).
FROM manifests AS deps
ARG WORKSPACE
RUN npm install --omit=dev --no-audit --no-fund --workspace "$WORKSPACE" \
 && if [ -d node_modules/better-sqlite3 ]; then \
      rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
      && find node_modules/better-sqlite3/prebuilds -type f ! -name 'linux-x64.node' ! -name 'linux-arm64.node' -delete; \
    fi \
 && mkdir /out \
 && cp -R node_modules /out/node_modules \
 && for ws in $(node /usr/local/lib/voice/workspaces.mjs runtime "$WORKSPACE"); do \
      if [ -d "$ws/node_modules" ]; then mkdir -p "/out/$ws" && cp -R "$ws/node_modules" "/out/$ws/"; fi; \
    done

# Runtime: compiled JavaScript, package.json files and production node_modules, owned by root and
# run as the image's unprivileged `node` user (UID 1000). Writable paths are volumes: DATA_DIR
# (/data: SQLite files and generated keys in the embedded mode) and /tmp. /app/main.js links to the
# process's entry, so node runs the entry itself (PID 1, SIGTERM) whatever the workspace.
FROM ${NODE_IMAGE} AS runtime
ARG PORT
ARG HOST_VARIABLE
ENV NODE_ENV=production \
    DATA_DIR=/data \
    ${HOST_VARIABLE}=0.0.0.0 \
    VOICE_METRICS_HOST=0.0.0.0 \
    VOICE_METRICS_PORT=9464
WORKDIR /app
COPY --from=deps /out/ ./
COPY --from=build /out/ ./
RUN mkdir -p /data && chown 1000:1000 /data && chmod 0700 /data
USER 1000:1000
EXPOSE ${PORT} 9464
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=16", "--max-old-space-size=1536", "--heap-growing-percent=50", "main.js"]
