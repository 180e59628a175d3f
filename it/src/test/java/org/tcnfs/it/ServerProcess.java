package org.tcnfs.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalDouble;
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
 * Crash tests set JVM options ({@link #setJvmArgs}, e.g. a crash point), wait for the halt
 * ({@link #awaitExit}), start it again without a stop ({@link #relaunch()}) and run {@code --check}
 * ({@link #check()}) on the same directories.
 * {@link #close()} stops it and deletes its export and state directories. Everything the server prints goes to
 * {@code server.log} in its base directory; {@link #output()} returns it for failure messages.
 *
 * <p>The jar is {@code -Dtcnfs.server.jar} (the it pom sets it), else
 * {@code ../server/target/tcnfs-server.jar}.
 */
public final class ServerProcess implements AutoCloseable {
    // generous: a server starts in 1-2 s, but a test machine shared with builds can stretch that tenfold
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final Path base;
    private final Path exportDir;
    private final Path stateDir;
    private final Path portFile;
    private final Path metricsPortFile;
    private final Path log;
    private final List<String> extraArgs;
    private final boolean trustRoot;
    private List<String> jvmArgs = List.of();
    private Process process;
    private int port;
    private int metricsPort;
    private int starts;

    private ServerProcess(Path base, List<String> extraArgs, boolean trustRoot) {
        this.trustRoot = trustRoot;
        this.base = base;
        this.exportDir = base.resolve("export");
        this.stateDir = base.resolve("state");
        this.portFile = base.resolve("port");
        this.metricsPortFile = base.resolve("metrics-port");
        this.log = base.resolve("server.log");
        this.extraArgs = List.copyOf(extraArgs);
    }

    /**
     * The server arguments every start adds unless told otherwise: the tests act as root (uid 0) in an export
     * directory the test process owns, so the default export does not squash root
     * ({@code --data-options rw,no_root_squash}; the server's own default is {@code rw,root_squash}). An
     * exports file given in the extra arguments sets its own options.
     */
    public static final List<String> TRUSTED_ROOT_ARGS = List.of("--data-options", "rw,no_root_squash");

    /**
     * Starts a server on fresh directories with only the harness's arguments (ports, directories, no grace):
     * unlike {@link #start(String...)}, the default export keeps the server's default options (root squashed).
     */
    public static ServerProcess startWithDefaultExportOptions(String... extraArgs) throws IOException {
        Path work = defaultWorkDirectory();
        Files.createDirectories(work);
        ServerProcess server = new ServerProcess(Files.createTempDirectory(work, "server-"), List.of(extraArgs),
                false);
        Files.createDirectories(server.exportDir);
        Files.createDirectories(server.stateDir);
        server.launch();
        return server;
    }

    /** Starts a server on fresh directories (the default export with {@link #TRUSTED_ROOT_ARGS}). */
    public static ServerProcess start(String... extraArgs) throws IOException {
        return start(List.of(), extraArgs);
    }

    /** Starts a server on fresh directories with JVM options ({@link #setJvmArgs}) placed before {@code -jar}. */
    public static ServerProcess start(List<String> jvmArgs, String... extraArgs) throws IOException {
        return startIn(defaultWorkDirectory(), jvmArgs, extraArgs);
    }

    /** Where servers put their directories unless told otherwise: {@code -Dtcnfs.it.work}, else the temporary directory. */
    public static Path defaultWorkDirectory() {
        return Paths.get(System.getProperty("tcnfs.it.work", System.getProperty("java.io.tmpdir")));
    }

    /** A fresh directory named {@code prefix...} under {@link #defaultWorkDirectory()}, made if missing. */
    public static Path freshWorkDirectory(String prefix) throws IOException {
        Path work = defaultWorkDirectory();
        Files.createDirectories(work);
        return Files.createTempDirectory(work, prefix);
    }

    /** Starts a server on fresh directories under {@code work}, with JVM options as {@link #start(List, String...)}. */
    public static ServerProcess startIn(Path work, List<String> jvmArgs, String... extraArgs) throws IOException {
        Files.createDirectories(work);
        ServerProcess server = new ServerProcess(Files.createTempDirectory(work, "server-"), List.of(extraArgs), true);
        server.jvmArgs = List.copyOf(jvmArgs);
        Files.createDirectories(server.exportDir);
        Files.createDirectories(server.stateDir);
        server.launch();
        return server;
    }

    /**
     * The JVM options that let a server JVM map the class-data archive of the server jar's classes (made once per
     * jar and kept under {@link #defaultWorkDirectory()}; a start then takes about half the time and CPU), or none:
     * with {@code -Dtcnfs.it.cds=false}, where {@code jvmArgs} already names an archive, or where making one failed.
     * The JVM checks that the archive fits the jar and runs without it otherwise, silently.
     */
    static List<String> classDataSharing(List<String> jvmArgs) {
        if (!Boolean.parseBoolean(System.getProperty("tcnfs.it.cds", "true"))
                || jvmArgs.stream().anyMatch(a -> a.contains("SharedArchiveFile") || a.contains("ArchiveClassesAtExit"))) {
            return List.of();
        }
        Path archive = classDataArchive();
        return archive == null ? List.of()
                : List.of("-Xshare:auto", "-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
    }

    private static Path cdsArchive;
    private static boolean cdsTried;

    /**
     * The class-data archive of the server jar, made by a first start and clean stop of a server (or by a test JVM
     * running beside this one); null if there is none.
     */
    private static synchronized Path classDataArchive() {
        if (cdsTried) {
            return cdsArchive;
        }
        cdsTried = true;
        Path jar = serverJar();
        Path archive = null;
        try {
            Path dir = defaultWorkDirectory().toAbsolutePath().resolve("cds");
            Files.createDirectories(dir);
            archive = dir.resolve("tcnfs-server-" + Files.size(jar) + "-" + Files.getLastModifiedTime(jar).toMillis()
                    + ".jsa");
            if (!Files.isRegularFile(archive)) {
                // written at the JVM's clean exit; a parallel test JVM may do the same, hence a name of its own and a
                // move; a maker that does not stop cleanly leaves no archive to use
                Path fresh = dir.resolve(archive.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
                ServerProcess maker = startIn(dir, List.of("-XX:ArchiveClassesAtExit=" + fresh, "-Xlog:cds=off",
                        "-Xlog:cds+dynamic=off"));
                maker.close();
                if (Files.isRegularFile(fresh)) {
                    Files.move(fresh, archive, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("ServerProcess: making the class-data archive failed: " + e);
        }
        if (archive != null && Files.isRegularFile(archive)) {
            cdsArchive = archive;
        } else {
            System.err.println("ServerProcess: no class-data archive; servers start without one");
        }
        return cdsArchive;
    }

    /** The server jar these tests run. */
    public static Path serverJar() {
        return Paths.get(System.getProperty("tcnfs.server.jar", "../server/target/tcnfs-server.jar"))
                .toAbsolutePath().normalize();
    }

    private void spawn() throws IOException {
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
        command.addAll(classDataSharing(jvmArgs));
        command.addAll(jvmArgs);
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(List.of("--bind", "127.0.0.1", "--port", "0", "--port-file", portFile.toString(),
                "--data", exportDir.toString(), "--state", stateDir.toString(),
                "--metrics-port", "0", "--metrics-port-file", metricsPortFile.toString()));
        if (!extraArgs.contains("--grace")) {
            command.addAll(List.of("--grace", "0"));
        }
        if (trustRoot && !extraArgs.contains("--data-options")) {
            command.addAll(TRUSTED_ROOT_ARGS);
        }
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
    }

    private void launch() throws IOException {
        spawn();
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

    /** The server's /metrics now (Prometheus text). */
    public String scrapeMetrics() throws IOException {
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
                .timeout(Duration.ofSeconds(10)).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    /** The value of the unlabelled sample {@code name} in a Prometheus scrape, or empty if it is missing. */
    public static OptionalDouble metric(String scraped, String name) {
        for (String line : scraped.split("\n")) {
            if (line.startsWith(name + " ")) {
                return OptionalDouble.of(Double.parseDouble(line.substring(name.length() + 1).trim()));
            }
        }
        return OptionalDouble.empty();
    }

    /** The value of the unlabelled sample {@code name} of the server's /metrics now; fails if it is missing. */
    public double metric(String name) throws IOException {
        String scraped = scrapeMetrics();
        return metric(scraped, name).orElseThrow(() -> new AssertionError("no metric " + name + " in\n" + scraped));
    }

    /**
     * Waits until the server's background queue ({@code tcnfs_late_pending}) is empty and its flush had time to run:
     * 1.5 s more, at most 20 s in all.
     */
    public void awaitNoLateWork() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline && metric("tcnfs_late_pending") > 0) {
            Thread.sleep(50);
        }
        Thread.sleep(1500);
    }

    /**
     * Waits until every handle row made so far is in LMDB ({@code tcnfs_handle_table_pending_rows} is 0: the
     * background flush committed it, or a commit carried it); fails when that takes longer than {@code within}.
     */
    public void awaitNoPendingRows(Duration within) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (metric("tcnfs_handle_table_pending_rows") > 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("handle rows still pending after " + within);
            }
            Thread.sleep(50);
        }
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

    /** A new connection as {@code caller} whose calls give up after {@code timeout} (crash tests). */
    public NfsConnection connect(AuthSys caller, Duration timeout) throws IOException {
        return NfsConnection.connect(address(), caller, timeout);
    }

    /**
     * JVM options for the next launches ({@link #restart()}, {@link #relaunch()}, {@link #check()}), placed
     * before {@code -jar}, e.g. {@code -Dtcnfs.crash-point=before-commit}; replaces the earlier ones. Empty by
     * default.
     */
    public void setJvmArgs(String... args) {
        this.jvmArgs = List.of(args);
    }

    /** The JVM options of the next launch. */
    public List<String> jvmArgs() {
        return jvmArgs;
    }

    /** The process id of the running (or last) server process; -1 before the first start. */
    public long pid() {
        return process == null ? -1 : process.pid();
    }

    /**
     * Waits until the server process ends by itself (a crash point halts it with 137) and returns its
     * exit status.
     *
     * @throws IllegalStateException when it still runs after {@code timeout} (it is left running)
     */
    public int awaitExit(Duration timeout) {
        if (process == null) {
            throw new IllegalStateException("never started");
        }
        if (!waitFor(timeout)) {
            throw new IllegalStateException("server still runs after " + timeout + "\n" + output());
        }
        return process.exitValue();
    }

    /**
     * Starts the server again on the same directories after its process died (a crash point, {@link #kill()}),
     * with the current {@link #jvmArgs()}; nothing is sent to the old process. Waits for the port as
     * {@link #start} does.
     *
     * @throws IllegalStateException if the server still runs, or exits before it serves
     */
    public void relaunch() throws IOException {
        if (isAlive()) {
            throw new IllegalStateException("the server still runs; kill() or stop() it before relaunch()");
        }
        launch();
    }

    /**
     * Like {@link #relaunch()}, for a launch that is expected to halt before serving (a crash point in
     * startup recovery): returns the exit status once the process ends, or -1 if it came up and serves
     * (it is left running then).
     */
    public int relaunchExpectingExit(Duration timeout) throws IOException {
        if (isAlive()) {
            throw new IllegalStateException("the server still runs; kill() or stop() it first");
        }
        Files.deleteIfExists(portFile);
        spawn();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                return process.exitValue();
            }
            if (Files.isRegularFile(portFile) && !Files.readString(portFile, StandardCharsets.UTF_8).isBlank()) {
                port = awaitPort();
                metricsPort = Integer.parseInt(Files.readString(metricsPortFile, StandardCharsets.UTF_8).trim());
                return -1;
            }
            sleep(20);
        }
        throw new IllegalStateException("server neither served nor exited within " + timeout + "\n" + output());
    }

    /** What {@code --check} said: its exit status (0 nothing pending, 3 something pending) and its output. */
    public record CheckResult(int status, String output) {
    }

    /**
     * Runs the server jar with {@code --check} on the same export and state directories (and the current
     * {@link #jvmArgs()}), which reports pending recovery records and orphan backups and changes nothing.
     * The server must not run (LMDB is opened).
     */
    public CheckResult check() throws IOException {
        if (isAlive()) {
            throw new IllegalStateException("stop the server before --check");
        }
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.addAll(classDataSharing(jvmArgs));
        command.addAll(jvmArgs);
        command.add("-jar");
        command.add(serverJar().toString());
        command.addAll(List.of("--data", exportDir.toString(), "--state", stateDir.toString(), "--check"));
        command.addAll(extraArgs);
        Process p = new ProcessBuilder(command).directory(base.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("--check did not finish within " + START_TIMEOUT + "\n" + out);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        return new CheckResult(p.exitValue(), out);
    }

    /** Everything the server printed since its last launch (the whole of it, not capped). */
    public String outputOfLastStart() {
        try {
            String all = Files.readString(log, StandardCharsets.UTF_8);
            int at = all.lastIndexOf("=== start " + starts + ":");
            return at < 0 ? all : all.substring(at);
        } catch (IOException e) {
            return "(no server output: " + e + ")";
        }
    }

    /**
     * The last {@code max} WARN and ERROR lines the server printed since its last launch, one a line (each cut at
     * 2,000 characters), for failure messages: what the server said about a status it answered.
     */
    public String warnings(int max) {
        List<String> lines = new ArrayList<>();
        for (String line : outputOfLastStart().split("\n")) {
            if (line.contains(" WARN ") || line.contains(" ERROR ")) {
                lines.add(line.length() <= 2000 ? line : line.substring(0, 2000) + "...");
            }
        }
        List<String> last = lines.subList(Math.max(0, lines.size() - max), lines.size());
        return last.isEmpty() ? "(no WARN or ERROR lines)" : String.join("\n", last);
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

    /** Deletes {@code root} and everything beneath it; nothing when it does not exist. */
    static void deleteTree(Path root) throws IOException {
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
