package org.tcnfs.server;

import io.micrometer.core.instrument.FunctionCounter;
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
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.export.Export;
import org.tcnfs.nfs4.export.ExportOptions;
import org.tcnfs.nfs4.export.ExportRule;
import org.tcnfs.nfs4.export.ExportsParser;
import org.tcnfs.nfs4.rpc.NfsServer;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.server.config.ConfigLoader;
import org.tcnfs.server.config.InvalidConfigException;
import org.tcnfs.server.config.ServerConfig;
import org.tcnfs.server.config.Setting;
import org.tcnfs.server.fs.LocalFileSystem;
import org.tcnfs.server.metrics.AdminHttpServer;
import org.tcnfs.server.metrics.MetricsHook;
import org.tcnfs.server.metrics.ServerStatus;
import org.tcnfs.server.metrics.TcnfsMetrics;
import org.tcnfs.recovery.ExportArea;
import org.tcnfs.recovery.RecoveryReport;
import org.tcnfs.server.txn.StartupRecovery;
import org.tcnfs.server.txn.TransactionWiring;
import org.tcnfs.txn.CrashPoints;
import org.tcnfs.txn.TransactionHook;
import org.tcnfs.txn.backup.BackupStore;
import org.tcnfs.txn.handles.FsyncPool;
import org.tcnfs.txn.handles.HandleTable;

/**
 * A tcnfs server: the handle table, one {@link LocalFileSystem} per export, the export table, the NFS
 * server, its metrics and (when configured) the HTTP endpoints {@code /metrics}, {@code /health} and
 * {@code /status}. {@link #start()} opens all of it, {@link #close()} stops it.
 *
 * <p>Without an exports file, {@link ServerConfig#data()} is exported as "/" with
 * {@link ServerConfig#dataOptions()} (by default read-write with root squashed, as knfsd does); with one, each
 * line's directory is exported at its own path under a pseudo root with the line's options.
 *
 * <p>Embedding, with the settings the command line has (see {@link Setting}):
 * <pre>{@code
 * try (TcnfsServer server = TcnfsServer.builder()
 *         .exportRoot(Path.of("/srv/export"))
 *         .stateDirectory(Path.of("/var/lib/tcnfs"))
 *         .bind("127.0.0.1", 0)
 *         .grace(Duration.ZERO)
 *         .build()
 *         .start()) {
 *     int port = server.port();
 *     ...
 * }
 * }</pre>
 *
 * <p>Thread-safe. A server starts once; after {@link #close()} (harmless twice) build a new one.
 */
