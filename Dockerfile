# syntax=docker/dockerfile:1
# The vfps image. The Maven wrapper builds the jar on a JDK; the runtime image then records the
# JVM's AOT cache for that jar with the very JVM that runs it (a cache is only valid for the JVM
# build and jar that made it), and runs as uid 65534 on a read-only root file system: only /tmp
# must be writable.
#
#   docker build -t vfps .                                # with the AOT cache
#   docker build --build-arg AOT_CACHE=false -t vfps .    # without: quicker build, slower start
#
# The training run behind the cache (`vfps train`) starts an embedded PostgreSQL inside the build;
# it runs as uid 65534, so it needs no user namespaces. Where it fails anyway, the build warns and
# the image starts without the cache; AOT_CACHE=required makes that failure fail the build.

ARG JDK_IMAGE=eclipse-temurin:25-jdk
ARG JRE_IMAGE=eclipse-temurin:25-jre

FROM ${JDK_IMAGE} AS build
# the git revision the jar reports (`vfps --version`, /metrics); the build context has no .git
ARG REVISION=unknown
WORKDIR /src
COPY .mvn/ .mvn/
COPY mvnw pom.xml ./
COPY conf/ conf/
COPY src/main/ src/main/
# the cache is recorded in the runtime stage below, not here on the JDK
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -ntp package -Dmaven.test.skip=true -Dvfps.aot.skip=true -Dvfps.revision=${REVISION}

FROM ${JRE_IMAGE}
ARG AOT_CACHE=true
ARG VERSION=1.0.0
ARG REVISION=unknown
ARG CREATED=1970-01-01T00:00:00Z
LABEL org.opencontainers.image.title="vfps" \
      org.opencontainers.image.description="A very fast and resource-efficient pseudonym service" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.licenses="Apache-2.0"
# the small-container profile (1 CPU, 128 MiB); the chart sets its own copy (values.yaml javaOpts)
ENV JAVA_OPTS="-XX:+UseSerialGC -Xmx32m -Xmn6m -Xss256k -XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=16m -XX:MaxDirectMemorySize=8m -XX:+ExitOnOutOfMemoryError" \
    MALLOC_ARENA_MAX=2 \
    VFPS_HOME=/opt/vfps \
    Database__Embedded__DataDirectory=/tmp/vfps/postgres
WORKDIR /opt/vfps
COPY --from=build /src/target/vfps.jar /opt/vfps/vfps.jar
# the jar's SBOM (CycloneDX): the libraries shaded into the jar, for the image's SBOM to list
COPY --from=build /src/target/vfps-*.cdx.json /opt/vfps/vfps.cdx.json
COPY bin/vfps bin/vfps-healthcheck /opt/vfps/bin/
# The training run starts its embedded PostgreSQL in a JVM of its own, with that JVM's default
# heap: the embedded PostgreSQL library reads its whole 15 MB archive into the heap, twice, to
# unpack it. The recorded JVM gets a larger heap than the profile's 32 MiB too. The heap's size is
# not part of what the cache records (classes, their linking, profiles) nor of what the JVM checks
# when it maps the cache; the unpacked binaries stay in the image (embedded-pg, read-only), so that
# a replica started without a database unpacks nothing and fits the profile's heap.
RUN if [ "$AOT_CACHE" = false ]; then exit 0; fi; \
    if setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp \
         java $JAVA_OPTS -Xmx128m -Dsun.misc.unsafe.memory.access=allow \
           -XX:AOTCacheOutput=/tmp/vfps.aot -Xlog:aot=error \
           -jar /opt/vfps/vfps.jar train; then \
      mv /tmp/vfps.aot /opt/vfps/vfps.aot && mv /tmp/embedded-pg /opt/vfps/embedded-pg && \
      chown -R root:root /opt/vfps/vfps.aot /opt/vfps/embedded-pg; \
    elif [ "$AOT_CACHE" = required ]; then \
      exit 1; \
    else \
      echo "WARNING: the AOT training run failed; the image starts without the cache"; \
    fi; \
    rm -rf /tmp/* /tmp/.[!.]*
USER 65534:65534
EXPOSE 8080 8081 8082
# ready: /healthz answers 200 once the schema is checked and while the database answers
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["/opt/vfps/bin/vfps-healthcheck"]
ENTRYPOINT ["/opt/vfps/bin/vfps"]
CMD ["serve"]
