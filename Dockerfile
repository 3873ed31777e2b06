# One image for every service and the gateway; SERVICE picks the entry point at run time (the
# Kubernetes manifests name the command of each workload instead, infra/k8s/base).
# Node 24 (LTS), pinned to one release; the same version CI runs the compiled build on
# (NODE_LTS_VERSION in infra/local/provision.sh). infra/test/image.test.ts checks the rules below.
# Pinned by tag, not yet by digest: no registry answers from the machines this was written on, so
# the digest of the tag's multi-platform index could not be read, and the digests public
# Dockerfiles give for this tag disagree (several values: per-platform manifests, earlier
# rebuilds of the tag), so none is taken on trust. Where a registry answers, pin it:
# `docker buildx imagetools inspect node:24.21.0-bookworm-slim` prints the index digest (the
# `Digest:` line, not a platform's), then ARG NODE_IMAGE=node:24.21.0-bookworm-slim@sha256:<it>;
# the test accepts the tag with or without a digest.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# --- build: every dependency, then `npm run build` (tsc per workspace to dist/, vite for web) ---
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches patches
COPY packages/kit/package.json packages/kit/
COPY packages/contracts/package.json packages/contracts/
COPY services/auth/package.json services/auth/
COPY services/requests/package.json services/requests/
COPY services/files/package.json services/files/
COPY services/zipcodes/package.json services/zipcodes/
COPY services/leads/package.json services/leads/
COPY services/notifications/package.json services/notifications/
COPY gateway/package.json gateway/
COPY web/package.json web/
# Runs the root postinstall too: patch-package applies patches/kafkajs+2.2.4.patch.
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages packages
COPY services services
COPY gateway gateway
COPY web web
RUN npm run build

# --- runtime: production dependencies only, the compiled files, run by plain node ---
FROM ${NODE_IMAGE}
WORKDIR /app
# NODE_OPTIONS: the workspace packages (kit, contracts) resolve to their compiled dist/ under this
# condition (their package.json `exports`), for the servers and for operator commands alike
# (`node services/auth/dist/cli/create-admin.js`).
ENV NODE_ENV=production LOG_FORMAT=json HOST=0.0.0.0 NODE_OPTIONS=--conditions=homereport-dist
# Two malloc arenas rather than one per thread (PROCESS_ENV in infra/local/stack.mjs): 2-3 MB less per process.
ENV MALLOC_ARENA_MAX=2
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/packages/kit/package.json packages/kit/
COPY --from=build /app/packages/contracts/package.json packages/contracts/
COPY --from=build /app/services/auth/package.json services/auth/
COPY --from=build /app/services/requests/package.json services/requests/
COPY --from=build /app/services/files/package.json services/files/
COPY --from=build /app/services/zipcodes/package.json services/zipcodes/
COPY --from=build /app/services/leads/package.json services/leads/
COPY --from=build /app/services/notifications/package.json services/notifications/
COPY --from=build /app/gateway/package.json gateway/
# web's package.json only so the lockfile still matches the workspaces: the --workspace flags
# below install the dependencies of the servers' workspaces alone, none of web's (React, the
# chart libraries; web/dist is static files the gateway serves).
COPY --from=build /app/web/package.json web/
# --ignore-scripts: the root postinstall runs patch-package, a dev dependency; the only
# production dependency with an install script is argon2, whose script only looks for the
# prebuilt binary it ships (linux x64 and arm64). The patched kafkajs comes from the build stage.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
      --workspace=packages/kit --workspace=packages/contracts --workspace=services/auth \
      --workspace=services/requests --workspace=services/files --workspace=services/zipcodes \
      --workspace=services/leads --workspace=services/notifications --workspace=gateway \
    && npm cache clean --force
COPY --from=build /app/node_modules/kafkajs node_modules/kafkajs
COPY --from=build /app/packages/kit/dist packages/kit/dist
COPY --from=build /app/packages/kit/bin packages/kit/bin
COPY --from=build /app/packages/contracts/dist packages/contracts/dist
COPY --from=build /app/services/auth/dist services/auth/dist
COPY --from=build /app/services/auth/data services/auth/data
COPY --from=build /app/services/requests/dist services/requests/dist
COPY --from=build /app/services/files/dist services/files/dist
COPY --from=build /app/services/zipcodes/dist services/zipcodes/dist
COPY --from=build /app/services/zipcodes/sample services/zipcodes/sample
COPY --from=build /app/services/leads/dist services/leads/dist
COPY --from=build /app/services/notifications/dist services/notifications/dist
COPY --from=build /app/gateway/dist gateway/dist
COPY --from=build /app/web/dist web/dist
# The official image's unprivileged user (uid 1000); the Kubernetes manifests require a non-root uid.
USER 1000:1000
# Docker's (and compose's) health: the process answers /health/ready on its port (PORT, else
# its default), ready once it reaches its MongoDB (and S3, files), so `depends_on: condition:
# service_healthy` waits for a process that can serve.
# node, as the slim image has no curl or wget; node:http, not fetch, which would load undici.
# Kubernetes ignores this and runs its own probes (infra/k8s/base/patches/workload.yaml).
HEALTHCHECK --interval=10s --timeout=4s --start-period=60s --retries=3 \
  CMD ["node", "-e", "const d={gateway:8080,auth:4001,requests:4002,files:4003,zipcodes:4004,leads:4005,notifications:4006};const port=process.env.PORT||d[process.env.SERVICE];process.getBuiltinModule('node:http').get({host:'127.0.0.1',port,path:'/health/ready',timeout:3000},(r)=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1)).on('timeout',()=>process.exit(1))"]
# SERVICE is one of: gateway, auth, requests, files, zipcodes, leads, notifications; unset or
# anything else stops the container at once with a message naming them. The Kubernetes manifests
# set SERVICE and run this CMD too.
# The heap is sized from the container's memory limit by packages/kit/bin/heap.mjs (the one place
# that computes it; the local stack uses it as well): MEMORY_LIMIT_MIB when the manifests pass the
# pod's limit, else the cgroup's (compose's mem_limit), else V8's own sizing. It prints the flag.
CMD ["sh", "-c", "case \"$SERVICE\" in gateway) entry=gateway/dist/server.js ;; auth|requests|files|zipcodes|leads|notifications) entry=services/$SERVICE/dist/server.js ;; *) echo \"SERVICE is '${SERVICE:-}': set it to one of gateway, auth, requests, files, zipcodes, leads, notifications\" >&2; exit 64 ;; esac; flags=$(node packages/kit/bin/heap.mjs) || exit 64; exec node $flags \"$entry\""]
