# Cloner container image: a static-stdlib release build on the Swift image, run on slim Debian.
#   docker build -t cloner .
#   docker run -p 127.0.0.1:8080:8080 -v cloner-data:/app/data cloner
# (podman: the same commands; build with `--format docker`, or the OCI format drops HEALTHCHECK.)

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
# (libxml2 for FoundationXML, which reads Core Data models). The debug sections are stripped;
# the symbol table stays, so crash backtraces keep their function names.
RUN swift build -c release --static-swift-stdlib --product cloner \
    && mkdir -p /out \
    && strip --strip-debug -o /out/cloner "$(swift build -c release --show-bin-path)/cloner"

# ---- run ------------------------------------------------------------------------------------
FROM debian:bookworm-slim
# openssl: the health check's HTTPS probe when TLS is on. The user and its group are both 10001,
# so files in a volume belong to no host account by accident; its home is not the app folder.
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update -q \
    && apt-get install -y -q --no-install-recommends libsqlite3-0 libssl3 libpq5 libxml2 ca-certificates openssl \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 cloner \
    && useradd --system --uid 10001 --gid 10001 --create-home --home-dir /home/cloner --shell /usr/sbin/nologin cloner
WORKDIR /app
COPY --from=build /out/cloner /usr/local/bin/cloner
COPY deploy/container-healthcheck.sh /usr/local/bin/cloner-healthcheck
COPY config ./config
RUN mkdir -p /app/data && chown 10001:10001 /app/data
# Numeric, so an orchestrator can tell the user is not root without reading /etc/passwd.
USER 10001:10001
# Inside a container the service must listen on every interface to be reachable through -p.
# The drain (CLONER_DRAIN_TIMEOUT, 2 s of it the grace) ends inside the 10 s that docker stop,
# podman stop and Kubernetes (30 s) wait after SIGTERM before they kill.
ENV CLONER_HOST=0.0.0.0 \
    CLONER_PORT=8080 \
    CLONER_DATABASE=/app/data/cloner.sqlite \
    CLONER_MODEL=/app/config/model.json \
    CLONER_DRAIN_TIMEOUT=8
VOLUME ["/app/data"]
EXPOSE 8080
# GET /healthz on CLONER_PORT, over TLS when CLONER_TLS_CERT is set; the status line must say 200.
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=3 \
    CMD ["/usr/local/bin/cloner-healthcheck"]
# SIGTERM drains in-flight requests (CLONER_DRAIN_TIMEOUT) and exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/cloner"]
CMD ["serve"]
