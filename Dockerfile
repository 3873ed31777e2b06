# One image for every service and the gateway; SERVICE picks the entry point at run time.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
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
RUN npm install --no-audit --no-fund

FROM deps AS web
COPY web web
RUN npm run build -w web

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production LOG_FORMAT=json HOST=0.0.0.0
COPY --from=deps /app/node_modules node_modules
COPY . .
COPY --from=web /app/web/dist web/dist
USER node
# SERVICE is one of: gateway, auth, requests, files, zipcodes, leads, notifications
# The two processes that stream uploads collect dead body chunks sooner with a small young
# generation (see NODE_FLAGS in infra/local/stack.mjs): gateway 2 MB, files 1 MB.
CMD ["sh", "-c", "if [ \"$SERVICE\" = gateway ]; then exec node --max-semi-space-size=2 --import tsx gateway/src/server.ts; elif [ \"$SERVICE\" = files ]; then exec node --max-semi-space-size=1 --import tsx services/files/src/server.ts; else exec node --import tsx services/$SERVICE/src/server.ts; fi"]
