# kikoplay container image.
#
# No container engine runs on the project's machines, so every build step below is one of the commands the
# CI test test/package/pack-install.test.ts runs on each change: `npm ci`, `npm pack` (its `prepack` step
# builds the server and the web app), `npm install -g --prefix <dir> <tarball>`, then `kikoplay serve` with
# a data dir, answering /api/health and /. Keep the two in step.
#
#   docker build -t kikoplay .
#   docker run -p 8888:8888 -v kikoplay-data:/data -v /srv/voice:/library:ro kikoplay
#   docker logs <container>   # the first start prints the generated admin password
#
# Libraries may be mounted read-only: scanning, browsing and streaming only read them. Saving a lyric file
# next to a track is the one thing that writes into a library; on a read-only mount it is refused with a
# clear message and nothing else is affected.

# --- build: dev dependencies, the tarball, and its installation with production dependencies only ---
FROM node:20-bookworm AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm pack --pack-destination /tmp \
 && npm install -g --prefix /opt/kikoplay --no-audit --no-fund /tmp/kikoplay-*.tgz

# --- runtime: slim Node 20, no compilers, no sources, a non-root user ---
FROM node:20-bookworm-slim
COPY --from=build /opt/kikoplay /opt/kikoplay
ENV PATH=/opt/kikoplay/bin:$PATH \
    KIKOPLAY_DATA_DIR=/data \
    NODE_ENV=production
RUN groupadd --system kikoplay \
 && useradd --system --gid kikoplay --home-dir /data --no-create-home kikoplay \
 && mkdir -p /data \
 && chown kikoplay:kikoplay /data \
 && chmod 0700 /data
USER kikoplay
VOLUME /data
EXPOSE 8888
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:8888/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["kikoplay", "serve", "--port", "8888"]