public final class TcnfsServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TcnfsServer.class);

    /** Where a server is in its life. */
    private enum State { NEW, SERVING, CLOSED }

    private final ServerConfig config;
    /** Every file system opened (a reload adds those of new exports); closed when the server stops. */
    private final List<LocalFileSystem> fileSystems = new CopyOnWriteArrayList<>();
    private volatile State state = State.NEW;
    private volatile boolean serving;
    private TcnfsMetrics metrics;
    private HandleTable handles;
    private List<Export> exports = List.of();
    private ServedExports served;
    private StateHandler nfsState;
    private NfsServer nfs;
    private TransactionWiring transactions;
    private AdminHttpServer http;
    private StateLock stateLock;
    private volatile Instant started;

    private TcnfsServer(ServerConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /** A server for {@code config}, not started yet. */
    public static TcnfsServer create(ServerConfig config) {
        return new TcnfsServer(config);
    }

    /**
     * Opens the state, builds the exports and starts serving (what {@code main} does).
     *
     * @throws IOException if a directory, the handle table or a port cannot be opened; everything opened
     *     is closed again
     */
    public static TcnfsServer start(ServerConfig config) throws IOException {
        return create(config).start();
    }

    /** A builder of an embedded server, with the defaults of {@link Setting} except that HTTP is off. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Opens the state, builds the exports and starts serving; returns this server.
     *
     * @throws IOException if a directory, the handle table or a port cannot be opened; everything opened
     *     is closed again, and the server cannot be started again
     * @throws IllegalStateException if it was started before
     */
    public synchronized TcnfsServer start() throws IOException {
        if (state != State.NEW) {
            throw new IllegalStateException("a server starts once; it is " + state);
        }
        try {
            open();
            state = State.SERVING;
            serving = true;
            announce();
            return this;
        } catch (IOException | RuntimeException e) {
            state = State.CLOSED;
            serving = false;
            release();
            throw e;
        }
    }

    private void open() throws IOException {
        metrics = TcnfsMetrics.create();
        Files.createDirectories(config.state());
        // Before anything in the state is opened: a second server on the same state stops here.
        stateLock = StateLock.acquire(config.state());
        handles = HandleTable.builder(handleTableDirectory(config)).maxPendingRows(config.asyncPendingRows())
                .crashPoints(CrashPoints.fromSystemProperties()::reach).open();
        exports = exports(config, handles, fileSystems);
        RecoveryReport recovery = StartupRecovery.recover(handles, fileSystems);
        NfsLimits limits = new NfsLimits(config.maxOps(), config.maxRequestBytes() + 64 * 1024,
                config.maxRequestBytes() + 64 * 1024, config.maxIoBytes(), config.maxIoBytes(),
                NfsLimits.DEFAULTS.maxSessionSlots(), config.lease(), config.grace());
        Path records = config.state().resolve("clients");
        Files.createDirectories(records);
        nfsState = StateHandler.builder(limits, Clock.systemUTC()).recordDirectory(records)
                .sessionLimits(config.sessionLimits()).build();
        // a file kept usable after losing its last name while open goes with its last open (CLOSE, lease expiry)
        List<LocalFileSystem> kept = fileSystems;
        nfsState.opens().onLastClose(inode -> kept.forEach(fs -> fs.releaseOpen(inode)));
        served = new ServedExports(config.exports(), exports, handles, fileSystems);
        NfsServer.Builder nfsBuilder = NfsServer.builder()
                .fileSystems(served)
                .limits(limits)
                .state(nfsState)
                .bind(config.bind(), config.port())
                .workerThreads(config.workers())
                .recordBudget(config.rpcBufferBudget())
                .recordIdleTimeout(config.rpcIdleTimeout())
                .replyBudget(config.rpcReplyBudget())
                .maxConnections(config.maxConnections())
                .minorVersions(Set.of(0, 1));
        transactions = TransactionWiring.install(nfsBuilder, config, handles, exports, fileSystems);
        // after the transaction hook: an operation's time is its own, not also the locking of the whole compound
        // (which used to land on the first operation, PUTFH, issue 16), and a compound's time includes its commit
        nfsBuilder.hook(new MetricsHook(metrics));
        served.transactions(transactions);
        nfs = nfsBuilder.build();
        nfs.start();
        started = Instant.now();
        registerGauges();
        registerGroupCommitCounters();
        metrics.gauge("tcnfs.txn.recovered", "Interrupted transactions undone by recovery at this start", null,
                () -> recovery.recovered().size());
        transactions.registerMetrics(metrics);
        if (config.metricsPort().isPresent()) {
            http = AdminHttpServer.start(config.bind(), config.metricsPort().getAsInt(), metrics, () -> serving,
                    this::status);
        }
    }

    private void registerGauges() {
        StateHandler s = nfsState;
        metrics.gauge("tcnfs.clients", "Confirmed NFSv4 clients", null, s::confirmedClientCount);
        metrics.gauge("tcnfs.sessions", "Open NFSv4.1 sessions", null, s::sessionCount);
        metrics.gauge("tcnfs.client.records", "NFSv4 client records, confirmed or not (at most max-clients)", null,
                s::clientCount);
        metrics.gauge("tcnfs.client.memory", "Estimated heap bytes of all NFSv4 clients' records, sessions, owners "
                + "and state (at most client-memory)", "bytes", s::clientMemoryBytes);
        metrics.gauge("tcnfs.reply.cache.reserved", "Bytes of reply cache reserved by all sessions (at most "
                + "reply-cache-memory)", "bytes", s::replyCacheReservedBytes);
        metrics.functionCounter("tcnfs.rpc.inline.compounds", "COMPOUNDs run on the network thread that read them "
                + "(short ones while no request was with the workers), without waking a worker", nfs::inlineCompounds);
        metrics.functionCounter("tcnfs.rpc.inline.changes", "Of tcnfs.rpc.inline.compounds, those that changed "
                + "something (plain, on an async export, flushing nothing before their reply)", nfs::inlineChanges);
        metrics.gauge("tcnfs.grace.active", "1 while the grace period runs, else 0", null, () -> s.inGrace() ? 1 : 0);
        ServedExports current = served;
        metrics.gauge("tcnfs.exports", "Exported directories", null, () -> current.exports().size());
        NfsServer server = nfs;
        metrics.gauge("tcnfs.rpc.buffered", "Bytes of RPC requests held in memory, partly received or not yet "
                + "answered (bounded by rpc-buffer-budget)", "bytes", server::bufferedRequestBytes);
        metrics.gauge("tcnfs.rpc.connections.paused", "Connections not read because rpc-buffer-budget is used up",
                null, server::pausedConnections);
        metrics.functionCounter("tcnfs.rpc.v40.replayed.calls", "NFSv4.0 calls sent again with the same XID and "
                + "answered from the duplicate request cache instead of running twice", server::replayedCalls);
        metrics.gauge("tcnfs.rpc.replies.unsent", "Bytes of replies not yet sent over all connections (bounded by "
                + "rpc-reply-budget)", "bytes", server::unsentReplyBytes);
        metrics.gauge("tcnfs.rpc.requests.waiting.replies", "Requests held, their connections not read, until the "
                + "unsent replies drain below rpc-reply-budget", null, server::requestsWaitingForReplies);
        metrics.gauge("tcnfs.rpc.connections.stalled.closed", "Connections closed because their replies were not "
                + "read while rpc-reply-budget was used up", null, server::stalledReplyConnectionsClosed);
        metrics.gauge("tcnfs.rpc.connections", "TCP connections open (at most max-connections)", null,
                server::openConnections);
        metrics.functionCounter("tcnfs.rpc.connections.closed.at.limit", "Connections closed because more than "
                + "max-connections were open", server::connectionsClosedAtLimit);
        metrics.gauge("tcnfs.rpc.requests.parked", "Requests waiting for a worker thread, their connections not "
                + "read meanwhile", null, server::parkedRequests);
        List<LocalFileSystem> fss = fileSystems;
        String fsyncs = "Device flushes the server asked for: fsyncs of exported directories (name changes) and "
                + "files (stable WRITEs, COMMITs) outside transactions' own syncs, and of the handle table's file "
                + "(one per LMDB commit, one per sync of its meta page)";
        metrics.functionCounter("tcnfs.fsyncs", fsyncs,
                () -> fss.stream().mapToLong(LocalFileSystem::directorySyncCount).sum(), "of", "directory");
        metrics.functionCounter("tcnfs.fsyncs", fsyncs,
                () -> fss.stream().mapToLong(LocalFileSystem::fileSyncCount).sum(), "of", "file");
        metrics.functionCounter("tcnfs.fsyncs", fsyncs,
                () -> fss.stream().mapToLong(LocalFileSystem::fileSystemSyncCount).sum(), "of", "filesystem");
        metrics.functionCounter("tcnfs.directory.sync.opens", "Directories opened to sync their entries after a name "
                + "change: one per changed directory and compound, except on a file system that logs in order (XFS), "
                + "where only the directories actually synced are opened",
                () -> fss.stream().mapToLong(LocalFileSystem::directorySyncOpenCount).sum());
        metrics.functionCounter("tcnfs.symlink.checks", "Directories checked on the disk to be reached from the export "
                + "root without a symbolic link (one openat2 each, which opens the directory for the rest of the "
                + "compound) when a handle was resolved: once per directory and compound while no directory is removed "
                + "or renamed, none for a directory a LOOKUP of the compound found",
                () -> fss.stream().mapToLong(LocalFileSystem::symlinkCheckCount).sum());
        metrics.functionCounter("tcnfs.path.names", "Names the kernel looked up for the system calls of handle "
                + "resolutions, LOOKUPs and listings: every name of each path given (with openat2 only names below "
                + "the export root, relative to a directory the compound opened)",
                () -> fss.stream().mapToLong(LocalFileSystem::pathNameCount).sum());
        metrics.functionCounter("tcnfs.handle.resolutions", "Handles resolved on the disk (table row, path, lstat) "
                + "for an operation: once per handle within a run of a compound's operations that change nothing",
                () -> fss.stream().mapToLong(LocalFileSystem::resolutionCount).sum());
        metrics.functionCounter("tcnfs.handle.table.reads", "Reads of the handle table by the file systems to "
                + "resolve and recognize handles and find the rows of names (one snapshot each); none while the table "
                + "has not changed since the same read was made (then the rows cache answers)",
                () -> fss.stream().mapToLong(LocalFileSystem::tableReadCount).sum());
        metrics.functionCounter("tcnfs.handle.table.cached.reads", "Reads of the handle table the file systems' rows "
                + "cache answered because the table had not changed since they were made",
                () -> fss.stream().mapToLong(LocalFileSystem::cachedRowAnswerCount).sum());
        HandleTable table = handles;
        metrics.functionCounter("tcnfs.handle.table.snapshots", "Snapshots of the handle table (an LMDB read "
                + "transaction each) by every reader: file systems, planner and locker; none for a read the table's "
                + "cache answers because the table has not changed since it was made", table::snapshotCount);
        metrics.functionCounter("tcnfs.fsyncs", fsyncs, table::flushCount,
                "of", "handle.table");
        metrics.functionCounter("tcnfs.fsyncs", fsyncs, table::journalFlushes,
                "of", "row.journal");
        metrics.functionCounter("tcnfs.row.journal.records", "Records of handle rows (plain compounds', transactions' "
                + "records and commit points) written to the row journal (made durable by its fdatasync instead of an "
                + "LMDB commit; applied to LMDB by the background flush within about 1 s)", table::journalRecords);
        metrics.functionCounter("tcnfs.row.journal.txn.record.rows", "Rows of transactions' recovery records (a "
                + "record written or its undo progress, its deletion at the commit point or after a rollback) written "
                + "to the row journal, made durable by its fdatasync instead of a durable LMDB commit",
                () -> table.journaledSideRows(TransactionHook.RECORDS_TABLE));
        metrics.gauge("tcnfs.row.journal.replayed.txn.record.rows", "Rows of transactions' recovery records that the "
                + "row journal's replay applied to the handle table when the server started, before recovery", null,
                () -> table.replayedJournalRows().getOrDefault(TransactionHook.RECORDS_TABLE, 0L));
        metrics.functionCounter("tcnfs.handle.table.commits", "LMDB write transactions committed in the handle table",
                table::commitCount);
        metrics.gauge("tcnfs.late.pending", "Directory syncs (async exports) and row removals waiting for the "
                + "background flush (at most 1 s)", null, () -> table.late().pending());
        metrics.gauge("tcnfs.handle.table.pending.rows", "Handle rows of plain compounds on async exports kept in "
                + "memory, visible to all, that no LMDB commit carried yet (committed by the background flush within "
                + "about 1 s)", null, table::uncommittedPendingRows);
        metrics.gauge("tcnfs.handle.table.pending.rows.kept", "Handle rows of async exports kept in memory, committed "
                + "or not (committed ones until no reader that began before their commit is left; at most "
                + "async-pending-rows)", null, table::pendingRows);
        metrics.gauge("tcnfs.handle.table.size", "Size of the LMDB file of the handle table", "bytes", () -> {
            OptionalLong size = handleTableBytes();
            return size.isPresent() ? size.getAsLong() : Double.NaN;
        });
    }

    /**
     * Counters of the disk flushes that compounds share (docs/durability.md, "Group commit and shared fsyncs"):
     * durable LMDB commits against the commits asked for, fsyncs run against the fsyncs asked for.
     */
    private void registerGroupCommitCounters() {
        HandleTable table = handles;
        FunctionCounter.builder("tcnfs.lmdb.durable.commits", table, t -> t.durableCommits())
                .description("Durable LMDB commits of the handle table (each carries every compound waiting for one "
                        + "at that moment)").register(metrics.registry());
        FunctionCounter.builder("tcnfs.lmdb.durable.commit.requests", table, t -> t.durableCommitRequests())
                .description("Durable LMDB commits asked for by compounds (more than tcnfs_lmdb_durable_commits_total "
                        + "when concurrent compounds shared a commit)").register(metrics.registry());
        FunctionCounter.builder("tcnfs.shared.fsyncs", table.sharedFsync(), f -> f.runs())
                .description("fsyncs of files and directories run at compounds' ends (each serves every compound "
                        + "waiting for that object at that moment)").register(metrics.registry());
        FunctionCounter.builder("tcnfs.shared.fsync.requests", table.sharedFsync(), f -> f.requests())
                .description("fsyncs of files and directories asked for at compounds' ends (more than "
                        + "tcnfs_shared_fsyncs_total when concurrent compounds shared an fsync)").register(metrics.registry());
        FunctionCounter.builder("tcnfs.fsync.pool.handoffs", FsyncPool.class, c -> FsyncPool.handOffs())
                .description("Syncs a compound handed to the fsync pool's threads instead of running them itself "
                        + "(each a thread hand-off and back)").register(metrics.registry());
        FunctionCounter.builder("tcnfs.fsync.pool.taken.back", FsyncPool.class, c -> FsyncPool.takenBack())
                .description("Of tcnfs_fsync_pool_handoffs_total, syncs the compound ran itself after its own because "
                        + "no pool thread had begun them (the pool's threads were waiting for a core)")
                .register(metrics.registry());
        FunctionCounter.builder("tcnfs.row.flushes.handed.off", table, t -> t.rowFlushesHandedOff())
                .description("Flushes of plain compounds' handle rows run on an fsync pool thread while the "
                        + "compound's own thread synced its files and directories").register(metrics.registry());
        FunctionCounter.builder("tcnfs.directory.syncs.covered", table, t -> t.directorySyncsCovered())
                .description("Directory syncs of plain compounds and transactions left out on file systems that log in "
                        + "order (XFS): the fsync of the object of the compound's last change of entries covered them")
                .register(metrics.registry());
        FunctionCounter.builder("tcnfs.directory.syncs.joined", table, t -> t.queuedDirectorySyncsJoined())
                .description("Directory syncs of plain compounds on async exports that a sync of the same directory "
                        + "already waiting in the background queue stood for (no descriptor opened)")
                .register(metrics.registry());
    }

    /** Size of the handle table's LMDB data file, if it can be read. */
    private OptionalLong handleTableBytes() {
        try {
            return OptionalLong.of(Files.size(handles.directory().resolve("data.mdb")));
        } catch (IOException e) {
            return OptionalLong.empty();
        }
    }

    private static List<Export> exports(ServerConfig config, HandleTable handles, List<LocalFileSystem> opened)
            throws IOException {
        List<Export> exports = new ArrayList<>();
        if (config.exports().isEmpty()) {
            Files.createDirectories(config.data());
            LocalFileSystem fs = LocalFileSystem.open("/", config.data(), handles);
            opened.add(fs);
            exports.add(new Export("/", fs, List.of(ExportRule.everyone(config.dataOptions()))));
            return List.copyOf(exports);
        }
        for (ExportsParser.Entry entry : ExportsParser.parse(config.exports().get())) {
            entry.notes().forEach(n -> LOG.info("exports line {}: {}", entry.line(), n));
            LocalFileSystem fs = LocalFileSystem.open(entry.localPath(), Path.of(entry.localPath()), handles);
            opened.add(fs);
            exports.add(new Export(entry.localPath(), fs, entry.rules()));
        }
        return List.copyOf(exports);
    }

    private void announce() throws IOException {
        String what = exports.stream()
                .map(e -> e.path() + (config.exports().isEmpty() ? " = " + localDirectory(e) : ""))
                .collect(Collectors.joining(", "));
        LOG.info("tcnfs {} serving {} on {}:{} (NFSv4.0 and 4.1, state in {}, lease {}s, grace {}s{})", version(), what,
                nfs.bindAddress(), nfs.port(), config.state().toAbsolutePath().normalize(), config.lease().toSeconds(),
                config.grace().toSeconds(), http == null ? ", no HTTP endpoints"
                        : ", metrics on http://" + config.bind() + ":" + http.port() + "/metrics");
        for (String warning : ExposureWarnings.of(config.bind(), nfs.port(), exports,
                http == null ? OptionalInt.empty() : OptionalInt.of(http.port()))) {
            LOG.warn(warning);
        }
        for (Export e : exports) {
            if (e.rules().stream().anyMatch(r -> r.options().async())) {
                boolean births = e.fs() instanceof LocalFileSystem local && local.keepsBirthTimes();
                LOG.info("export {} is async for some clients: their plain name changes reply before they are durable "
                        + "and may be lost in a power cut of the next second (docs/durability.md){}", e.path(),
                        births ? "" : "; WARNING: its file system keeps no birth times, so after a power cut a reused "
                        + "inode number could be taken for a lost object: use sync there");
            }
        }
        // The metrics port file first: whoever waits for the port file finds both.
        if (http != null && config.metricsPortFile().isPresent()) {
            writeAtomically(config.metricsPortFile().get(), Integer.toString(http.port()));
        }
        if (config.portFile().isPresent()) {
            writeAtomically(config.portFile().get(), Integer.toString(nfs.port()));
        }
    }

    private String localDirectory(Export export) {
        return config.exports().isEmpty()
                ? config.data().toAbsolutePath().normalize().toString()
                : Path.of(export.path()).toString();
    }

    /** Writes {@code text} to a temporary file and renames it over {@code target}, so readers never see half. */
    private static void writeAtomically(Path target, String text) throws IOException {
        Path abs = target.toAbsolutePath();
        Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.US_ASCII);
        Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private void requireServing() {
        if (state != State.SERVING) {
            throw new IllegalStateException("the server is " + state);
        }
    }

    /** The configuration this server runs with. */
    public ServerConfig config() {
        return config;
    }

    /**
     * The TCP port the NFS service listens on (the real one when 0 was asked for).
     *
     * @throws IllegalStateException unless the server serves
     */
    public int port() {
        requireServing();
        return nfs.port();
    }

    /**
     * The port of the HTTP endpoints, empty when they are off.
     *
     * @throws IllegalStateException unless the server serves
     */
    public OptionalInt metricsPort() {
        requireServing();
        return http == null ? OptionalInt.empty() : OptionalInt.of(http.port());
    }

    /**
     * The server's meters (also when the HTTP endpoints are off); {@link TcnfsMetrics#scrape()} renders them.
     *
     * @throws IllegalStateException unless the server serves
     */
    public TcnfsMetrics metrics() {
        requireServing();
        return metrics;
    }

    /**
     * The NFS server inside (its state, its context).
     *
     * @throws IllegalStateException unless the server serves
     */
    public NfsServer nfs() {
        requireServing();
        return nfs;
    }

    /**
     * What {@code /status} reports now: version, uptime, exports, clients, sessions.
     *
     * @throws IllegalStateException unless the server serves
     */
    public ServerStatus status() {
        Instant since = started;
        if (since == null || state == State.CLOSED) {
            throw new IllegalStateException("the server is " + state);
        }
        List<ServerStatus.ExportStatus> list = served.exports().stream()
                .map(e -> new ServerStatus.ExportStatus(e.path(), localDirectory(e),
                        e.rules().stream().map(TcnfsServer::exportsForm).toList()))
                .toList();
        return new ServerStatus(version(), since, Duration.between(since, Instant.now()), nfs.bindAddress(),
                nfs.port(), list, nfsState.confirmedClientCount(), nfsState.sessionCount(), nfsState.inGrace(),
                handleTableBytes(), StartupRecovery.pendingRecords(handles));
    }

    /**
     * Reads the exports file again (what SIGHUP does): new exports are served, removed ones refuse new
     * access (their handles are NFS4ERR_STALE), changed options apply to compounds that start from now on. A
     * file with an error changes nothing and is logged (file, line, cause) and reported in the result; so is a
     * server without an exports file. One reload runs at a time.
     *
     * @throws IllegalStateException unless the server serves
     */
    public synchronized ExportsReload reloadExports() {
        requireServing();
        ExportsReload reload = served.reload();
        // the start's warnings for what the reload brought in
        List<Export> touched = served.exports().stream()
                .filter(e -> reload.added().contains(e.path()) || reload.changed().contains(e.path())).toList();
        ExposureWarnings.of(config.bind(), nfs.port(), touched, OptionalInt.empty()).forEach(LOG::warn);
        return reload;
    }

    /** Where the handle table's environment lives under the state directory ({@link HandleTable#open}). */
    private static Path handleTableDirectory(ServerConfig config) {
        return config.state().resolve("handles");
    }

    /**
     * What {@code --check} reports: the pending recovery records and orphan backups of the configured state
     * and exports, found without undoing or deleting anything and without serving. It creates nothing: a
     * missing state directory, handle table, export or backup area has nothing to report. It holds the
     * {@link StateLock} while it reads, so it never reads the state of a running server.
     *
     * @throws StateLock.InUseException if a server (or another {@code --check}) holds the state directory
     * @throws IOException if the state or an export cannot be read, or a record cannot be read
     */
    public static RecoveryReport check(ServerConfig config) throws IOException {
        RecoveryReport nothing = new RecoveryReport(List.of(), List.of(), List.of(), Duration.ZERO);
        if (!Files.isDirectory(config.state())) {
            return nothing;
        }
        Optional<StateLock> lock = StateLock.acquireForReading(config.state());
        try {
            Path table = handleTableDirectory(config);
            // HandleTable.open creates its environment directory: only open one that exists.
            if (!Files.isDirectory(table.resolve("handles"))) {
                return nothing;
            }
            try (HandleTable handles = HandleTable.open(table)) {
                return StartupRecovery.checkAreas(handles, checkAreas(config));
            }
        } finally {
            lock.ifPresent(StateLock::close);
        }
    }

    /** The backup areas of the configured exports that exist, for {@link #check}; none is created. */
    private static List<ExportArea> checkAreas(ServerConfig config) throws IOException {
        List<ExportArea> areas = new ArrayList<>();
        if (config.exports().isEmpty()) {
            addArea(areas, "/", config.data());
        } else {
            for (ExportsParser.Entry entry : ExportsParser.parse(config.exports().get())) {
                addArea(areas, entry.localPath(), Path.of(entry.localPath()));
            }
        }
        return areas;
    }

    private static void addArea(List<ExportArea> areas, String exportId, Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return;
        }
        Path root = directory.toRealPath();
        Path backups = root.resolve(LocalFileSystem.RESERVED_NAME).resolve(TransactionWiring.BACKUP_AREA);
        if (Files.isDirectory(backups)) {
            areas.add(new ExportArea(exportId, root, BackupStore.open(backups)));
        }
    }

    /** A rule as an exports file would say it: {@code 10.0.0.0/8(rw,root_squash,anonuid=65534,...)}. */
    static String exportsForm(ExportRule rule) {
        ExportOptions o = rule.options();
        String security = o.security().stream().map(f -> "sec=" + f.name().toLowerCase(Locale.ROOT))
                .sorted().collect(Collectors.joining(","));
        return rule.clients() + "(" + (o.isReadOnly() ? "ro" : "rw") + ","
                + o.squash().name().toLowerCase(Locale.ROOT) + ",anonuid=" + o.anonUid() + ",anongid=" + o.anonGid()
                + (security.isEmpty() ? "" : "," + security) + ",txn=" + o.txn().name().toLowerCase(Locale.ROOT)
                + (o.async() ? ",async" : "") + ")";
    }

    /** The version of this build, or "dev" when run from classes. */
    public static String version() {
        String v = TcnfsServer.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    /** Stops serving and closes the endpoints, the file systems and the handle table; harmless twice. */
    @Override
    public synchronized void close() {
        if (state == State.CLOSED) {
            return;
        }
        boolean wasServing = state == State.SERVING;
        state = State.CLOSED;
        serving = false;
        release();
        if (wasServing) {
            LOG.info("tcnfs stopped after {}s", Duration.between(started, Instant.now()).toSeconds());
        }
    }

    /** Closes whatever {@link #open()} opened, in reverse order. */
    private void release() {
        if (http != null) {
            http.close();
        }
        if (transactions != null) {
            // first: refuse new compounds, drain those in flight, then stop the backup cleaner, while the
            // state, file systems and handle table they need are still open
            transactions.close();
        }
        if (nfs != null) {
            try {
                nfs.close();
            } catch (IOException | RuntimeException e) {
                LOG.warn("stopping the RPC service: {}", e.toString());
            }
        } else if (nfsState != null) {
            nfsState.close();
        }
        fileSystems.forEach(LocalFileSystem::close);
        if (handles != null) {
            handles.close();
        }
        if (metrics != null) {
            metrics.close();
        }
        if (stateLock != null) {
            stateLock.close();
        }
    }

    /**
     * Settings of an embedded server. Each method sets one {@link Setting} and {@link #build()} checks them
     * all as the command line would, so a bad value fails with the same message naming the setting.
     * Unlike the command line, nothing is read from the environment, and the HTTP endpoints are off unless
     * {@link #metricsPort(int)} is called.
     */
    public static final class Builder {
        private static final String SOURCE = "TcnfsServer.Builder.";
        private final ConfigLoader loader = new ConfigLoader();

        private Builder() {
            loader.value(Setting.METRICS_PORT, ConfigLoader.METRICS_OFF, SOURCE + "<init>");
        }

        private Builder set(Setting setting, Object value, String method) {
            loader.value(setting, String.valueOf(Objects.requireNonNull(value, method)), SOURCE + method);
            return this;
        }

        /** The directory exported as "/" (created if missing); default {@code ./data}. */
        public Builder exportRoot(Path directory) {
            return set(Setting.DATA, directory, "exportRoot");
        }

        /** The server's own state (handle table, client record; created if missing); default {@code ./state}. */
        public Builder stateDirectory(Path directory) {
            return set(Setting.STATE, directory, "stateDirectory");
        }

        /**
         * Options of the export of {@link #exportRoot} in /etc/exports form, applied over
         * {@code rw,root_squash}; e.g. {@code "no_root_squash"} for a trusted network.
         */
        public Builder exportOptions(String options) {
            return set(Setting.DATA_OPTIONS, options, "exportOptions");
        }

        /** An exports file in /etc/exports form, instead of {@link #exportRoot}. */
        public Builder exportsFile(Path file) {
            return set(Setting.EXPORTS, file, "exportsFile");
        }

        /** Address and TCP port of the NFS service; port 0 picks a free one ({@link TcnfsServer#port()}). */
        public Builder bind(String address, int port) {
            set(Setting.BIND, address, "bind");
            return set(Setting.PORT, port, "bind");
        }

        /** NFSv4 lease time; default 90 s. */
        public Builder lease(Duration lease) {
            return set(Setting.LEASE, lease, "lease");
        }

        /** Grace period after the start; {@link Duration#ZERO} for none; default 90 s. */
        public Builder grace(Duration grace) {
            return set(Setting.GRACE, grace, "grace");
        }

        /** Most operations per COMPOUND a session may negotiate; default 4096. */
        public Builder maxOps(int maxOps) {
            return set(Setting.MAX_OPS, maxOps, "maxOps");
        }

        /** Largest COMPOUND request a session may negotiate, in bytes; default 16 MiB. */
        public Builder maxRequestBytes(int bytes) {
            return set(Setting.MAX_REQUEST, bytes, "maxRequestBytes");
        }

        /** Largest READ and WRITE, in bytes; default 1 MiB. */
        public Builder maxIoBytes(int bytes) {
            return set(Setting.MAX_IO, bytes, "maxIoBytes");
        }

        /** Request worker threads; 0 (the default) means two per processor, at least 4. */
        public Builder workers(int workers) {
            return set(Setting.WORKERS, workers, "workers");
        }

        /** Serves /metrics, /health and /status on this port of the bind address; 0 picks a free one. */
        public Builder metricsPort(int port) {
            return set(Setting.METRICS_PORT, port, "metricsPort");
        }

        /**
         * A server with these settings, not started yet.
         *
         * @throws InvalidConfigException naming the first invalid setting and the builder method that set it
         */
        public TcnfsServer build() {
            return new TcnfsServer(loader.load());
        }
    }
}
