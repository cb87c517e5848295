# Verdict: a release binary built with the Swift runtime linked in, run as a non-root user on a
# slim image of the builder's distribution (Debian 12 "bookworm" on both sides).
#
#   docker build -t verdict .
#   docker run -p 8080:8080 -e VERDICT_BUNDLE_ID=… -e VERDICT_APP_APPLE_ID=… \
#       -e VERDICT_DATABASE_URL=postgres://… verdict
#
# See docker-compose.yml for the service with its PostgreSQL database. Both base images can be
# replaced (a registry mirror, a pinned digest) with --build-arg SWIFT_IMAGE=… / RUNTIME_IMAGE=…;
# keep them on one Debian release, since the binary links the runtime image's libc and libstdc++.
ARG SWIFT_IMAGE=swift:6.3-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

# ---- build ----------------------------------------------------------------------------------
FROM ${SWIFT_IMAGE} AS build
WORKDIR /src

# Resolve dependencies in their own layer so source edits don't refetch them.
# (Package.resolved is optional: the bracket glob copies it only when present.)
COPY Package.swift Package.resolve[d] ./
RUN swift package resolve

# Tests/ is copied because SwiftPM loads every declared target, even when building one product.
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --static-swift-stdlib --product verdict \
    && install -D -m 0755 "$(swift build -c release --show-bin-path)/verdict" /staging/usr/local/bin/verdict

# ---- runtime --------------------------------------------------------------------------------
FROM ${RUNTIME_IMAGE}

# The binary needs only libc, libstdc++ and zlib beyond what it links statically (it uses neither
# FoundationNetworking nor FoundationXML). ca-certificates: TLS to Apple and to PostgreSQL;
# tzdata: Foundation's time zones; curl: the health check below.
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends ca-certificates tzdata curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --user-group --uid 10001 --create-home --home-dir /var/lib/verdict verdict

COPY --from=build /staging/usr/local/bin/verdict /usr/local/bin/verdict
COPY Rules /etc/verdict/Rules

# Listen on every interface inside the container; the rules ship in the image (mount your own
# bundle over /etc/verdict/Rules to change them without rebuilding). Without
# VERDICT_DATABASE_URL the service uses SQLite in /var/lib/verdict (mount a volume there).
ENV VERDICT_HOST=0.0.0.0 \
    VERDICT_PORT=8080 \
    VERDICT_RULES_DIR=/etc/verdict/Rules

USER verdict
WORKDIR /var/lib/verdict
EXPOSE 8080

HEALTHCHECK --interval=30s --timeout=3s --start-period=20s --retries=3 \
    CMD curl -fsS "http://127.0.0.1:${VERDICT_PORT}/healthz" >/dev/null || exit 1

ENTRYPOINT ["verdict"]
CMD ["serve"]
