package org.tcnfs.server.config;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Every server setting, each with its key, default and documentation together.
 *
 * <p>A setting is read, in rising priority, from its default, the configuration file ({@code key=value}),
 * the environment ({@code TCNFS_} and the key in upper case with '-' as '_') and the command line
 * ({@code --key value}).
 */
public enum Setting {
    BIND("bind", "127.0.0.1", "Address to listen on; 0.0.0.0 for all IPv4 interfaces."),
    PORT("port", "2049", "TCP port to listen on; 0 picks a free port (see port-file)."),
    DATA("data", "./data", "Directory exported as / when no exports file is given; created if missing."),
    STATE("state", "./state", "Directory for the server's own state (handle tables, records); created if missing."),
    EXPORTS("exports", "", "File in /etc/exports form; when set, it replaces the default export of 'data'."),
    DATA_OPTIONS("data-options", "rw,root_squash", "Options of the default export of 'data' in /etc/exports form, "
            + "applied over rw,root_squash (e.g. ro, all_squash, anonuid=N, txn=always); no_root_squash gives "
            + "clients' root its powers, for trusted networks only. Not used with an exports file."),
    LEASE("lease", "90s", "NFSv4 lease time (a duration such as 90s, 2m or PT90S)."),
    GRACE("grace", "90s", "Grace period after a start in which clients reclaim state; ends early when no "
            + "client of the previous run is left to reclaim. 0s disables it."),
    MAX_OPS("max-ops", "4096", "Most operations per COMPOUND a session may negotiate."),
    MAX_REQUEST("max-request", "16MiB", "Largest COMPOUND request a session may negotiate (bytes, KiB, MiB)."),
    MAX_IO("max-io", "1MiB", "Largest READ and WRITE (maxread/maxwrite)."),
    BACKUP_BUDGET_PER_TXN("backup-budget-per-txn", "1GiB", "Most allocated bytes one transaction's backups may "
            + "hold (holes are free); a transaction that needs more is refused with NFS4ERR_NOSPC before it changes "
            + "anything."),
    BACKUP_BUDGET_TOTAL("backup-budget-total", "4GiB", "Most allocated bytes the backups of all running "
            + "transactions may hold together; past it transactions are refused with NFS4ERR_NOSPC before they "
            + "change anything. At least backup-budget-per-txn."),
    BACKUP_DISK_RESERVE("backup-disk-reserve", "64MiB", "Free bytes of an export's file system that transaction "
            + "backups may not take: a transactional compound (or a compound of a transaction that spans compounds) "
            + "whose estimated backups do not fit the free space less this reserve is refused with NFS4ERR_NOSPC "
            + "before it changes anything."),
    ASYNC_PENDING_ROWS("async-pending-rows", "32768", "Most handle rows of plain compounds on async exports kept "
            + "in memory, visible to every compound, until the background flush commits them within about a second "
            + "(no flush of the handle table before such a compound's reply; a crash loses them, which only makes "
            + "their handles answer NFS4ERR_STALE); a compound whose rows do not fit commits them at once. 0 commits "
            + "each such compound's rows itself. The row journal of sync exports keeps its rows pending the same "
            + "way (0 turns it off too)."),
    MAX_CLIENTS("max-clients", "16384", "Most NFSv4 client records kept (a backstop: client-memory bounds what "
            + "they hold); when full, the oldest unconfirmed one is dropped, then the confirmed one without state "
            + "renewed longest ago, else EXCHANGE_ID gets NFS4ERR_DELAY and SETCLIENTID NFS4ERR_RESOURCE."),
    MAX_SESSIONS("max-sessions", "1024", "Most NFSv4.1 sessions of all clients together; CREATE_SESSION past it "
            + "gets NFS4ERR_NOSPC."),
    MAX_CLIENTS_PER_ADDRESS("max-clients-per-address", "16384", "Most NFSv4 client records created from one "
            + "source address (a backstop: client-memory-per-address bounds what they hold); past it that address's "
            + "oldest unconfirmed record is dropped, then its clients whose lease lapsed, then its confirmed client "
            + "without state renewed longest ago, else its EXCHANGE_ID gets NFS4ERR_DELAY and SETCLIENTID "
            + "NFS4ERR_RESOURCE (one address cannot lock others out). At most max-clients."),
    CLIENT_MEMORY("client-memory", "0", "Estimated heap bytes the records, sessions (without kept replies), "
            + "owners, opens, lock states and byte-range locks of all NFSv4 clients may take together; 0 means an "
            + "eighth of the maximum heap. Past it records without state are dropped to make room for new ones, "
            + "else new clients, sessions and state are refused (see client-memory-per-address)."),
    CLIENT_MEMORY_PER_ADDRESS("client-memory-per-address", "0", "The same for the clients created from one "
            + "source address (a NAT gateway or a test suite is one address); 0 means a quarter of client-memory. "
            + "Past it the address's records without state are dropped to make room for a new one, else its "
            + "EXCHANGE_ID gets NFS4ERR_DELAY, SETCLIENTID NFS4ERR_RESOURCE, CREATE_SESSION NFS4ERR_NOSPC, and a new "
            + "OPEN, LOCK or NFSv4.0 owner NFS4ERR_RESOURCE (NFSv4.0) or NFS4ERR_DELAY (NFSv4.1). At least 64KiB, "
            + "at most client-memory."),
    MAX_SESSIONS_PER_ADDRESS("max-sessions-per-address", "256", "Most NFSv4.1 sessions of the clients created "
            + "from one source address; CREATE_SESSION past it gets NFS4ERR_NOSPC. At most max-sessions."),
    MAX_CACHED_REPLY("max-cached-reply", "4160KiB", "Largest reply a session slot keeps for retransmissions "
            + "(the ca_maxresponsesize_cached granted): four 1 MiB READs and 64 KiB of other results. The tcnfs "
            + "client asks for a cached reply only for compounds that change something, so reads (read-only "
            + "transactions included) may fill the larger ca_maxresponsesize."),
    REPLY_CACHE_MEMORY("reply-cache-memory", "0", "Bytes all sessions' reply caches may reserve together; 0 means "
            + "an eighth of the maximum heap. A quarter is kept for max-sessions equal shares; when short, new "
            + "sessions get fewer slots or smaller cached replies."),
    MAX_OWNERS("max-owners", "4096", "Most NFSv4.0 open and lock owners kept per client; past it the least "
            + "recently used owners without state are forgotten."),
    WORKERS("workers", "0", "Request worker threads; 0 means two per processor, at least 4."),
    PORT_FILE("port-file", "", "If set, the listening port is written to this file once the server serves."),
    METRICS_PORT("metrics-port", "9049", "TCP port of the HTTP endpoints /metrics (Prometheus text), /health and "
            + "/status, on the bind address; 0 picks a free port (see metrics-port-file), off turns them off."),
    METRICS_PORT_FILE("metrics-port-file", "", "If set, the metrics port is written to this file once the "
            + "endpoints serve."),
    RPC_BUFFER_BUDGET("rpc-buffer-budget", "64MiB", "Most bytes of RPC requests held in memory at once over all "
            + "connections (partly received or waiting to be answered); past it the server stops reading the "
            + "connections that would hold more, all but one, which finishes its request (so at most this plus "
            + "one request). At least max-request."),
    MAX_OPEN_TXNS("max-open-txns", "64", "Most transactions that span compounds (TXN_BEGIN, docs/protocol.md) open "
            + "at once; TXN_BEGIN past it gets NFS4ERR_DELAY. 0 refuses them all."),
    MAX_OPEN_TXNS_PER_ADDRESS("max-open-txns-per-address", "16", "Most of the max-open-txns that the connections "
            + "of one client address may hold open, so that one host cannot take them all; TXN_BEGIN past it gets "
            + "NFS4ERR_DELAY."),
    TXN_MAX_COMPOUNDS("txn-max-compounds", "100000", "Most TXN_COMPOUNDs one transaction that spans compounds "
            + "may carry; the next is refused with NFS4ERR_NOSPC before it changes anything and the transaction "
            + "is rolled back."),
    TXN_MAX_BYTES("txn-max-bytes", "4GiB", "Most bytes one transaction that spans compounds may carry (its "
            + "TXN_COMPOUND requests plus its backups); the compound that would pass it is refused like one past "
            + "txn-max-compounds."),
    TXN_IDLE_TIMEOUT("txn-idle-timeout", "90s", "A transaction that spans compounds without a call for this long "
            + "is rolled back and its locks released (its client is presumed gone); so is one whose connection "
            + "closes."),
    TXN_HELD_OPS("txn-held-ops", "0", "Most operations the compounds of all open transactions that span "
            + "compounds may hold together (the server keeps plans, lock keys and undo steps per operation until "
            + "the commit, about 1 KiB each); 0 means a quarter of the maximum heap at 1 KiB each (65536 at "
            + "-Xmx256m). A TXN_COMPOUND that would pass it is refused with NFS4ERR_DELAY (NFS4ERR_NOSPC when its "
            + "transaction alone would pass it) before it changes anything, and its transaction is rolled back."),
    RPC_IDLE_TIMEOUT("rpc-idle-timeout", "60s", "A connection whose partly received RPC request gets no new byte "
            + "for this long is closed, and so is one whose request is still not whole after 4 times this long of "
            + "being read (a sender trickling bytes)."),
    RPC_REPLY_BUDGET("rpc-reply-budget", "64MiB", "Most bytes of replies not yet sent over all connections (each "
            + "connection also holds at most 2 MiB); past it the server takes no connection's next request until "
            + "they drain, and closes connections whose unsent replies do not move for rpc-idle-timeout meanwhile. "
            + "At least 2MiB."),
    MAX_CONNECTIONS("max-connections", "4096", "Most TCP connections open at once; a connection accepted past it "
            + "makes the server close the one "
            + "quiet longest among those of the source addresses holding the most connections (one WARN line, "
            + "rate-limited), so that idle connections cannot use up the process's file descriptors and keep "
            + "new clients out.");

