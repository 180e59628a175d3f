package org.tcnfs.server.config;

import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.tcnfs.txn.SpanningLimits;
import java.util.OptionalInt;
import java.util.Properties;
import org.tcnfs.nfs4.export.ExportOptions;
import org.tcnfs.nfs4.export.ExportsParser;
import org.tcnfs.nfs4.state.SessionLimits;

/**
 * Builds a {@link ServerConfig} from defaults, a configuration file, the environment and command-line
 * values, in that order of rising priority, and refuses invalid values with a message naming the setting.
 */
public final class ConfigLoader {
    /** The value of {@link Setting#METRICS_PORT} that turns the HTTP endpoints off. */
    public static final String METRICS_OFF = "off";

    private final Map<Setting, String> values = new EnumMap<>(Setting.class);
    private final Map<Setting, String> sources = new EnumMap<>(Setting.class);

    public ConfigLoader() {
        for (Setting s : Setting.values()) {
            values.put(s, s.defaultValue());
            sources.put(s, "default");
        }
    }

    /**
     * Reads a {@code key=value} file (Java properties syntax, '#' comments).
     *
     * @throws InvalidConfigException for an unknown key or an unreadable file
     */
    public ConfigLoader file(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        } catch (IOException e) {
            throw new InvalidConfigException("cannot read configuration file " + file + ": " + e.getMessage());
        }
        for (String key : p.stringPropertyNames()) {
            Setting s = Setting.byKey(key).orElseThrow(() -> new InvalidConfigException(
                    "unknown setting '" + key + "' in " + file + "; known settings: " + Setting.keys()));
            set(s, p.getProperty(key).trim(), file.toString());
        }
        return this;
    }

    /** Takes every {@code TCNFS_*} variable of {@code environment} that names a setting. */
    public ConfigLoader environment(Map<String, String> environment) {
        for (Setting s : Setting.values()) {
            String v = environment.get(s.environmentVariable());
            if (v != null) {
                set(s, v.trim(), "environment variable " + s.environmentVariable());
            }
        }
        return this;
    }

    /** Sets one value from the command line. */
    public ConfigLoader flag(Setting setting, String value) {
        if (value != null) {
            set(setting, value, "--" + setting.key());
        }
        return this;
    }

    /**
     * Sets one value from another source, such as an embedding program; {@code source} appears in the
     * message if the value is refused.
     */
    public ConfigLoader value(Setting setting, String value, String source) {
        set(Objects.requireNonNull(setting, "setting"), Objects.requireNonNull(value, "value"),
                Objects.requireNonNull(source, "source"));
        return this;
    }

    private void set(Setting s, String value, String source) {
        values.put(s, value);
        sources.put(s, source);
    }

    /**
     * The validated configuration.
     *
     * @throws InvalidConfigException naming the first invalid setting and where it came from
     */
    public ServerConfig load() {
        String bind = text(Setting.BIND);
        try {
            InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw invalid(Setting.BIND, "not an address");
        }
        int port = (int) integer(Setting.PORT, 0, 65535);
        Path data = path(Setting.DATA).orElseThrow(() -> invalid(Setting.DATA, "must not be empty"));
        Path state = path(Setting.STATE).orElseThrow(() -> invalid(Setting.STATE, "must not be empty"));
        Optional<Path> exports = path(Setting.EXPORTS);
        if (exports.isPresent() && !Files.isRegularFile(exports.get())) {
            throw invalid(Setting.EXPORTS, "no such file");
        }
        Duration lease = duration(Setting.LEASE);
        if (lease.isZero() || lease.toSeconds() < 1) {
            throw invalid(Setting.LEASE, "must be at least 1s");
        }
        Duration grace = duration(Setting.GRACE);
        int maxOps = (int) integer(Setting.MAX_OPS, 16, 1 << 20);
        int maxRequest = (int) size(Setting.MAX_REQUEST, 64 * 1024, 1L << 30);
        int maxIo = (int) size(Setting.MAX_IO, 4096, 64L << 20);
        int workers = (int) integer(Setting.WORKERS, 0, 4096);
        if (workers == 0) {
            workers = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
        }
        OptionalInt metricsPort = metricsPort(port);
        Optional<Path> metricsPortFile = path(Setting.METRICS_PORT_FILE);
        if (metricsPort.isEmpty() && metricsPortFile.isPresent()) {
            throw invalid(Setting.METRICS_PORT_FILE, "the metrics endpoints are off (metrics-port=off)");
        }
        ExportOptions dataOptions;
        try {
            dataOptions = ExportsParser.parseOptions(text(Setting.DATA_OPTIONS), ExportOptions.DEFAULT_EXPORT);
        } catch (IllegalArgumentException e) {
            throw invalid(Setting.DATA_OPTIONS, e.getMessage());
        }
        long budgetPerTxn = size(Setting.BACKUP_BUDGET_PER_TXN, 0, Long.MAX_VALUE);
        long budgetTotal = size(Setting.BACKUP_BUDGET_TOTAL, 0, Long.MAX_VALUE);
        if (budgetTotal < budgetPerTxn) {
            throw invalid(Setting.BACKUP_BUDGET_TOTAL, "must be at least backup-budget-per-txn (" + budgetPerTxn + ")");
        }
        long rpcBudget = size(Setting.RPC_BUFFER_BUDGET, 64 * 1024, 1L << 40);
        if (rpcBudget < maxRequest) {
            throw invalid(Setting.RPC_BUFFER_BUDGET, "must be at least max-request (" + maxRequest + " bytes)");
        }
        Duration rpcIdle = duration(Setting.RPC_IDLE_TIMEOUT);
        if (rpcIdle.toMillis() < 1) {
            throw invalid(Setting.RPC_IDLE_TIMEOUT, "must be positive");
        }
        long replyBudget = size(Setting.RPC_REPLY_BUDGET, 2L << 20, 1L << 40);
        return new ServerConfig(bind, port, data, state, exports, lease, grace, maxOps, maxRequest, maxIo, workers,
                path(Setting.PORT_FILE), metricsPort, metricsPortFile, dataOptions, budgetPerTxn, budgetTotal,
                sessionLimits(), rpcBudget, rpcIdle, replyBudget, spanningLimits(),
                size(Setting.BACKUP_DISK_RESERVE, 0, Long.MAX_VALUE),
                (int) integer(Setting.ASYNC_PENDING_ROWS, 0, 1 << 24),
                (int) integer(Setting.MAX_CONNECTIONS, 1, 1 << 20));
    }

    /** The bounds of transactions that span compounds. */
    private SpanningLimits spanningLimits() {
        int maxOpen = (int) integer(Setting.MAX_OPEN_TXNS, 0, 1 << 20);
        int maxCompounds = (int) integer(Setting.TXN_MAX_COMPOUNDS, 1, Integer.MAX_VALUE);
        long maxBytes = size(Setting.TXN_MAX_BYTES, 1, Long.MAX_VALUE);
        Duration idle = duration(Setting.TXN_IDLE_TIMEOUT);
        if (idle.toMillis() < 1) {
            throw invalid(Setting.TXN_IDLE_TIMEOUT, "must be positive");
        }
        long heldOps = integer(Setting.TXN_HELD_OPS, 0, Long.MAX_VALUE);
        if (heldOps == 0) {
            heldOps = SpanningLimits.defaultMaxHeldOps();
        }
        int perAddress = (int) integer(Setting.MAX_OPEN_TXNS_PER_ADDRESS, 0, 1 << 20);
        return new SpanningLimits(maxOpen, maxCompounds, maxBytes, idle, perAddress, heldOps);
    }

    /** The client, session, reply cache and owner bounds; the reply cache must hold a slot for every session. */
    private SessionLimits sessionLimits() {
        int maxClients = (int) integer(Setting.MAX_CLIENTS, 1, 1 << 20);
        int maxSessions = (int) integer(Setting.MAX_SESSIONS, 1, 1 << 20);
        int maxCached = (int) size(Setting.MAX_CACHED_REPLY, SessionLimits.MIN_SLOT_BYTES, 1L << 30);
        long memory = size(Setting.REPLY_CACHE_MEMORY, 0, 1L << 40);
        int maxOwners = (int) integer(Setting.MAX_OWNERS, 1, 1 << 24);
        long least = (long) maxSessions * SessionLimits.MIN_SLOT_BYTES;
        if (memory == 0) {
            // Kept replies of 512 KiB or more are humongous objects in G1 and may take twice their size.
            memory = Math.max(Runtime.getRuntime().maxMemory() / 8, least);
        } else if (memory < least) {
            throw invalid(Setting.REPLY_CACHE_MEMORY, "must hold " + SessionLimits.MIN_SLOT_BYTES
                    + " bytes for each of max-sessions (" + maxSessions + ")");
        }
        int clientsPerAddress = (int) integer(Setting.MAX_CLIENTS_PER_ADDRESS, 1, 1 << 20);
        int sessionsPerAddress = (int) integer(Setting.MAX_SESSIONS_PER_ADDRESS, 1, 1 << 20);
        long clientMemory = size(Setting.CLIENT_MEMORY, 0, 1L << 40);
        long perAddressMemory = size(Setting.CLIENT_MEMORY_PER_ADDRESS, 0, 1L << 40);
        if (clientMemory == 0) {
            clientMemory = Math.max(Runtime.getRuntime().maxMemory() / 8, 4 * SessionLimits.MIN_CLIENT_MEMORY_PER_ADDRESS);
        }
        if (perAddressMemory == 0) {
            perAddressMemory = Math.max(clientMemory / 4, SessionLimits.MIN_CLIENT_MEMORY_PER_ADDRESS);
        }
        if (perAddressMemory < SessionLimits.MIN_CLIENT_MEMORY_PER_ADDRESS) {
            throw invalid(Setting.CLIENT_MEMORY_PER_ADDRESS, "must be at least "
                    + SessionLimits.MIN_CLIENT_MEMORY_PER_ADDRESS + " bytes");
        }
        if (clientMemory < perAddressMemory) {
            throw invalid(Setting.CLIENT_MEMORY, "must be at least client-memory-per-address (" + perAddressMemory
                    + " bytes)");
        }
        return new SessionLimits(maxClients, maxSessions, maxCached, memory, maxOwners,
                Math.min(clientsPerAddress, maxClients), Math.min(sessionsPerAddress, maxSessions), clientMemory,
                perAddressMemory);
    }

    /** {@code off}: empty; else a port that is not the NFS port (both listen on the bind address). */
    private OptionalInt metricsPort(int nfsPort) {
        if (text(Setting.METRICS_PORT).equalsIgnoreCase(METRICS_OFF)) {
            return OptionalInt.empty();
        }
        int port;
        try {
            port = (int) integer(Setting.METRICS_PORT, 0, 65535);
        } catch (InvalidConfigException e) {
            throw invalid(Setting.METRICS_PORT, "must be a port between 0 and 65535, or " + METRICS_OFF);
        }
        if (port != 0 && port == nfsPort) {
            throw invalid(Setting.METRICS_PORT, "must differ from 'port' (both listen on the bind address)");
        }
        return OptionalInt.of(port);
    }

    private String text(Setting s) {
        return values.get(s);
    }

    private Optional<Path> path(Setting s) {
        String v = text(s);
        return v.isEmpty() ? Optional.empty() : Optional.of(Path.of(v));
    }

    private long integer(Setting s, long min, long max) {
        long v;
        try {
            v = Long.parseLong(text(s));
        } catch (NumberFormatException e) {
            throw invalid(s, "not a whole number");
        }
        return inRange(s, v, min, max);
    }

    private long size(Setting s, long min, long max) {
        long v;
        try {
            v = Setting.parseSize(text(s));
        } catch (NumberFormatException | ArithmeticException e) {
            throw invalid(s, "not a size (e.g. 4096, 64KiB, 16MiB)");
        }
        return inRange(s, v, min, max);
    }

    private long inRange(Setting s, long v, long min, long max) {
        if (v < min || v > max) {
            throw invalid(s, "must be between " + min + " and " + max);
        }
        return v;
    }

    private Duration duration(Setting s) {
        Duration d;
        try {
            d = Setting.parseDuration(text(s));
        } catch (RuntimeException e) {
            throw invalid(s, "not a duration (e.g. 90s, 2m, 0)");
        }
        if (d.isNegative()) {
            throw invalid(s, "must not be negative");
        }
        return d;
    }

    private InvalidConfigException invalid(Setting s, String why) {
        return new InvalidConfigException("invalid setting '" + s.key() + "' = '" + text(s) + "' (from "
                + sources.get(s) + "): " + why);
    }
}
