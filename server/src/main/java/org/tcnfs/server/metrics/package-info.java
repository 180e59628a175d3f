/**
 * Metrics and the operators' HTTP endpoints.
 *
 * <p>{@link org.tcnfs.server.metrics.TcnfsMetrics} owns a Micrometer registry rendered in the Prometheus
 * text format and is the API through which layers register meters (names {@code tcnfs.<area>.<what>});
 * {@link org.tcnfs.server.metrics.MetricsHook} is the compound hook that counts and times COMPOUNDs and
 * operations; {@link org.tcnfs.server.metrics.AdminHttpServer} serves {@code /metrics}, {@code /health} and
 * {@code /status} (a {@link org.tcnfs.server.metrics.ServerStatus}) on a port of its own.
 *
 * <p>Threading: everything here is thread-safe; the hook runs on the NFS request threads, the HTTP
 * endpoints on at most eight threads of their own (Jetty's), gauges are read on those threads when scraped.
 *
 * <p>Exceptions: the hook never throws (a failing hook would change NFS replies); the HTTP server
 * answers 500 for a failure while building a reply and throws only from {@code start}, when its port
 * cannot be bound.
 */
package org.tcnfs.server.metrics;
