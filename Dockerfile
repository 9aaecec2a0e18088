# Railgun's container image, built on top of the release tarball:
#   scripts/dist                                   # builds dist/target/railgun-VERSION.tar.gz
#   docker build -t railgun:0.1.0 .                # this file; only the tarball is sent (.dockerignore)
#   docker run --rm -p 7070:7070 -v railgun-data:/data railgun:0.1.0
# The default command is `start`: one node with its embedded Kafka broker, HTTP on 0.0.0.0:7070
# inside the container (RAILGUN_HOST), data in the /data volume (RAILGUN_DATA_DIR). Any other
# arguments replace it: `docker run railgun:0.1.0 start --kafka kafka-1:19092 --node-id n1`,
# `docker run railgun:0.1.0 --help`. Settings: flags, RAILGUN_* variables (docs/configuration.md),
# or a config file mounted over /opt/railgun/conf/railgun.yaml. Runs as the non-root user railgun
# (uid 10001); bin/railgun execs the JVM, so `docker stop` (SIGTERM) stops the node cleanly.
FROM eclipse-temurin:25-jre

# ADD unpacks a local tar.gz; the wildcard lets the same file build any version.
ADD dist/target/railgun-*.tar.gz /opt/
RUN ln -s /opt/railgun-* /opt/railgun \
 && useradd --system --uid 10001 --no-create-home --home-dir /data --shell /usr/sbin/nologin railgun \
 && mkdir -p /data \
 && chown railgun:railgun /data

ENV RAILGUN_HOST=0.0.0.0 \
    RAILGUN_DATA_DIR=/data
USER railgun
WORKDIR /data
VOLUME /data
EXPOSE 7070

# GET /health with bash alone (no curl needed); plain HTTP only (not with --tls-keystore).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${RAILGUN_PORT:-7070} && printf 'GET /health HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q '\"ok\"' <&3"]

ENTRYPOINT ["/opt/railgun/bin/railgun"]
CMD ["start"]
