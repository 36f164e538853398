# Reelsmith for a real deployment: one image, two roles (web and worker), chosen by the command.
# docker-compose.yml runs it beside PostgreSQL and a Temporal cluster. (No Docker engine runs on the
# development machines; this file is kept correct by reading the images' documentation.)
FROM node:24-bookworm-slim AS base
ENV NODE_ENV=production
WORKDIR /app
# Chromium renders the videos (Remotion), ffmpeg checks them.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium ffmpeg ca-certificates fonts-dejavu-core fonts-droid-fallback fonts-nanum fonts-lohit-deva espeak-ng \
 && rm -rf /var/lib/apt/lists/*

FROM base AS build
COPY package.json package-lock.json ./
# npm install, not npm ci: see scripts/lib/dependencies.mjs (the lock cannot list every platform package)
RUN npm install --include=dev --no-audit --no-fund
COPY . .
RUN PRISMA_SCHEMA_ENGINE_BINARY=/bin/false npx prisma generate && npx remix vite:build

FROM base AS runtime
COPY --from=build /app /app
ENV PORT=3000 DATA_DIR=/data CHROMIUM_PATH=/usr/bin/chromium
VOLUME /data
EXPOSE 3000
# web: apply migrations, then serve. The worker image overrides the command (see docker-compose.yml).
CMD ["sh", "-c", "node scripts/db.mjs migrate && node --import tsx server.ts"]
