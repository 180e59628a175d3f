package org.tcnfs.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.tcnfs.client.rpc.AuthSys;
import org.tcnfs.client.rpc.NfsConnection;

/**
 * The real server (the fat jar) as a separate process, on an ephemeral port of 127.0.0.1 (its HTTP
 * endpoints on another, {@link #metricsPort()}), with an export directory and a state directory of its own.
 *
 * <p>Start it with {@link #start()}; {@link #kill()} is a SIGKILL (a crash), {@link #stop()} a SIGTERM
 * (a clean stop), {@link #restart()} starts it again on the same directories (the port may change).
 * {@link #close()} stops it and deletes its export and state directories. Everything the server prints goes to
 * {@code server.log} in its base directory; {@link #output()} returns it for failure messages.
 *
 * <p>The jar is {@code -Dtcnfs.server.jar} (the it pom sets it), else
 * {@code ../server/target/tcnfs-server.jar}.
 */
public final class ServerProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final Path base;
    private final Path exportDir;
    private final Path stateDir;
    private final Path portFile;
    private final Path metricsPortFile;
    private final Path log;
    private final List<String> extraArgs;
    private Process process;
    private int port;
    private int metricsPort;
    private int starts;

    private ServerProcess(Path base, List<String> extraArgs) {
        this.base = base;
        this.exportDir = base.resolve("export");
        this.stateDir = base.resolve("state");
        this.portFile = base.resolve("port");
        this.metricsPortFile = base.resolve("metrics-port");
        this.log = base.resolve("server.log");
        this.extraArgs = List.copyOf(extraArgs);
    }

    /** Starts a server on fresh directories. */
    public static ServerProcess start(String... extraArgs) throws IOException {
        Path work = Paths.get(System.getProperty("tcnfs.it.work", System.getProperty("java.io.tmpdir")));
        Files.createDirectories(work);
        ServerProcess server = new ServerProcess(Files.createTempDirectory(work, "server-"), List.of(extraArgs));
        Files.createDirectories(server.exportDir);
        Files.createDirectories(server.stateDir);
        server.launch();
        return server;
    }

    /** The server jar these tests run. */
    public static Path serverJar() {
        return Paths.get(System.getProperty("tcnfs.server.jar", "../server/target/tcnfs-server.jar"))
                .toAbsolutePath().normalize();
    }

    private void launch() throws IOException {
        Path jar = serverJar();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("server jar not found at " + jar
                    + " (build it with `mvn -B package -DskipTests -pl server -am`, or set -Dtcnfs.server.jar)");
        }
        Files.deleteIfExists(portFile);
        Files.deleteIfExists(metricsPortFile);
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx1g");
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(List.of("--bind", "127.0.0.1", "--port", "0", "--port-file", portFile.toString(),
                "--data", exportDir.toString(), "--state", stateDir.toString(), "--grace", "0",
                "--metrics-port", "0", "--metrics-port-file", metricsPortFile.toString()));
        command.addAll(extraArgs);
        starts++;
        Files.writeString(log, "=== start " + starts + ": " + String.join(" ", command) + "\n",
                StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(base.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        process = pb.start();
        port = awaitPort();
        // The server writes the metrics port file before the port file.
        metricsPort = Integer.parseInt(Files.readString(metricsPortFile, StandardCharsets.UTF_8).trim());
    }

    private int awaitPort() throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("server exited with status " + process.exitValue()
                        + " before writing its port file\n" + output());
            }
            try {
                String text = Files.readString(portFile, StandardCharsets.UTF_8).trim();
                if (!text.isEmpty() && text.chars().allMatch(Character::isDigit)) {
                    return Integer.parseInt(text);
                }
            } catch (NoSuchFileException e) {
                // not written yet
            }
            sleep(50);
        }
        process.destroyForcibly();
        throw new IllegalStateException("server wrote no port file within " + START_TIMEOUT + "\n" + output());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    public String host() {
        return "127.0.0.1";
    }

    /** The port the server listens on now. */
    public int port() {
        return port;
    }

    /** The port of the HTTP endpoints (/metrics, /health, /status) now. */
    public int metricsPort() {
        return metricsPort;
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(host(), port);
    }

    /** The exported directory (the root of the NFS name space). */
    public Path exportDir() {
        return exportDir;
    }

    public Path stateDir() {
        return stateDir;
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** A new connection as root. */
    public NfsConnection connect() throws IOException {
        return connect(AuthSys.ROOT);
    }

    /** A new connection as {@code caller}. */
    public NfsConnection connect(AuthSys caller) throws IOException {
        return NfsConnection.connect(address(), caller, Duration.ofSeconds(60));
    }

    /** Everything the server printed so far (all starts), for failure messages; the last 64 KiB. */
    public String output() {
        try {
            String all = Files.readString(log, StandardCharsets.UTF_8);
            return all.length() <= 65536 ? all : "...\n" + all.substring(all.length() - 65536);
        } catch (IOException e) {
            return "(no server output: " + e + ")";
        }
    }

    /** SIGKILL, as in a crash; waits until the process is gone. */
    public void kill() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        waitFor(STOP_TIMEOUT);
    }

    /**
     * SIGTERM, then waits for a clean exit.
     *
     * @throws IllegalStateException when it does not exit in time (it is killed then) or exits non-zero
     */
    public void stop() {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        if (!waitFor(STOP_TIMEOUT)) {
            process.destroyForcibly();
            waitFor(STOP_TIMEOUT);
            throw new IllegalStateException("server ignored SIGTERM for " + STOP_TIMEOUT + "\n" + output());
        }
        int status = process.exitValue();
        // 143 = 128 + SIGTERM: the JVM's default exit for a signal it handled with shutdown hooks.
        if (status != 0 && status != 143) {
            throw new IllegalStateException("server exited with status " + status + " after SIGTERM\n" + output());
        }
    }

    /** Starts the server again on the same directories, stopping it first (SIGTERM) if it runs. */
    public void restart() throws IOException {
        stop();
        launch();
    }

    private boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Stops the server (SIGTERM) and deletes its export and state directories; {@code server.log} stays
     * (under target/ when run by Maven) for post-mortems. Calling it again does nothing.
     */
    @Override
    public void close() throws IOException {
        try {
            stop();
        } finally {
            if (process != null && process.isAlive()) {
                process.destroyForcibly();
            }
            process = null;
            deleteTree(exportDir);
            deleteTree(stateDir);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    @Override
    public String toString() {
        return "ServerProcess[" + host() + ":" + port + ", " + base + "]";
    }
}
