package org.tcnfs.server.metrics;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP endpoints of a server, on a port of their own (Jetty's core HTTP server, no servlets):
 * <ul>
 *   <li>{@code GET /metrics}: every meter in the Prometheus text format (version 0.0.4);
 *   <li>{@code GET /health}: {@code 200 ok} while the server serves, {@code 503 stopping} once it stops;
 *   <li>{@code GET /status}: a JSON {@link ServerStatus} (version, uptime, exports, clients, sessions).
 * </ul>
 * HEAD works on each; other methods get 405, other paths 404. The endpoints have no authentication: bind
 * them where only operators reach them.
 *
 * <p>Slow or idle clients cannot starve the endpoints: requests are read without blocking a thread (a
 * half-sent request holds a socket, not one of the {@value #MAX_THREADS} threads {@code tcnfs-http-N}), a
 * connection that sends nothing for {@value #READ_TIMEOUT_MS} ms is closed, request headers are at most
 * {@value #MAX_HEADER_BYTES} bytes, and at most {@value #MAX_CONNECTIONS} connections are open at a time
 * (at that limit the others are closed after {@value #READ_TIMEOUT_AT_LIMIT_MS} ms without data).
 *
 * <p>Thread-safe; {@link #close()} stops listening and is harmless twice.
 */
public final class AdminHttpServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AdminHttpServer.class);
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private static final String PLAIN_TEXT = "text/plain; charset=utf-8";
    private static final String JSON = "application/json";
    /** Threads of the endpoints: the acceptor, the selector and those that answer complete requests. */
    static final int MAX_THREADS = 8;
    /** A connection that sends nothing for this long (in the middle of a request or between requests) is closed. */
    static final int READ_TIMEOUT_MS = 10_000;
    /** Open connections at most; past it the server stops accepting until one closes. */
    static final int MAX_CONNECTIONS = 128;
    /** The read timeout of every connection while {@link #MAX_CONNECTIONS} are open. */
    static final int READ_TIMEOUT_AT_LIMIT_MS = 1_000;
    /** Largest request line and headers. */
    static final int MAX_HEADER_BYTES = 8192;

    private final Server http;
    private final ServerConnector connector;
    private final TcnfsMetrics metrics;
    private final BooleanSupplier serving;
    private final Supplier<ServerStatus> status;
    private boolean closed;

    private AdminHttpServer(Server http, ServerConnector connector, TcnfsMetrics metrics, BooleanSupplier serving,
            Supplier<ServerStatus> status) {
        this.http = http;
        this.connector = connector;
        this.metrics = metrics;
        this.serving = serving;
        this.status = status;
    }

    /**
     * Binds {@code address:port} (port 0: any free one) and starts answering.
     *
     * @param serving whether the server serves (decides /health)
     * @param status the snapshot /status reports, taken per request
     * @throws IOException if the port cannot be bound
     */
    public static AdminHttpServer start(String address, int port, TcnfsMetrics metrics, BooleanSupplier serving,
            Supplier<ServerStatus> status) throws IOException {
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(serving, "serving");
        Objects.requireNonNull(status, "status");
        // The job queue is Jetty's unbounded default (Jetty warns against a bounded one); the connection
        // limit bounds it, as a connection has at most one request in progress.
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 2);
        threads.setName("tcnfs-http");
        threads.setDaemon(true);
        threads.setReservedThreads(0);
        Server http = new Server(threads);
        http.setStopTimeout(0);
        HttpConfiguration config = new HttpConfiguration();
        config.setSendServerVersion(false);
        config.setSendDateHeader(false);
        config.setRequestHeaderSize(MAX_HEADER_BYTES);
        ServerConnector connector = new ServerConnector(http, 1, 1, new HttpConnectionFactory(config));
        connector.setHost(address);
        connector.setPort(port);
        connector.setIdleTimeout(READ_TIMEOUT_MS);
        connector.setAcceptQueueSize(64);
        http.addConnector(connector);
        NetworkConnectionLimit limit = new NetworkConnectionLimit(MAX_CONNECTIONS, connector);
        limit.setEndPointIdleTimeout(READ_TIMEOUT_AT_LIMIT_MS);
        http.addBean(limit);
        AdminHttpServer server = new AdminHttpServer(http, connector, metrics, serving, status);
        http.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                server.handle(request, response, callback);
                return true;
            }
        });
        try {
            http.start();
        } catch (Exception e) {
            stopQuietly(http);
            if (e instanceof IOException io) {
                throw io;
            }
            throw new IOException("cannot start the HTTP endpoints on " + address + ":" + port + ": " + e, e);
        }
        return server;
    }

    /** The port the endpoints listen on (the real one when 0 was asked for). */
    public int port() {
        return connector.getLocalPort();
    }

    private void handle(Request request, Response response, Callback callback) {
        String method = request.getMethod();
        String path = Request.getPathInContext(request);
        try {
            if (!method.equals("GET") && !method.equals("HEAD")) {
                response.getHeaders().put("Allow", "GET, HEAD");
                respond(request, response, callback, 405, PLAIN_TEXT, "method not allowed\n");
                return;
            }
            switch (path) {
                case "/metrics" -> respond(request, response, callback, 200, PROMETHEUS_TEXT, metrics.scrape());
                case "/health" -> {
                    boolean ok = serving.getAsBoolean();
                    respond(request, response, callback, ok ? 200 : 503, PLAIN_TEXT, ok ? "ok\n" : "stopping\n");
                }
                case "/status" -> respond(request, response, callback, 200, JSON, status.get().toJson() + "\n");
                default -> respond(request, response, callback, 404, PLAIN_TEXT,
                        "not found; try /metrics, /health or /status\n");
            }
        } catch (RuntimeException e) {
            LOG.error("HTTP request {} {} failed", method, path, e);
            if (!response.isCommitted()) {
                response.getHeaders().clear();
                respond(request, response, callback, 500, PLAIN_TEXT, "internal error: " + e + "\n");
            } else {
                callback.failed(e);
            }
        }
    }

    private static void respond(Request request, Response response, Callback callback, int code, String contentType,
            String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(code);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        if (request.getMethod().equals("HEAD")) {
            response.write(true, null, callback);
            return;
        }
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    private static void stopQuietly(Server http) {
        try {
            http.stop();
        } catch (Exception e) {
            LOG.debug("stopping the HTTP endpoints: {}", e.toString());
        }
    }

    /** Stops listening (requests in flight are cut off) and stops the threads. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        long start = System.nanoTime();
        stopQuietly(http);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        if (millis > 5000) {
            LOG.warn("HTTP endpoints took {} ms to stop", millis);
        }
    }
}
