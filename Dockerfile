# Cloner container image: a static-stdlib release build on the Swift image, run on slim Debian.
#   docker build -t cloner .
#   docker run -p 8080:8080 -v cloner-data:/app/data cloner

# ---- build ----------------------------------------------------------------------------------
FROM swift:6.3-bookworm AS build
# The same package list as a fresh machine (and CI): the build stage can run the tests too.
COPY scripts/debian-packages.txt /tmp/debian-packages.txt
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update -q \
    && apt-get install -y -q --no-install-recommends $(grep -v '^#' /tmp/debian-packages.txt) \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Resolve dependencies in their own layer so source edits do not refetch them.
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
COPY Tests ./Tests
COPY openapi.yaml ./
# --static-swift-stdlib: the runtime image needs no Swift toolchain, only the C libraries below
# (libxml2 for FoundationXML, which reads Core Data models).
RUN swift build -c release --static-swift-stdlib --product cloner \
    && install -D "$(swift build -c release --show-bin-path)/cloner" /out/cloner

# ---- run ------------------------------------------------------------------------------------
FROM debian:bookworm-slim
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update -q \
    && apt-get install -y -q --no-install-recommends libsqlite3-0 libssl3 libpq5 libxml2 ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --create-home --home-dir /app --uid 10001 cloner
WORKDIR /app
COPY --from=build /out/cloner /usr/local/bin/cloner
COPY config ./config
RUN mkdir -p /app/data && chown -R cloner:cloner /app/data
USER cloner
# Inside a container the service must listen on every interface to be reachable through -p.
ENV CLONER_HOST=0.0.0.0 \
    CLONER_PORT=8080 \
    CLONER_DATABASE=/app/data/cloner.sqlite \
    CLONER_MODEL=/app/config/model.json
VOLUME ["/app/data"]
EXPOSE 8080
# No curl in the image: bash's /dev/tcp sends the probe, and the status line must say 200.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /healthz HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && head -n1 <&3 | grep -q ' 200 '"]
# SIGTERM drains in-flight requests (CLONER_DRAIN_TIMEOUT) and exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/cloner"]
CMD ["serve"]
