# syntax=docker/dockerfile:1
#
# contracts: a static binary on distroless, running as a non-root user.
#
#   docker build -t contracts --build-arg VERSION=$(git describe --always) .
#   docker run -d --name contracts -p 8080:8080 -p 8081:8081 -v contracts-data:/data contracts
#
# The admin listener stays on 127.0.0.1:8082 inside the container; use
# "docker exec contracts contracts admin ..." or publish it on loopback with
#   -e CONTRACTS_ADMIN__LISTEN=0.0.0.0:8082 -p 127.0.0.1:8082:8082

FROM golang:1.26 AS build
WORKDIR /src
# Modules first, so that source changes keep the download layer cached.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/contracts . \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/contracts /usr/local/bin/contracts
# An empty /data owned by the nonroot user (65532), so a new volume is writable.
COPY --from=build --chown=65532:65532 /out/data /data
ENV CONTRACTS_DATA__DIR=/data \
    CONTRACTS_EMBEDDED__LISTEN=0.0.0.0:8080 \
    CONTRACTS_KEY__LISTEN=0.0.0.0:8081 \
    CONTRACTS_ADMIN__LISTEN=127.0.0.1:8082
VOLUME ["/data"]
EXPOSE 8080 8081
USER 65532:65532
WORKDIR /data
# SIGTERM (docker stop) drains HTTP, stops the workers and closes the database.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/contracts"]
CMD ["serve"]
