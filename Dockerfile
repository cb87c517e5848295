# Multi-stage build: compile a static-stdlib release binary, run it as a non-root user.
FROM swift:6.2-bookworm AS build
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --static-swift-stdlib --product verdict \
    && cp "$(swift build -c release --show-bin-path)/verdict" /verdict

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates libcurl4 libxml2 tzdata \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --create-home --home-dir /var/lib/verdict verdict
COPY --from=build /verdict /usr/local/bin/verdict
COPY Rules /etc/verdict/Rules
USER verdict
WORKDIR /var/lib/verdict
ENTRYPOINT ["/usr/local/bin/verdict"]
CMD ["--help"]
