# The consent-ledger service. Built and run by docker-compose.yml (see README, "Docker Compose").
#   docker build -t consent-ledger .
#   docker run -p 3000:3000 -v consent-data:/app/data consent-ledger   # embedded store in the volume

# Build: all dependencies, `npm ci` compiles dist/ through the "prepare" script, then drop the
# dev dependencies (TypeScript, vitest, eslint) before the runtime stage copies node_modules.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY src ./src
COPY projections ./projections
# The console's sources and their build (dist/console, docs/console.md).
COPY console ./console
COPY scripts/build-console.mjs ./scripts/build-console.mjs
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
# DATA_DIR: the embedded store when no DATABASE_URL is set, and the generated master key
# (master.key) when neither MASTER_KEY nor MASTER_KEY_FILE is: keep it on a volume.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 3000
# /ready answers 200 once the ledger and the read store answer. The image has no curl: Node's fetch.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["npm", "start"]