    private final String key;
    private final String defaultValue;
    private final String doc;

    Setting(String key, String defaultValue, String doc) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.doc = doc;
    }

    /** The key in files and on the command line (without the leading --). */
    public String key() {
        return key;
    }

    public String defaultValue() {
        return defaultValue;
    }

    public String doc() {
        return doc;
    }

    /** The environment variable that sets this: {@code TCNFS_} and the key in upper case. */
    public String environmentVariable() {
        return "TCNFS_" + key.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /** The setting with this key. */
    public static Optional<Setting> byKey(String key) {
        return Arrays.stream(values()).filter(s -> s.key.equals(key)).findFirst();
    }

    /** All keys, for messages. */
    public static List<String> keys() {
        return Arrays.stream(values()).map(Setting::key).toList();
    }

    /** Parses a duration such as {@code 90s}, {@code 2m}, {@code 500ms}, {@code 0} or ISO-8601 {@code PT90S}. */
    static Duration parseDuration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.startsWith("pt") || t.startsWith("p")) {
            return Duration.parse(t.toUpperCase(Locale.ROOT));
        }
        if (t.equals("0")) {
            return Duration.ZERO;
        }
        if (t.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
        }
        long n = Long.parseLong(t.substring(0, t.length() - 1));
        return switch (t.charAt(t.length() - 1)) {
            case 's' -> Duration.ofSeconds(n);
            case 'm' -> Duration.ofMinutes(n);
            case 'h' -> Duration.ofHours(n);
            default -> throw new IllegalArgumentException("not a duration: " + text);
        };
    }

    /** Parses a size such as {@code 4096}, {@code 64KiB}, {@code 16MiB} or {@code 1GiB}. */
    static long parseSize(String text) {
        String t = text.trim();
        long unit = 1;
        String lower = t.toLowerCase(Locale.ROOT);
        for (String[] u : new String[][] {{"kib", "1024"}, {"mib", "1048576"}, {"gib", "1073741824"}, {"k", "1024"},
                {"m", "1048576"}, {"g", "1073741824"}}) {
            if (lower.endsWith(u[0])) {
                unit = Long.parseLong(u[1]);
                t = t.substring(0, t.length() - u[0].length()).trim();
                break;
            }
        }
        return Math.multiplyExact(Long.parseLong(t), unit);
    }
}
