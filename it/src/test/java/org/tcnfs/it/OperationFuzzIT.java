package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.XdrBytes;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.client.rpc.RawReply;
import org.tcnfs.client.rpc.RpcAcceptStatus;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.GETFH4resok;
import org.tcnfs.nfs4.xdr.LOCK4resok;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.OPEN_CONFIRM4resok;
import org.tcnfs.nfs4.xdr.OPEN_DOWNGRADE4resok;
import org.tcnfs.nfs4.xdr.SEQUENCE4args;
import org.tcnfs.nfs4.xdr.SETCLIENTID4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * Structure-aware fuzzing of the operation handlers and the transaction engine through the wire: seeded random
 * COMPOUNDs of every NFSv4.0/4.1 operation with hostile but well-formed content ({@link HostileCompounds}), plain
 * and transactional, minor versions 0 to 3, from two NFSv4.1 clients and one NFSv4.0 client, sent to one real
 * server. After every reply: the RPC accepted it (no GARBAGE_ARGS or SYSTEM_ERR for well-formed XDR), the reply
 * decodes, its shape follows the arguments (one result per operation run, each for its operation, all but the last
 * NFS4_OK, the compound's status the last one's), no status is NFS4ERR_SERVERFAULT or NFS4ERR_IO (no real I/O
 * error happens here) or outside {@code nfsstat4}, the server logged no ERROR line or stack trace, and a
 * transactional compound that failed left the export as it was, and no compound got NFS4ERR_DELAY but for a bound the
 * fuzzer's clients reached ({@link #delayAllowed}): the fuzzer sends one compound at a time and starts no transaction
 * that spans compounds, so no other compound holds a lock, and a DELAY would make a real client retry for ever. At the
 * end: the server is alive, every session
 * and client is gone once destroyed or expired, no lock key, spanning transaction or backup is left, no undo or
 * state restore failed, {@code --check} finds nothing pending, and the export holds only names the compounds could
 * create.
 *
 * <p>{@code -Dtcnfs.opfuzz.seed=N} (default 1) and {@code -Dtcnfs.opfuzz.seconds=S} (default 60) choose the run;
 * {@code -Dtcnfs.opfuzz.compounds=N} (default 6000) caps it. docs/fuzzing.md says what longer runs found.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperationFuzzIT extends SharedServerTest {
    private static final long SEED = Long.getLong("tcnfs.opfuzz.seed", 1);
    private static final long SECONDS = Long.getLong("tcnfs.opfuzz.seconds", 60);
    private static final long COMPOUNDS = Long.getLong("tcnfs.opfuzz.compounds", 6000);
    private static final int LEASE_SECONDS = 6;
    /** When set, a file to which every compound sent and its reply are appended, to replay a finding's history. */
    private static final String TRACE = System.getProperty("tcnfs.opfuzz.trace");
    /** Statuses that no compound of this test may get: no real I/O error or fault is injected. */
    private static final Set<NfsStatus> NEVER = Set.of(NfsStatus.SERVERFAULT, NfsStatus.IO);
    /** Errors of SEQUENCE itself; any other operation after a good SEQUENCE must not give them. */
    private static final Set<NfsStatus> SESSION_ERRORS = Set.of(NfsStatus.BADSESSION, NfsStatus.BADSLOT,
            NfsStatus.SEQ_MISORDERED, NfsStatus.BAD_HIGH_SLOT, NfsStatus.DEADSESSION, NfsStatus.SEQ_FALSE_RETRY,
            NfsStatus.RETRY_UNCACHED_REP);
    /** NFSv4.0-only operations, which NFSv4.1 answers with NFS4ERR_NOTSUPP (RFC 8881 section 15.1.1.5). */
    private static final Set<Integer> V40_ONLY = Set.of(OP_SETCLIENTID, OP_SETCLIENTID_CONFIRM, OP_RENEW,
            OP_OPEN_CONFIRM, OP_RELEASE_LOCKOWNER);

    private final Random random = new Random(SEED);
    private final HostileCompounds.Pools pools = new HostileCompounds.Pools();
    private final Deque<String> recent = new ArrayDeque<>();
    private int logSeen;
    private long sent;
    private long okCompounds;
    private long okTransactions;
    /** How many results each operation ended with, by status (every result, not only the last). */
    private final Map<String, Integer> outcomes = new TreeMap<>();
    /** The first compounds answered NFS4ERR_DELAY for a bound the fuzzer's clients reached, for the summary. */
    private final List<String> delays = new ArrayList<>();
    /** Whether the server warned that the client state reached its memory budget (settings client-memory...). */
    private boolean stateBudgetReached;
    /** Which compound's GETFH gave each handle (hex), for the summary. */
    private final Map<String, String> origins = new java.util.HashMap<>();

    /**
     * One of the fuzzer's clients: a connection, and for NFSv4.1 a session of whose slots it uses the first four
     * (mostly slot 0).
     */
    private static final class Client {
        final int minor;
        NfsConnection connection;
        long clientId;
        byte[] sessionId;
        int slots;
        /** The next sequence id of each slot the fuzzer uses (at most the first four of the session's). */
        int[] sequenceIds = new int[1];
        /** The slot of the compound being sent. */
        int slot;

        Client(int minor) {
            this.minor = minor;
        }

        /** Chooses the slot of the next compound: slot 0 mostly, another of the first four now and then. */
        int pickSlot(Random random) {
            slot = random.nextInt(4) == 0 ? random.nextInt(sequenceIds.length) : 0;
            return slot;
        }
    }

    private final List<Client> clients = new ArrayList<>();
    /** A connection without client state that lists the home directory after failed transactions (NFSv4.0). */
    private NfsConnection observer;
    private long listings;
    private long retransmissions;

    @Override
    String[] serverOptions() {
        return new String[] {"--lease", LEASE_SECONDS + "s", "--max-clients-per-address", "1024",
            "--max-sessions-per-address", "1024"};
    }

    @Test
    @Order(1)
    void noHostileCompoundMakesTheServerFaultOrChangesWhatAFailedTransactionTouched() throws Exception {
        setUp();
        long deadline = System.nanoTime() + Duration.ofSeconds(SECONDS).toNanos();
        HostileCompounds generator = new HostileCompounds(random, pools);
        while (sent < COMPOUNDS && System.nanoTime() < deadline) {
            Client client = pickClient();
            int minor = client.minor;
            if (random.nextInt(40) == 0) {
                minor = 2 + random.nextInt(2);
            }
            HostileCompounds.Fuzzed fuzzed = generator.next(new HostileCompounds.Sender(minor,
                    client.sessionId == null ? new byte[16] : client.sessionId, client.pickSlot(random),
                    client.sequenceIds[client.slot],
                    Math.max(1, client.slots), client.clientId));
            runAndCheck(client, fuzzed);
        }
        System.out.printf("OperationFuzzIT: seed %d, %d compounds, %d of them NFS4_OK (%d transactions committed), "
                + "%d listings after a failed transaction, %d retransmissions%n", SEED, sent, okCompounds,
                okTransactions, listings, retransmissions);
        outcomes.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(e -> System.out.printf("  %7d %s%n", e.getValue(), e.getKey()));
        delays.forEach(d -> System.out.println("NFS4ERR_DELAY (allowed): " + d));
    }

    @Test
    @Order(2)
    void afterTheFuzzingNothingLeaksAndTheExportHoldsOnlyWhatCompoundsCouldMake() throws Exception {
        assertThat(server.isAlive()).as("server alive").isTrue();
        for (Client c : clients) {
            end(c);
        }
        observer.close();
        // sessions and clients of the fuzzer's own EXCHANGE_IDs and SETCLIENTIDs expire with their leases
        long deadline = System.nanoTime() + Duration.ofSeconds(6L * LEASE_SECONDS + 30).toNanos();
        String scraped = server.scrapeMetrics();
        while (System.nanoTime() < deadline) {
            scraped = server.scrapeMetrics();
            if (gauge(scraped, "tcnfs_sessions") == 0 && gauge(scraped, "tcnfs_client_records") == 0
                    && gauge(scraped, "tcnfs_txn_lock_keys") == 0 && backups().isEmpty()) {
                break;
            }
            Thread.sleep(500);
        }
        assertThat(gauge(scraped, "tcnfs_sessions")).as("sessions").isZero();
        assertThat(gauge(scraped, "tcnfs_client_records")).as("client records").isZero();
        assertThat(gauge(scraped, "tcnfs_txn_lock_keys")).as("lock keys in use").isZero();
        assertThat(gauge(scraped, "tcnfs_txn_spanning_open")).as("spanning transactions open").isZero();
        assertThat(gauge(scraped, "tcnfs_txn_backup_budget_used_bytes")).as("backup bytes held").isZero();
        assertThat(gauge(scraped, "tcnfs_txn_undo_failures_total")).as("undo failures").isZero();
        assertThat(gauge(scraped, "tcnfs_txn_state_restore_failures_total")).as("state restore failures").isZero();
        assertThat(backups()).as("backup directories left in .tcnfs/txn").isEmpty();
        assertThat(newLog()).as("server log").doesNotContain(" ERROR ").doesNotContain("\tat ");

        List<String> strays = new ArrayList<>();
        Set<String> allowed = new java.util.HashSet<>(HostileCompounds.CREATABLE);
        allowed.addAll(List.of("home", "f", "g", "dir", "link"));
        try (Stream<Path> all = Files.walk(server.exportDir())) {
            all.filter(p -> !p.equals(server.exportDir()))
                    .filter(p -> !p.startsWith(server.exportDir().resolve(".tcnfs")))
                    .filter(p -> !allowed.contains(p.getFileName().toString()))
                    .forEach(p -> strays.add(server.exportDir().relativize(p).toString()));
        }
        assertThat(strays).as("names no compound could have created").isEmpty();

        server.stop();
        ServerProcess.CheckResult check = server.check();
        assertThat(check.status()).as("--check:\n%s", check.output()).isZero();
    }

    // ---- set-up

    private void setUp() throws IOException {
        try (ItSession s = ItSession.open(server, "opfuzz-setup")) {
            NfsOps nfs = s.nfs();
            byte[] root = nfs.rootFh();
            byte[] home = nfs.mkdir(root, "home");
            pools.home = home;
            pools.addHandle(random, root);
            pools.addHandle(random, home);
            pools.addHandle(random, nfs.createFile(home, "f", "0123456789".getBytes(StandardCharsets.UTF_8)));
            pools.addHandle(random, nfs.createFile(home, "g", new byte[5000]));
            byte[] dir = nfs.mkdir(home, "dir");
            pools.addHandle(random, dir);
            pools.addHandle(random, nfs.runOk(new CompoundBuilder().putfh(home).symlink("link", "f").getfh())
                    .fileHandle());
        }
        for (int i = 0; i < 4; i++) {
            pools.owners.add(("owner-" + i).getBytes(StandardCharsets.UTF_8));
        }
        clients.add(newClient41());
        clients.add(newClient41());
        clients.add(newClient40());
        observer = server.connect();
        logSeen = server.outputOfLastStart().length();
    }

    private Client newClient41() throws IOException {
        Client c = new Client(1);
        c.connection = server.connect();
        Nfs41Session session = Nfs41Session.create(c.connection, "opfuzz");
        c.clientId = session.clientId();
        c.sessionId = session.sessionId();
        c.slots = session.foreChannel().ca_maxrequests;
        c.sequenceIds = new int[Math.max(1, Math.min(4, c.slots))];
        for (int i = 0; i < c.sequenceIds.length; i++) {
            c.sequenceIds[i] = session.nextSequenceId(i);
        }
        pools.sessionIds.add(c.sessionId.clone());
        pools.clientIds.add(c.clientId);
        return c;
    }

    private Client newClient40() throws IOException {
        Client c = new Client(0);
        c.connection = server.connect();
        byte[] id = ("opfuzz40-" + random.nextLong()).getBytes(StandardCharsets.UTF_8);
        COMPOUND4res set = c.connection.compound(new CompoundBuilder().minorVersion(0)
                .setclientid(id, new byte[8], 0x40000000, "tcp", "127.0.0.1.0.1").build());
        assertThat(NfsStatus.of(set.status)).isEqualTo(NfsStatus.OK);
        SETCLIENTID4resok ok = (SETCLIENTID4resok) set.resarray[0].body;
        c.clientId = ok.clientid;
        COMPOUND4res confirm = c.connection.compound(new CompoundBuilder().minorVersion(0)
                .setclientidConfirm(ok.clientid, ok.setclientid_confirm.value).build());
        assertThat(NfsStatus.of(confirm.status)).isEqualTo(NfsStatus.OK);
        pools.clientIds.add(c.clientId);
        return c;
    }

    private Client pickClient() throws IOException {
        int i = random.nextInt(10) < 8 ? random.nextInt(2) : 2;
        Client c = clients.get(i);
        if (!c.connection.isOpen()) {
            throw new AssertionError("the server closed a connection; last compounds:\n" + String.join("\n", recent));
        }
        return c;
    }

    private void end(Client c) throws IOException {
        if (c.minor == 1) {
            c.connection.compound(new CompoundBuilder().destroySession(c.sessionId).build());
            c.connection.compound(new CompoundBuilder().destroyClientId(c.clientId).build());
        }
        c.connection.close();
    }

    // ---- one compound

    private void runAndCheck(Client client, HostileCompounds.Fuzzed fuzzed) throws Exception {
        COMPOUND4args args = fuzzed.args();
        int procedure = fuzzed.transactional() ? NfsConnection.PROC_COMPOUND_TXN : NfsConnection.PROC_COMPOUND;
        String what = describe(procedure, client, args, fuzzed.notes());
        remember(what);
        Map<String, String> before = fuzzed.transactional() ? snapshot() : null;
        sent++;
        RawReply reply;
        byte[] request = XdrBytes.encode(args);
        try {
            reply = client.connection.callRaw(procedure, request);
        } catch (IOException e) {
            throw new AssertionError("no reply (" + e + ") to " + what + recentText() + "\n" + threadDump(), e);
        }
        boolean malformed = Stream.of(args.argarray).anyMatch(
                op -> op.args instanceof HostileCompounds.RawArgs r && r.malformed);
        if (malformed && reply.acceptStatus() == RpcAcceptStatus.GARBAGE_ARGS) {
            checkLog(what);
            return;
        }
        assertThat(reply.acceptStatus()).as("RPC accept status of %s", what).isEqualTo(RpcAcceptStatus.SUCCESS);
        COMPOUND4res res;
        try {
            res = XdrBytes.decode(reply.body(), new COMPOUND4res());
        } catch (IOException | RuntimeException e) {
            throw new AssertionError("undecodable reply to " + what + ": " + HexFormat.of().formatHex(reply.body()), e);
        }
        String got = what + "\n  -> " + describeResult(res);
        replaceRecent(got);
        trace(got);
        if (TRACE != null) {
            Map<String, String> now = snapshot();
            if (traced != null && !now.equals(traced)) {
                trace(diff(traced, now) + inodes());
            }
            traced = now;
        }
        checkShape(client, args, res, fuzzed, got);
        checkLog(got);
        if (before != null && res.status != 0) {
            Map<String, String> after = snapshot();
            if (!after.equals(before)) {
                throw new AssertionError("failed transaction changed the export: " + got + "\n" + diff(before, after));
            }
        }
        if (before != null && res.status != 0) {
            checkListing(got);
        }
        checkDelay(args, res, got);
        retransmit(client, procedure, args, request, reply, res, fuzzed, got);
        harvest(client, args, res, fuzzed);
        if (res.status == 0) {
            okCompounds++;
            okTransactions += fuzzed.transactional() ? 1 : 0;
        }
        if (res.status == NfsStatus.DELAY.code() && delays.size() < 5) {
            delays.add(withOrigins(args, got));
        }
        for (nfs_resop4 r : res.resarray) {
            outcomes.merge(org.tcnfs.nfs4.xdr.nfs_opnum4.name(r.resop) + " " + NfsStatus.nameOf(r.status), 1,
                    Integer::sum);
        }
    }

    /**
     * READDIR of the home directory through the wire lists the names the disk holds, with their types: a failed
     * transaction left no name in the handle table that its rollback took off the disk, nor the other way round.
     */
    private void checkListing(String got) throws IOException {
        COMPOUND4res r = observer.compound(new CompoundBuilder().minorVersion(0).putfh(pools.home)
                .readdir(64 * 1024, org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_TYPE).build());
        if (r.status != 0) {
            throw new AssertionError("READDIR of home after a failed transaction: " + NfsStatus.nameOf(r.status)
                    + " after " + got + recentText());
        }
        org.tcnfs.nfs4.xdr.READDIR4resok ok = (org.tcnfs.nfs4.xdr.READDIR4resok) r.resarray[1].body;
        assertThat(ok.reply.eof).as("one READDIR lists home").isTrue();
        Map<String, String> listed = new TreeMap<>();
        for (org.tcnfs.nfs4.xdr.entry4 e : ok.reply.entries) {
            int type = org.tcnfs.client.Attrs.decode(e.attrs).type();
            listed.put(new String(e.name, StandardCharsets.UTF_8), type == 2 ? "dir" : type == 5 ? "link" : type == 1
                    ? "file" : "other");
        }
        Map<String, String> onDisk = new TreeMap<>();
        try (Stream<Path> names = Files.list(server.exportDir().resolve("home"))) {
            for (Path p : names.toList()) {
                onDisk.put(p.getFileName().toString(), Files.isSymbolicLink(p) ? "link"
                        : Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? "dir"
                        : Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) ? "file" : "other");
            }
        }
        listings++;
        if (!listed.equals(onDisk)) {
            throw new AssertionError("READDIR of home after a failed transaction lists " + listed + ", the disk holds "
                    + onDisk + ": " + got + recentText());
        }
    }

    /**
     * Now and then an NFSv4.1 compound that its session's slot took is sent again unchanged, as a client does that
     * lost the reply (RFC 8881 2.10.6.1): it must be answered from the reply cache, byte for byte the first answer
     * (or NFS4ERR_RETRY_UNCACHED_REP when the client did not ask to cache it), and change nothing: a rename, remove
     * or transaction run twice would.
     */
    private void retransmit(Client client, int procedure, COMPOUND4args args, byte[] request, RawReply first,
            COMPOUND4res res, HostileCompounds.Fuzzed fuzzed, String got) throws IOException {
        if (client.minor != 1 || args.minorversion != 1 || fuzzed.hostileSequence()
                || fuzzed.notes().contains(HostileCompounds.NO_SEQUENCE) || res.resarray.length == 0
                || res.resarray[0].resop != OP_SEQUENCE || res.resarray[0].status != 0 || random.nextInt(12) != 0
                || Stream.of(args.argarray).anyMatch(a -> a.argop == OP_DESTROY_SESSION
                        || a.argop == OP_DESTROY_CLIENTID || a.argop == OP_BIND_CONN_TO_SESSION)) {
            return;
        }
        Map<String, String> before = snapshot();
        // the bytes sent the first time: some arguments are drawn as they are encoded (RawArgs), and a request that
        // differs is a false retry, which the server runs as a new request (SlotTable: nfs-rs reuses sequence ids)
        RawReply again = client.connection.callRaw(procedure, request);
        retransmissions++;
        String what = "retransmission of " + got;
        trace(what);
        COMPOUND4res res2 = XdrBytes.decode(again.body(), new COMPOUND4res());
        String got2 = what + "\n  -> " + describeResult(res2);
        checkLog(got2);
        Map<String, String> after = snapshot();
        if (!after.equals(before)) {
            throw new AssertionError("a retransmitted compound changed the export: " + got2 + "\n" + diff(before, after)
                    + recentText());
        }
        boolean cached = java.util.Arrays.equals(again.body(), first.body());
        boolean uncached = res2.resarray.length == 1 && res2.resarray[0].resop == OP_SEQUENCE
                && res2.resarray[0].status == NfsStatus.RETRY_UNCACHED_REP.code()
                && !((SEQUENCE4args) args.argarray[0].args).sa_cachethis;
        if (!cached && !uncached) {
            throw new AssertionError("a retransmitted compound got another answer than the first: " + got2
                    + "\n  first " + HexFormat.of().formatHex(first.body()) + "\n  again "
                    + HexFormat.of().formatHex(again.body()) + recentText());
        }
    }

    /**
     * A compound answered NFS4ERR_DELAY must be one refused for a bound the fuzzer's clients reached; any other DELAY
     * is a finding: one compound at a time, no transaction spanning compounds, so nothing another compound holds (a
     * lock key, a share reservation, a fenced key: a failed undo fails the run anyway) can be the cause.
     */
    private void checkDelay(COMPOUND4args args, COMPOUND4res res, String got) {
        if (res.status != NfsStatus.DELAY.code() || res.resarray.length == 0) {
            return;
        }
        int op = res.resarray[res.resarray.length - 1].resop;
        if (!delayAllowed(args.minorversion, op)) {
            throw new AssertionError("NFS4ERR_DELAY at " + org.tcnfs.nfs4.xdr.nfs_opnum4.name(op)
                    + " with no other compound running (a client would retry it for ever): " + withOrigins(args, got)
                    + recentText());
        }
    }

    /**
     * The DELAYs a single client thread may get: EXCHANGE_ID when the client table is full (settings max-clients...;
     * RFC 8881 18.35 allows it nothing else), and an NFSv4.1 OPEN or LOCK once the server warned that the client
     * state reached its memory budget (NFSv4.1 has no NFS4ERR_RESOURCE; the client retries once state is freed).
     */
    private boolean delayAllowed(int minorVersion, int op) {
        return op == OP_EXCHANGE_ID || minorVersion == 1 && (op == OP_OPEN || op == OP_LOCK) && stateBudgetReached;
    }

    /** {@code got} with, for every PUTFH's handle, the compound whose GETFH gave it. */
    private String withOrigins(COMPOUND4args args, String got) {
        StringBuilder from = new StringBuilder(got);
        for (nfs_argop4 a : args.argarray) {
            if (a.args instanceof org.tcnfs.nfs4.xdr.PUTFH4args p && p.object != null && p.object.value != null) {
                from.append("\n    handle ").append(HexFormat.of().formatHex(p.object.value)).append(" came from ")
                        .append(origins.get(HexFormat.of().formatHex(p.object.value)));
            }
        }
        return from.toString();
    }

    private void checkShape(Client client, COMPOUND4args args, COMPOUND4res res, HostileCompounds.Fuzzed fuzzed,
            String got) {
        NfsStatus status = NfsStatus.of(res.status);
        assertThat(status).as("compound status is an nfsstat4: %s", got).isNotNull();
        if (args.minorversion > 1) {
            assertThat(status).as(got).isEqualTo(NfsStatus.MINOR_VERS_MISMATCH);
            assertThat(res.resarray).as(got).isEmpty();
            return;
        }
        boolean replay = fuzzed.hostileSequence() && res.resarray.length > 0 && res.resarray[0].status == 0;
        assertThat(res.resarray.length).as("results of %s", got).isLessThanOrEqualTo(args.argarray.length);
        if (res.resarray.length == 0) {
            assertThat(status).as("a compound with no result failed as a whole: %s", got).isNotEqualTo(NfsStatus.OK);
            return;
        }
        for (int i = 0; i < res.resarray.length; i++) {
            nfs_resop4 r = res.resarray[i];
            NfsStatus s = NfsStatus.of(r.status);
            assertThat(s).as("status of result %d is an nfsstat4: %s", i, got).isNotNull();
            assertThat(NEVER).as("status of result %d of %s", i, got).doesNotContain(s);
            if (i < res.resarray.length - 1) {
                assertThat(s).as("result %d before the last of %s", i, got).isEqualTo(NfsStatus.OK);
            }
            if (replay) {
                continue; // the reply cache's answer to an earlier compound
            }
            nfs_argop4 a = args.argarray[i];
            // RFC 7530 section 16.1 / RFC 8881 section 18.1: a number outside the minor version's operations is
            // answered as OP_ILLEGAL with NFS4ERR_OP_ILLEGAL; a defined one the server does not implement is
            // answered for itself (NFS4ERR_NOTSUPP)
            int last = args.minorversion == 0 ? OP_RELEASE_LOCKOWNER : OP_RECLAIM_COMPLETE;
            if (a.argop < OP_ACCESS || a.argop > last) {
                assertThat(r.resop).as("operation of result %d of %s", i, got).isEqualTo(OP_ILLEGAL);
                assertThat(s).as(got).isEqualTo(NfsStatus.OP_ILLEGAL);
            } else {
                assertThat(r.resop).as("operation of result %d of %s", i, got).isEqualTo(a.argop);
            }
            if (i > 0 && args.minorversion == 1 && args.argarray[0].argop == OP_SEQUENCE && a.argop != OP_SEQUENCE
                    && a.argop != OP_DESTROY_SESSION && a.argop != OP_BIND_CONN_TO_SESSION && a.argop != OP_CREATE_SESSION) {
                assertThat(SESSION_ERRORS).as("result %d of %s", i, got).doesNotContain(s);
            }
            if (args.minorversion == 1 && V40_ONLY.contains(a.argop) && i > 0) {
                assertThat(s).as("NFSv4.0-only operation in NFSv4.1: %s", got).isEqualTo(NfsStatus.NOTSUPP);
            }
            if (s == NfsStatus.BADXDR && !fuzzed.badEnumAt().contains(i)) {
                assertThat(a.args).as("NFS4ERR_BADXDR only for attribute values: %s", got).isNotNull();
                assertThat(Set.of(OP_SETATTR, OP_CREATE, OP_OPEN, OP_VERIFY, OP_NVERIFY)).as(got)
                        .contains(a.argop);
            }
        }
        assertThat(res.status).as("compound status is the last result's: %s", got)
                .isEqualTo(res.resarray[res.resarray.length - 1].status);
    }

    private void checkLog(String what) {
        String log = newLog();
        if (log.contains("at its budget")) {
            stateBudgetReached = true;
        }
        if (log.contains(" ERROR ") || log.contains("\tat ") || log.contains("Exception")) {
            throw new AssertionError("the server logged an error after " + what + ":\n" + log + recentText());
        }
    }

    private String newLog() {
        String all = server.outputOfLastStart();
        String fresh = all.length() > logSeen ? all.substring(logSeen) : "";
        logSeen = all.length();
        return fresh;
    }

    private void harvest(Client client, COMPOUND4args args, COMPOUND4res res, HostileCompounds.Fuzzed fuzzed) {
        if (client.minor == 1 && args.minorversion == 1 && args.argarray.length > 0
                && args.argarray[0].argop == OP_SEQUENCE && fuzzed.hostileSequence()
                && res.resarray.length > 0 && res.resarray[0].resop == OP_SEQUENCE
                && res.resarray[0].status == NfsStatus.OK.code()
                && args.argarray[0].args instanceof SEQUENCE4args seq
                && java.util.Arrays.equals(seq.sa_sessionid.value, client.sessionId) && seq.sa_slotid == client.slot
                && seq.sa_sequenceid == client.sequenceIds[client.slot]) {
            // a hostile SEQUENCE that is still this client's own next one (its own session drawn from the pool, or
            // only the highest slot changed): the server advanced the slot, so the client must too (seed 5)
            client.sequenceIds[client.slot]++;
        }
        if (client.minor == 1 && args.minorversion == 1 && args.argarray.length > 0
                && args.argarray[0].argop == OP_SEQUENCE && !fuzzed.hostileSequence()
                && !fuzzed.notes().contains(HostileCompounds.NO_SEQUENCE)
                && res.resarray.length > 0 && res.resarray[0].resop == OP_SEQUENCE) {
            NfsStatus s = NfsStatus.of(res.resarray[0].status);
            if (s == NfsStatus.OK) {
                client.sequenceIds[client.slot]++;
            } else if (s == NfsStatus.BADSESSION || s == NfsStatus.DEADSESSION) {
                replaceClient(client, "its session is gone (" + s + ")");
                return;
            } else if (s != NfsStatus.DELAY) {
                throw new AssertionError("SEQUENCE of a good session and slot failed: " + recentText());
            }
        }
        if (client.minor == 0 && args.minorversion == 0 && res.status == NfsStatus.STALE_CLIENTID.code()
                && Stream.of(args.argarray).anyMatch(a -> a.argop == OP_RENEW)) {
            replaceClient(client, "its client id is gone");
            return;
        }
        for (nfs_resop4 r : res.resarray) {
            if (r.status != 0 || r.body == null) {
                continue;
            }
            switch (r.resop) {
                case OP_GETFH -> {
                    byte[] fh = ((GETFH4resok) r.body).object.value;
                    pools.addHandle(random, fh);
                    if (origins.size() < 10_000) {
                        origins.putIfAbsent(HexFormat.of().formatHex(fh), recent.peekLast());
                    }
                }
                case OP_OPEN -> pools.addStateid(random, ((OPEN4resok) r.body).stateid);
                case OP_LOCK -> pools.addStateid(random, ((LOCK4resok) r.body).lock_stateid);
                case OP_OPEN_CONFIRM -> pools.addStateid(random, ((OPEN_CONFIRM4resok) r.body).open_stateid);
                case OP_OPEN_DOWNGRADE -> pools.addStateid(random, ((OPEN_DOWNGRADE4resok) r.body).open_stateid);
                case OP_CLOSE, OP_LOCKU -> pools.addStateid(random, (stateid4) r.body);
                default -> {
                }
            }
        }
    }

    private void replaceClient(Client client, String why) {
        try {
            client.connection.close();
            Client fresh = client.minor == 1 ? newClient41() : newClient40();
            clients.set(clients.indexOf(client), fresh);
        } catch (IOException e) {
            throw new AssertionError("could not replace a client whose " + why + recentText(), e);
        }
    }

    /** The server's threads (jcmd Thread.print) and log, written next to the test reports; where they went. */
    private String threadDump() {
        try {
            Path dir = Path.of("target", "opfuzz");
            Files.createDirectories(dir);
            Path threads = dir.resolve("threads-" + SEED + ".txt");
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(server.pid()), "Thread.print").redirectErrorStream(true)
                    .redirectOutput(threads.toFile()).start();
            p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
            Path log = dir.resolve("server-" + SEED + ".log");
            Files.writeString(log, server.outputOfLastStart());
            return "server threads in " + threads.toAbsolutePath() + ", its log in " + log.toAbsolutePath();
        } catch (IOException | InterruptedException e) {
            return "(no thread dump: " + e + ")";
        }
    }

    // ---- the export as it is on disk

    /**
     * Every object below the export (the server's .tcnfs aside): type, size, mode, owner, content digest, inode,
     * link count, mtime.
     */
    private Map<String, String> snapshot() throws IOException {
        Map<String, String> out = new TreeMap<>();
        Path root = server.exportDir();
        Path reserved = root.resolve(".tcnfs");
        // walked without the server's .tcnfs, whose backup directories come and go while the walk runs
        Files.walkFileTree(root, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
                    throws IOException {
                if (dir.equals(reserved)) {
                    return java.nio.file.FileVisitResult.SKIP_SUBTREE;
                }
                record(dir);
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                record(file);
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof java.nio.file.NoSuchFileException) {
                    return java.nio.file.FileVisitResult.CONTINUE;
                }
                throw e;
            }

            private void record(Path p) throws IOException {
                PosixFileAttributes a;
                try {
                    a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (java.nio.file.NoSuchFileException e) {
                    return;
                }
                String kind = a.isDirectory() ? "dir" : a.isSymbolicLink() ? "link->" + Files.readSymbolicLink(p)
                        : a.isRegularFile() ? "file" : "other";
                String content = a.isRegularFile() && a.size() <= (1 << 20) ? digest(Files.readAllBytes(p)) : "";
                // the inode and link count: a rollback puts back the same objects (README "What a rollback
                // restores"), and the mtime, which it puts back for what the compound wrote, removed or renamed
                // and for the directories whose entries it changed (not the atime: the snapshot reads files)
                Object inode;
                Object links;
                try {
                    inode = Files.getAttribute(p, "unix:ino", LinkOption.NOFOLLOW_LINKS);
                    links = Files.getAttribute(p, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
                } catch (java.nio.file.NoSuchFileException e) {
                    return;
                }
                out.put(root.relativize(p).toString(), kind + " size " + (a.isDirectory() ? "-" : a.size()) + " "
                        + java.nio.file.attribute.PosixFilePermissions.toString(a.permissions()) + " "
                        + a.owner().getName() + ":" + a.group().getName() + " " + content + " inode " + inode
                        + " links " + links + " mtime " + a.lastModifiedTime().toInstant());
            }
        });
        return out;
    }

    private List<String> backups() throws IOException {
        Path area = server.exportDir().resolve(".tcnfs").resolve("txn");
        if (!Files.isDirectory(area)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(area)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    private static String digest(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)).substring(0, 16);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String diff(Map<String, String> before, Map<String, String> after) {
        StringBuilder sb = new StringBuilder();
        for (String k : before.keySet()) {
            if (!before.get(k).equals(after.get(k))) {
                sb.append("  ").append(k).append(": ").append(before.get(k)).append(" -> ").append(after.get(k))
                        .append('\n');
            }
        }
        for (String k : after.keySet()) {
            if (!before.containsKey(k)) {
                sb.append("  ").append(k).append(": new ").append(after.get(k)).append('\n');
            }
        }
        return sb.toString();
    }

    private static double gauge(String scraped, String name) {
        return ServerProcess.metric(scraped, name).orElseThrow(() -> new AssertionError("no metric " + name));
    }

    // ---- what went out

    private String describe(int procedure, Client client, COMPOUND4args args, List<String> notes) {
        StringBuilder sb = new StringBuilder("#").append(sent + 1).append(' ')
                .append(procedure == NfsConnection.PROC_COMPOUND_TXN ? "TXN " : "").append("minor ")
                .append(args.minorversion).append(" client ").append(clients.indexOf(client)).append(' ')
                .append(notes).append(':');
        for (nfs_argop4 op : args.argarray) {
            sb.append(' ').append(org.tcnfs.nfs4.xdr.nfs_opnum4.name(op.argop));
            sb.append(Args.describe(op.args));
        }
        return sb.toString();
    }

    private static String describeResult(COMPOUND4res res) {
        StringBuilder sb = new StringBuilder(NfsStatus.nameOf(res.status)).append(" [");
        for (nfs_resop4 r : res.resarray) {
            sb.append(org.tcnfs.nfs4.xdr.nfs_opnum4.name(r.resop)).append(':').append(NfsStatus.nameOf(r.status))
                    .append(' ');
        }
        return sb.append(']').toString();
    }

    private void remember(String what) {
        recent.addLast(what);
        while (recent.size() > 30) {
            recent.removeFirst();
        }
    }

    private Map<String, String> traced;

    /** Inode number and link count of every name in home, for a trace. */
    private String inodes() throws IOException {
        StringBuilder sb = new StringBuilder("  inodes:");
        try (Stream<Path> names = Files.list(server.exportDir().resolve("home"))) {
            for (Path p : names.sorted().toList()) {
                sb.append(' ').append(p.getFileName()).append('=').append(Files.getAttribute(p, "unix:ino",
                        java.nio.file.LinkOption.NOFOLLOW_LINKS)).append('/').append(Files.getAttribute(p,
                        "unix:nlink", java.nio.file.LinkOption.NOFOLLOW_LINKS));
            }
        }
        return sb.append('\n').toString();
    }

    private static void trace(String got) throws IOException {
        if (TRACE != null) {
            Files.writeString(Path.of(TRACE), got + "\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
        }
    }

    private void replaceRecent(String what) {
        recent.pollLast();
        remember(what);
    }

    private String recentText() {
        return "\nlast compounds (seed " + SEED + "):\n" + String.join("\n", recent);
    }

    /** A short text of operation arguments for failure messages. */
    private static final class Args {
        static String describe(Object args) {
            if (args == null) {
                return "";
            }
            if (args instanceof HostileCompounds.RawArgs r) {
                return "(raw" + (r.malformed ? ", malformed" : "") + ")";
            }
            StringBuilder sb = new StringBuilder("(");
            for (java.lang.reflect.Field f : args.getClass().getFields()) {
                if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                try {
                    Object v = f.get(args);
                    sb.append(f.getName()).append('=').append(value(v)).append(' ');
                } catch (IllegalAccessException e) {
                    sb.append('?');
                }
            }
            return sb.toString().trim() + ")";
        }

        private static String value(Object v) {
            if (v == null) {
                return "null";
            }
            if (v instanceof byte[] b) {
                return b.length > 24 ? "[" + b.length + " bytes]" : HexFormat.of().formatHex(b);
            }
            if (v instanceof String s) {
                return s.length() > 24 ? "\"" + s.substring(0, 8) + "...\"(" + s.length() + ")" : "\"" + s + "\"";
            }
            if (v instanceof java.nio.ByteBuffer bb) {
                return "[" + bb.remaining() + " bytes]";
            }
            if (v instanceof Number || v instanceof Boolean) {
                return v.toString();
            }
            if (v instanceof int[] ints) {
                return java.util.Arrays.toString(ints);
            }
            if (v.getClass().isArray()) {
                return "[" + java.lang.reflect.Array.getLength(v) + "]";
            }
            return describe(v);
        }
    }
}
