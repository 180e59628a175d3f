package org.tcnfs.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.export.Export;
import org.tcnfs.nfs4.export.ExportOptions;
import org.tcnfs.nfs4.export.ExportRule;
import org.tcnfs.nfs4.export.ExportTable;
import org.tcnfs.nfs4.export.ExportsParser;
import org.tcnfs.nfs4.rpc.NfsServer;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.server.config.ServerConfig;
import org.tcnfs.server.fs.LocalFileSystem;
import org.tcnfs.txn.handles.HandleTable;

/**
 * A running tcnfs server: the handle table, one {@link LocalFileSystem} per export, the export table and
 * the NFS server, started from a {@link ServerConfig} and stopped by {@link #close()}.
 *
 * <p>Without an exports file, {@link ServerConfig#data()} is exported as "/" read-write without root
 * squashing (the default listens on loopback only); with one, each line's directory is exported at its own
 * path under a pseudo root with the line's options.
 */
public final class TcnfsServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TcnfsServer.class);

    private final ServerConfig config;
    private final HandleTable handles;
    private final List<LocalFileSystem> fileSystems;
    private final NfsServer nfs;
    private final Instant started;
    private boolean closed;

    private TcnfsServer(ServerConfig config, HandleTable handles, List<LocalFileSystem> fileSystems, NfsServer nfs) {
        this.config = config;
        this.handles = handles;
        this.fileSystems = fileSystems;
        this.nfs = nfs;
        this.started = Instant.now();
    }

    /** Opens the state, builds the exports and starts serving; on failure everything opened is closed. */
    public static TcnfsServer start(ServerConfig config) throws IOException {
        Files.createDirectories(config.state());
        HandleTable handles = HandleTable.open(config.state().resolve("handles"));
        List<LocalFileSystem> fileSystems = new ArrayList<>();
        try {
            List<Export> exports = exports(config, handles, fileSystems);
            NfsLimits limits = new NfsLimits(config.maxOps(), config.maxRequestBytes() + 64 * 1024,
                    config.maxRequestBytes() + 64 * 1024, config.maxIoBytes(), config.maxIoBytes(),
                    NfsLimits.DEFAULTS.maxSessionSlots(), config.lease(), config.grace());
            Path records = config.state().resolve("clients");
            Files.createDirectories(records);
            StateHandler state = new StateHandler(limits, Clock.systemUTC(), records);
            NfsServer nfs = NfsServer.builder()
                    .fileSystems(new ExportTable(exports))
                    .limits(limits)
                    .state(state)
                    .bind(config.bind(), config.port())
                    .workerThreads(config.workers())
                    .build();
            nfs.start();
            TcnfsServer server = new TcnfsServer(config, handles, fileSystems, nfs);
            server.announce(exports);
            return server;
        } catch (IOException | RuntimeException e) {
            fileSystems.forEach(LocalFileSystem::close);
            handles.close();
            throw e;
        }
    }

    private static List<Export> exports(ServerConfig config, HandleTable handles, List<LocalFileSystem> opened)
            throws IOException {
        List<Export> exports = new ArrayList<>();
        if (config.exports().isEmpty()) {
            Files.createDirectories(config.data());
            LocalFileSystem fs = LocalFileSystem.open("/", config.data(), handles);
            opened.add(fs);
            exports.add(new Export("/", fs, List.of(ExportRule.everyone(ExportOptions.TRUSTED))));
            return exports;
        }
        for (ExportsParser.Entry entry : ExportsParser.parse(config.exports().get())) {
            entry.notes().forEach(n -> LOG.info("exports line {}: {}", entry.line(), n));
            LocalFileSystem fs = LocalFileSystem.open(entry.localPath(), Path.of(entry.localPath()), handles);
            opened.add(fs);
            exports.add(new Export(entry.localPath(), fs, entry.rules()));
        }
        return exports;
    }

    private void announce(List<Export> exports) throws IOException {
        String what = exports.stream()
                .map(e -> e.path() + (config.exports().isEmpty() ? " = " + config.data().toAbsolutePath().normalize() : ""))
                .collect(Collectors.joining(", "));
        LOG.info("tcnfs {} serving {} on {}:{} (NFSv4.1, state in {}, lease {}s, grace {}s)", version(), what,
                nfs.bindAddress(), nfs.port(), config.state().toAbsolutePath().normalize(), config.lease().toSeconds(),
                config.grace().toSeconds());
        if (config.portFile().isPresent()) {
            writeAtomically(config.portFile().get(), Integer.toString(nfs.port()));
        }
    }

    /** Writes {@code text} to a temporary file and renames it over {@code target}, so readers never see half. */
    private static void writeAtomically(Path target, String text) throws IOException {
        Path abs = target.toAbsolutePath();
        Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.US_ASCII);
        Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The TCP port the server listens on. */
    public int port() {
        return nfs.port();
    }

    /** The NFS server inside (its state, its context). */
    public NfsServer nfs() {
        return nfs;
    }

    /** The version of this build, or "dev" when run from classes. */
    public static String version() {
        String v = TcnfsServer.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    /** Stops serving and closes the file systems and the handle table; calling it again does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            nfs.close();
        } catch (IOException e) {
            LOG.warn("stopping the RPC service: {}", e.getMessage());
        }
        fileSystems.forEach(LocalFileSystem::close);
        handles.close();
        LOG.info("tcnfs stopped after {}s", Duration.between(started, Instant.now()).toSeconds());
    }
}
