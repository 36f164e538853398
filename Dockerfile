# Reelsmith for a real deployment: one image, two roles (web and worker), chosen by the command (decision 204).
# docker-compose.yml runs it beside PostgreSQL, a Temporal cluster and an object store. The image runs built
# JavaScript with node alone (the web app from `remix vite:build`, the web server and the worker compiled to dist/
# by scripts/compile.mjs), holds the production dependencies only, and runs as the unprivileged user `node`.
# (No Docker engine runs on the development machines: the stages' commands are run there one by one, decision 204.)
FROM node:24-bookworm-slim AS base
ENV NODE_ENV=production
WORKDIR /app
# Chromium renders the videos (Remotion), ffmpeg mixes and checks them, eSpeak NG speaks the offline voices.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium ffmpeg ca-certificates fonts-dejavu-core fonts-droid-fallback fonts-nanum fonts-lohit-deva espeak-ng \
 && rm -rf /var/lib/apt/lists/*

# Every dependency (the build tools too): the Prisma client generated, the web app built, the server and worker compiled.
FROM base AS build
ENV ONNXRUNTIME_NODE_INSTALL_CUDA=skip
COPY package.json package-lock.json ./
# npm install, not npm ci: npm ci refuses this lock file (it cannot list other platforms' optional Remotion
# compositors, which the registry these machines use lacks: scripts/lib/dependencies.mjs, decision 204)
RUN npm install --include=dev --no-audit --no-fund
COPY . .
RUN PRISMA_SCHEMA_ENGINE_BINARY=/bin/false npx prisma generate && npm run build

# The production dependencies alone, installed afresh (no build tool, test runner or type checker among them).
FROM base AS dependencies
ENV ONNXRUNTIME_NODE_INSTALL_CUDA=skip
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force

FROM base AS runtime
COPY --from=dependencies /app/node_modules ./node_modules
COPY --from=build /app/package.json ./
# the compiled web server and worker and the built web app
COPY --from=build /app/dist ./dist
COPY --from=build /app/build ./build
# migrations (scripts/db.mjs) and the bucket's set-up (scripts/create-bucket.mjs)
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/scripts ./scripts
# read at run time: the workflows' and the video composition's sources (the worker bundles them when it starts, for
# Temporal's sandbox and for Remotion, with the app modules they import) and the helper scripts run in processes of
# their own (app/providers/speech/flite-process.mjs, workflows/engine/bundle-composition.mjs). The processes
# themselves run dist/.
COPY --from=build /app/remotion ./remotion
COPY --from=build /app/app ./app
COPY --from=build /app/workflows ./workflows
COPY --from=build /app/public ./public
COPY --from=build /app/tsconfig.json ./
# DATA_DIR belongs to the user the processes run as (a new volume takes the folder's owner)
RUN mkdir -p /data && chown node:node /data
USER node
ENV PORT=3000 DATA_DIR=/data CHROMIUM_PATH=/usr/bin/chromium
VOLUME /data
EXPOSE 3000
# web: apply migrations, then serve. The worker's command is `node dist/worker.js` (see docker-compose.yml).
CMD ["sh", "-c", "node scripts/db.mjs migrate && node dist/server.js"]
