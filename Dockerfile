# syntax=docker/dockerfile:1
# skillgraph as a container: a static binary (no cgo) on distroless, run as
# a non-root user; the HEALTHCHECK is the binary's own probe of /readyz
# (a static image has no curl). Build: docker build -t skillgraph .
# Run: docker run -p 8080:8080 -v "$PWD/harness:/corpus:ro" -v skillgraph:/home/nonroot skillgraph
# docs/deploy.md has the details; cmd/skillgraph's TestDockerfile checks
# that this file builds and runs the binary the tests run.

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags="-s -w" -o /out/skillgraph ./cmd/skillgraph

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/skillgraph /usr/local/bin/skillgraph
USER nonroot:nonroot
WORKDIR /home/nonroot
ENV SKILLGRAPH_ADDR=0.0.0.0:8080 \
    SKILLGRAPH_STORE=bbolt:/home/nonroot/.skillgraph/graph.db \
    SKILLGRAPH_LOG_FORMAT=json
EXPOSE 8080
VOLUME ["/home/nonroot"]
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["/usr/local/bin/skillgraph", "healthcheck", "--url", "http://127.0.0.1:8080/readyz"]
ENTRYPOINT ["/usr/local/bin/skillgraph"]
CMD ["serve", "--corpus", "/corpus", "--watch"]
