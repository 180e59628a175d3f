package org.tcnfs.server.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP endpoints of a server, on a port of their own (the JDK's {@code com.sun.net.httpserver}):
 * <ul>
 *   <li>{@code GET /metrics}: every meter in the Prometheus text format (version 0.0.4);
 *   <li>{@code GET /health}: {@code 200 ok} while the server serves, {@code 503 stopping} once it stops;
 *   <li>{@code GET /status}: a JSON {@link ServerStatus} (version, uptime, exports, clients, sessions).
 * </ul>
 * HEAD works on each; other methods get 405, other paths 404. The endpoints have no authentication: bind
 * them where only operators reach them.
 *
 * <p>Two daemon threads ({@code tcnfs-http-N}) answer requests. Thread-safe; {@link #close()} stops
 * listening and is harmless twice.
 */
public final class AdminHttpServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AdminHttpServer.class);
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private static final String PLAIN_TEXT = "text/plain; charset=utf-8";
    private static final String JSON = "application/json";
    private static final int THREADS = 2;

    private final HttpServer http;
    private final ExecutorService executor;
    private final TcnfsMetrics metrics;
    private final BooleanSupplier serving;
    private final Supplier<ServerStatus> status;
    private boolean closed;

    private AdminHttpServer(HttpServer http, ExecutorService executor, TcnfsMetrics metrics, BooleanSupplier serving,
            Supplier<ServerStatus> status) {
        this.http = http;
        this.executor = executor;
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
        HttpServer http = HttpServer.create(new InetSocketAddress(address, port), 16);
        AtomicInteger threads = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "tcnfs-http-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        AdminHttpServer server = new AdminHttpServer(http, executor, metrics, serving, status);
        http.setExecutor(executor);
        http.createContext("/", server::handle);
        http.start();
        return server;
    }

    /** The port the endpoints listen on (the real one when 0 was asked for). */
    public int port() {
        return http.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try {
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                respond(exchange, 405, PLAIN_TEXT, "method not allowed\n");
                return;
            }
            HttpHandler handler = switch (exchange.getRequestURI().getPath()) {
                case "/metrics" -> e -> respond(e, 200, PROMETHEUS_TEXT, metrics.scrape());
                case "/health" -> e -> {
                    boolean ok = serving.getAsBoolean();
                    respond(e, ok ? 200 : 503, PLAIN_TEXT, ok ? "ok\n" : "stopping\n");
                };
                case "/status" -> e -> respond(e, 200, JSON, status.get().toJson() + "\n");
                default -> e -> respond(e, 404, PLAIN_TEXT, "not found; try /metrics, /health or /status\n");
            };
            handler.handle(exchange);
        } catch (IOException e) {
            LOG.debug("HTTP request {} {} failed: {}", exchange.getRequestMethod(), exchange.getRequestURI(),
                    e.toString());
        } catch (RuntimeException e) {
            LOG.error("HTTP request {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            if (exchange.getResponseCode() == -1) {
                respond(exchange, 500, PLAIN_TEXT, "internal error: " + e + "\n");
            }
        } finally {
            exchange.close();
        }
    }

    private static void respond(HttpExchange exchange, int code, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        if (exchange.getRequestMethod().equals("HEAD")) {
            exchange.sendResponseHeaders(code, -1);
            return;
        }
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** Stops listening (requests in flight are cut off) and stops the threads. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        http.stop(0);
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("HTTP threads did not stop within 5 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
