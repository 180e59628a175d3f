package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs40Client;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.Nfs41Session.SpanningTransaction;
import org.tcnfs.client.XdrBytes;
import org.tcnfs.client.rpc.AuthSys;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.OPEN4args;

/**
 * The procedures of transactions that span compounds (docs/protocol.md: TXN_BEGIN {@code 0x80000010},
 * TXN_COMPOUND {@code 0x80000011}, TXN_COMMIT {@code 0x80000012}, TXN_ABORT {@code 0x80000013}) under attack,
 * through the wire: arguments cut short or followed by more bytes, forged and ended ids, ids of other connections,
 * thousands of TXN_BEGINs never committed from one connection and from many, the procedures over NFSv4.0, over
 * NFSv4.1 with and without a session, with AUTH_NONE, and between DESTROY_SESSION and DESTROY_CLIENTID. Each gets
 * the right NFS status or RPC error (GARBAGE_ARGS), changes nothing it must not, puts no stack trace in the log,
 * and leaves no transaction open ({@code tcnfs_txn_spanning_open} back to zero).
 */
class SpanningTransactionAttacksIT extends AttackedServerTest {
    private static final int PROC_TXN_BEGIN = 0x80000010;
    private static final int PROC_TXN_COMPOUND = 0x80000011;
    private static final int PROC_TXN_COMMIT = 0x80000012;
    private static final int PROC_TXN_ABORT = 0x80000013;
    private static final int SUCCESS = 0;
    private static final int GARBAGE_ARGS = 4;
    private static final int MAX_OPEN = 32;
    private static final int PER_ADDRESS = 8;

    @Override
    String[] serverOptions() {
        List<String> options = new ArrayList<>(List.of("--txn-idle-timeout", "20s", "--max-open-txns",
                Integer.toString(MAX_OPEN)));
        // -Dtcnfs.it.txns.per.address=none runs these against a server without the setting (the old one)
        String perAddress = System.getProperty("tcnfs.it.txns.per.address", Integer.toString(PER_ADDRESS));
        if (!perAddress.equals("none")) {
            options.addAll(List.of("--max-open-txns-per-address", perAddress));
        }
        return options.toArray(new String[0]);
    }

    @Override
    void prepareExport(Path exportDir) throws IOException {
        Files.createDirectories(exportDir.resolve("d"));
    }

    // ---- raw calls

    private static byte[] rootCall(int xid, int proc, byte[] args) {
        byte[] cred = Hostile.authSys("txn-attack", 0, 0);
        return Hostile.call(xid, proc, Hostile.AUTH_SYS, cred, cred.length, args);
    }

    private static byte[] anonymousCall(int xid, int proc, byte[] args) {
        return Hostile.call(xid, proc, Hostile.AUTH_NONE, new byte[0], 0, args);
    }

    /** Sends {@code call} on {@code s} and returns the reply's accept status (the reply must be accepted). */
    private static ByteBuffer exchange(Socket s, byte[] call) throws IOException {
        s.getOutputStream().write(Hostile.record(call));
        ByteBuffer reply = Hostile.readRecord(s);
        assertThat(reply.getInt(0)).as("xid").isEqualTo(ByteBuffer.wrap(call).getInt(0));
        assertThat(reply.getInt(8)).as("reply accepted, not denied").isZero();
        return reply;
    }

    private static int acceptStatus(ByteBuffer reply) {
        return reply.getInt(20);
    }

    /** The NFS status of an accepted, successful reply (its first word of results). */
    private static NfsStatus nfsStatus(ByteBuffer reply) {
        assertThat(acceptStatus(reply)).as("accept status").isEqualTo(SUCCESS);
        return NfsStatus.of(reply.getInt(24));
    }

    private static byte[] ticket(long ticket) {
        return ByteBuffer.allocate(8).putLong(ticket).array();
    }

    private static byte[] txnCompoundArgs(byte[] txnId, COMPOUND4args compound) {
        byte[] body = XdrBytes.encode(compound);
        return ByteBuffer.allocate(16 + body.length).put(txnId).put(body).array();
    }

    /** A socket from {@code localAddress} (any address of 127/8 reaches the server on 127.0.0.1). */
    private Socket connectFrom(String localAddress) throws IOException {
        Socket s = new Socket();
        s.bind(new InetSocketAddress(localAddress, 0));
        s.connect(new InetSocketAddress(server.host(), server.port()), 5000);
        s.setSoTimeout(10_000);
        s.setTcpNoDelay(true);
        return s;
    }

    private double openTxns() throws IOException {
        return server.metric("tcnfs_txn_spanning_open");
    }

    /** Waits (at most 10 s) until no transaction that spans compounds is open. */
    private void awaitNoOpenTransaction() throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (openTxns() > 0 && System.nanoTime() < deadline) {
            Hostile.sleep(100);
        }
        assertThat(openTxns()).as("transactions that span compounds left open").isZero();
    }

    private void assertNoStackTraceInTheLog() {
        String log = server.output();
        assertThat(log).as("server log").doesNotContain("\tat org.", "\tat java.", "Exception in thread");
        assertThat(server.isAlive()).as("server alive").isTrue();
    }

    private static int lines(String log, String containing) {
        return (int) log.lines().filter(l -> l.contains(containing)).count();
    }

    // ---- the attacks

    @Test
    void argumentsCutShortOrFollowedByMoreBytesAreGarbageArgsAndBeginNothing() throws IOException {
        byte[] someId = new byte[16];
        byte[] hugeTag = ByteBuffer.allocate(16 + 8).put(someId).putInt(-1).putInt(0).array();
        byte[] manyOps = ByteBuffer.allocate(16 + 16).put(someId).putInt(0).putInt(1).putInt(Integer.MAX_VALUE)
                .putInt(24).array();
        Map<String, byte[]> calls = new TreeMap<>();
        calls.put("TXN_BEGIN without arguments", rootCall(1, PROC_TXN_BEGIN, new byte[0]));
        calls.put("TXN_BEGIN with half a ticket", rootCall(2, PROC_TXN_BEGIN, new byte[4]));
        calls.put("TXN_BEGIN with 64 KiB after its ticket", rootCall(3, PROC_TXN_BEGIN, new byte[8 + 65536]));
        calls.put("TXN_COMMIT with half an id", rootCall(4, PROC_TXN_COMMIT, new byte[8]));
        calls.put("TXN_COMMIT with 4 bytes after its id", rootCall(5, PROC_TXN_COMMIT, new byte[20]));
        calls.put("TXN_ABORT without arguments", rootCall(6, PROC_TXN_ABORT, new byte[0]));
        calls.put("TXN_ABORT with 1 KiB after its id", rootCall(7, PROC_TXN_ABORT, new byte[16 + 1024]));
        calls.put("TXN_COMPOUND with 12 bytes of id", rootCall(8, PROC_TXN_COMPOUND, new byte[12]));
        calls.put("TXN_COMPOUND with an id only", rootCall(9, PROC_TXN_COMPOUND, someId));
        calls.put("TXN_COMPOUND whose tag claims 4 GiB", rootCall(10, PROC_TXN_COMPOUND, hugeTag));
        calls.put("TXN_COMPOUND claiming 2^31-1 operations", rootCall(11, PROC_TXN_COMPOUND, manyOps));
        Hostile.Memory before = Hostile.memory(server);
        Map<String, Integer> accepted = new TreeMap<>();
        try (Socket s = Hostile.connect(server)) {
            for (Map.Entry<String, byte[]> call : calls.entrySet()) {
                accepted.put(call.getKey(), acceptStatus(exchange(s, call.getValue())));
            }
            Hostile.ping(s, 99);
            assertThat(openTxns()).as("transactions begun").isZero();
        }
        Hostile.report("TXN_* arguments cut short or too long", before, Hostile.memory(server), 0,
                normal.probeMillis());
        assertThat(accepted).as("accept status per call (4 = GARBAGE_ARGS)")
                .allSatisfy((call, status) -> assertThat(status).as(call).isEqualTo(GARBAGE_ARGS));
        assertNoStackTraceInTheLog();
    }

    @Test
    void aTransactionThatEndedOrBelongsToAnotherConnectionAnswersBadStateidAndChangesNothing() throws IOException {
        try (NfsConnection c = server.connect(AuthSys.ROOT, Duration.ofSeconds(10));
                Nfs41Session s = Nfs41Session.create(c, "ended");
                NfsConnection other = server.connect(AuthSys.ROOT, Duration.ofSeconds(10));
                Nfs41Session o = Nfs41Session.create(other, "other")) {
            byte[] d = normal.lookup("d");
            SpanningTransaction committed = s.beginTransaction(0);
            assertThat(committed.execute(new CompoundBuilder().putfh(d).mkdir("c1")).status()).isEqualTo(NfsStatus.OK);
            assertThat(NfsStatus.of(committed.commit())).isEqualTo(NfsStatus.OK);
            assertThat(committed.execute(new CompoundBuilder().putfh(d).mkdir("c2")).status())
                    .as("TXN_COMPOUND after TXN_COMMIT").isEqualTo(NfsStatus.BAD_STATEID);
            assertThat(NfsStatus.of(committed.commit())).as("TXN_COMMIT again: a retry gets the first one's answer")
                    .isEqualTo(NfsStatus.OK);
            assertThat(NfsStatus.of(committed.abort())).isEqualTo(NfsStatus.BAD_STATEID);

            SpanningTransaction aborted = s.beginTransaction(0);
            assertThat(aborted.execute(new CompoundBuilder().putfh(d).mkdir("a1")).status()).isEqualTo(NfsStatus.OK);
            assertThat(NfsStatus.of(aborted.abort())).isEqualTo(NfsStatus.OK);
            assertThat(aborted.execute(new CompoundBuilder().putfh(d).mkdir("a2")).status())
                    .as("TXN_COMPOUND after TXN_ABORT").isEqualTo(NfsStatus.BAD_STATEID);
            assertThat(NfsStatus.of(aborted.commit())).isEqualTo(NfsStatus.BAD_STATEID);

            SpanningTransaction live = s.beginTransaction(0);
            assertThat(live.execute(new CompoundBuilder().putfh(d).mkdir("l1")).status()).isEqualTo(NfsStatus.OK);
            byte[] forged = live.id();
            forged[15] ^= 1;
            COMPOUND4args forgedWork = new CompoundBuilder().minorVersion(0).putfh(d).mkdir("f1").build();
            assertThat(NfsStatus.of(c.txnCompound(forged, forgedWork, AuthSys.ROOT).status))
                    .as("TXN_COMPOUND with a forged id").isEqualTo(NfsStatus.BAD_STATEID);
            assertThat(NfsStatus.of(c.txnCommit(forged))).isEqualTo(NfsStatus.BAD_STATEID);
            COMPOUND4args stolenWork = new CompoundBuilder().minorVersion(0).putfh(d).mkdir("o1").build();
            assertThat(NfsStatus.of(other.txnCompound(live.id(), stolenWork, AuthSys.ROOT).status))
                    .as("TXN_COMPOUND with the id of another connection's transaction")
                    .isEqualTo(NfsStatus.BAD_STATEID);
            assertThat(NfsStatus.of(other.txnAbort(live.id()))).isEqualTo(NfsStatus.BAD_STATEID);
            assertThat(NfsStatus.of(other.txnCommit(live.id()))).isEqualTo(NfsStatus.BAD_STATEID);
            assertThat(NfsStatus.of(live.commit())).as("the owner still commits it").isEqualTo(NfsStatus.OK);
            o.close();
        }
        Path d = server.exportDir().resolve("d");
        assertThat(d.resolve("c1")).isDirectory();
        assertThat(d.resolve("l1")).isDirectory();
        for (String never : List.of("c2", "a1", "a2", "f1", "o1")) {
            assertThat(d.resolve(never)).as(never).doesNotExist();
        }
        awaitNoOpenTransaction();
        assertNoStackTraceInTheLog();
    }

    @Test
    void aForgedAncientTicketIsReplacedSoItsTransactionDoesNotBecomeTheOldest() throws IOException {
        try (Socket s = Hostile.connect(server)) {
            long anHourAgo = (System.currentTimeMillis() - 3_600_000) * 1000; // tickets: microseconds of the clock
            ByteBuffer forged = exchange(s, rootCall(1, PROC_TXN_BEGIN, ticket(1)));
            assertThat(nfsStatus(forged)).isEqualTo(NfsStatus.OK);
            long given = forged.getLong(28 + 16);
            assertThat(given).as("ticket of a TXN_BEGIN that claimed ticket 1").isGreaterThan(anHourAgo);
            long recent = given - 5_000_000; // 5 s before: a retry's ticket keeps its age
            ByteBuffer retry = exchange(s, rootCall(2, PROC_TXN_BEGIN, ticket(recent)));
            assertThat(nfsStatus(retry)).isEqualTo(NfsStatus.OK);
            assertThat(retry.getLong(28 + 16)).as("ticket of a retry").isEqualTo(recent);
        }
        awaitNoOpenTransaction();
    }

    @Test
    void thousandsOfBeginsOnOneConnectionGetItsAddressShareThenDelayAndEndWithTheConnection() throws IOException {
        int begins = 2000;
        Hostile.Memory before = Hostile.memory(server);
        Map<NfsStatus, Integer> statuses = new TreeMap<>();
        try (Socket attacker = connectFrom("127.0.0.1")) {
            OutputStream out = attacker.getOutputStream();
            for (int i = 0; i < begins; i++) {
                out.write(Hostile.record(rootCall(1000 + i, PROC_TXN_BEGIN, ticket(0))));
            }
            out.flush();
            for (int i = 0; i < begins; i++) {
                ByteBuffer reply = Hostile.readRecord(attacker);
                statuses.merge(nfsStatus(reply), 1, Integer::sum);
            }
            System.out.println("HOSTILE 2000 TXN_BEGIN on one connection: " + statuses);
            assertThat(statuses).as("TXN_BEGIN statuses").containsOnlyKeys(NfsStatus.OK, NfsStatus.DELAY);
            assertThat(statuses.get(NfsStatus.OK)).as("transactions begun by one address").isEqualTo(PER_ADDRESS);
            try (Socket other = connectFrom("127.0.0.2")) {
                ByteBuffer reply = exchange(other, rootCall(7, PROC_TXN_BEGIN, ticket(0)));
                assertThat(nfsStatus(reply)).as("TXN_BEGIN of another address").isEqualTo(NfsStatus.OK);
                byte[] id = new byte[16];
                reply.get(28, id);
                assertThat(nfsStatus(exchange(other, rootCall(8, PROC_TXN_ABORT, id)))).isEqualTo(NfsStatus.OK);
            }
        }
        awaitNoOpenTransaction();
        long after = normal.probeMillis();
        Hostile.report("2000 TXN_BEGIN on one connection, then closed", before, Hostile.memory(server), after, after);
        String log = server.output();
        assertThat(lines(log, "TXN_BEGIN") + lines(log, "aborted because its connection closed"))
                .as("log lines about refused and reaped transactions (rate-limited)").isLessThan(40);
        assertNoStackTraceInTheLog();
    }

    @Test
    void beginsFromManyConnectionsStopAtMaxOpenTxnsAndAllEndWhenTheConnectionsClose() throws IOException {
        int connections = 100;
        List<Socket> sockets = new ArrayList<>();
        Map<NfsStatus, Integer> statuses = new TreeMap<>();
        Hostile.Memory before = Hostile.memory(server);
        try {
            for (int i = 0; i < connections; i++) {
                // 100 addresses, each under its share: only max-open-txns bounds them
                Socket s = connectFrom("127.0.1." + (i + 1));
                sockets.add(s);
                for (int k = 0; k < 2; k++) {
                    s.getOutputStream().write(Hostile.record(rootCall(k, PROC_TXN_BEGIN, ticket(0))));
                }
            }
            for (Socket s : sockets) {
                for (int k = 0; k < 2; k++) {
                    statuses.merge(nfsStatus(Hostile.readRecord(s)), 1, Integer::sum);
                }
            }
            System.out.println("HOSTILE 2 TXN_BEGIN on each of 100 connections: " + statuses);
            assertThat(statuses).containsOnlyKeys(NfsStatus.OK, NfsStatus.DELAY);
            assertThat(statuses.get(NfsStatus.OK)).as("transactions begun").isEqualTo(MAX_OPEN);
            assertThat(openTxns()).isEqualTo(MAX_OPEN);
        } finally {
            sockets.forEach(Hostile::closeQuietly);
        }
        awaitNoOpenTransaction();
        try (NfsConnection c = server.connect(AuthSys.ROOT, Duration.ofSeconds(10));
                Nfs41Session s = Nfs41Session.create(c, "after")) {
            SpanningTransaction txn = s.beginTransaction(0);
            assertThat(NfsStatus.of(txn.beginStatus())).as("TXN_BEGIN once they are gone").isEqualTo(NfsStatus.OK);
            assertThat(txn.execute(new CompoundBuilder().putfh(normal.lookup("d")).mkdir("after")).status())
                    .isEqualTo(NfsStatus.OK);
            assertThat(NfsStatus.of(txn.commit())).isEqualTo(NfsStatus.OK);
        }
        assertThat(server.exportDir().resolve("d/after")).isDirectory();
        long after = normal.probeMillis();
        Hostile.report("2 TXN_BEGIN on each of 100 connections, then closed", before, Hostile.memory(server), after,
                after);
        assertNoStackTraceInTheLog();
    }

    @Test
    void transactionsRunOverNfs40AndNfs41AndAreRefusedWithoutASessionOrWithAuthNone() throws IOException {
        Path d = server.exportDir().resolve("d");
        byte[] dh = normal.lookup("d");
        try (NfsConnection c = server.connect(AuthSys.ROOT, Duration.ofSeconds(10))) {
            // NFSv4.0: SETCLIENTID, then compounds without SEQUENCE
            Nfs40Client v40 = Nfs40Client.create(c, "txn40");
            byte[] id = c.txnBegin(0).txnid.value;
            COMPOUND4res made = c.txnCompound(id, new CompoundBuilder().minorVersion(0).putfh(dh).mkdir("v40")
                    .build(), AuthSys.ROOT);
            assertThat(NfsStatus.of(made.status)).as("NFSv4.0 TXN_COMPOUND").isEqualTo(NfsStatus.OK);
            assertThat(NfsStatus.of(c.txnCommit(id))).isEqualTo(NfsStatus.OK);
            assertThat(v40.renew().status()).isEqualTo(NfsStatus.OK);

            // NFSv4.1 without a session: the first operation is not SEQUENCE
            byte[] noSession = c.txnBegin(0).txnid.value;
            COMPOUND4res refused = c.txnCompound(noSession, new CompoundBuilder().putfh(dh).mkdir("nosession")
                    .build(), AuthSys.ROOT);
            assertThat(NfsStatus.of(refused.status)).as("NFSv4.1 TXN_COMPOUND without SEQUENCE")
                    .isEqualTo(NfsStatus.OP_NOT_IN_SESSION);
            NfsStatus end = NfsStatus.of(c.txnAbort(noSession));
            assertThat(end).as("its transaction is still open or already ended")
                    .isIn(NfsStatus.OK, NfsStatus.BAD_STATEID);

            // NFSv4.1 with a session on the same connection
            Nfs41Session s = Nfs41Session.create(c, "txn41");
            SpanningTransaction v41 = s.beginTransaction(0);
            assertThat(v41.execute(new CompoundBuilder().putfh(dh).mkdir("v41")).status()).isEqualTo(NfsStatus.OK);
            assertThat(NfsStatus.of(v41.commit())).isEqualTo(NfsStatus.OK);
            s.close();
        }
        // AUTH_NONE: the anonymous user may begin, and its work is checked as nobody's (root_squash export)
        try (Socket s = Hostile.connect(server)) {
            ByteBuffer begun = exchange(s, anonymousCall(1, PROC_TXN_BEGIN, ticket(0)));
            assertThat(nfsStatus(begun)).isEqualTo(NfsStatus.OK);
            byte[] id = new byte[16];
            begun.get(28, id);
            COMPOUND4args work = new CompoundBuilder().minorVersion(0).putfh(dh).mkdir("anonymous").build();
            NfsStatus status = nfsStatus(exchange(s, anonymousCall(2, PROC_TXN_COMPOUND, txnCompoundArgs(id, work))));
            assertThat(status).as("nobody creating in a directory of the server's user").isEqualTo(NfsStatus.ACCESS);
            assertThat(nfsStatus(exchange(s, anonymousCall(3, PROC_TXN_COMMIT, id))))
                    .as("the failed compound ended the transaction").isEqualTo(NfsStatus.BAD_STATEID);
        }
        assertThat(d.resolve("v40")).isDirectory();
        assertThat(d.resolve("v41")).isDirectory();
        assertThat(d.resolve("nosession")).doesNotExist();
        assertThat(d.resolve("anonymous")).doesNotExist();
        awaitNoOpenTransaction();
        assertNoStackTraceInTheLog();
    }

    @Test
    void destroySessionAndDestroyClientIdAroundATransactionLeaveNothingOfItAndNoStateBehind() throws IOException {
        Path d = server.exportDir().resolve("d");
        byte[] dh = normal.lookup("d");
        try (NfsConnection c = server.connect(AuthSys.ROOT, Duration.ofSeconds(10))) {
            Nfs41Session s = Nfs41Session.create(c, "destroyed");
            SpanningTransaction txn = s.beginTransaction(0);
            CompoundResult opened = txn.execute(new CompoundBuilder().putfh(dh)
                    .openCreate(s.clientId(), "owner".getBytes(StandardCharsets.UTF_8), "held",
                            OPEN4args.OPEN4_SHARE_ACCESS_BOTH, Attrs.builder().size(0).mode(0644).build())
                    .write(CompoundBuilder.currentStateid(), 0, "held open".getBytes(StandardCharsets.UTF_8)));
            assertThat(opened.status()).isEqualTo(NfsStatus.OK);
            // DESTROY_SESSION inside the transaction: not an operation a transaction can plan
            COMPOUND4args destroyIn = new CompoundBuilder().destroySession(s.sessionId()).build();
            COMPOUND4res in = c.txnCompound(txn.id(), destroyIn, AuthSys.ROOT);
            assertThat(NfsStatus.of(in.status)).as("DESTROY_SESSION as a TXN_COMPOUND").isNotEqualTo(NfsStatus.OK);
            assertThat(NfsStatus.of(txn.commit())).as("the failed compound ended the transaction")
                    .isEqualTo(NfsStatus.BAD_STATEID);
            assertThat(d.resolve("held")).as("rolled back").doesNotExist();

            SpanningTransaction second = s.beginTransaction(0);
            assertThat(second.execute(new CompoundBuilder().putfh(dh)
                    .openCreate(s.clientId(), "owner2".getBytes(StandardCharsets.UTF_8), "held2",
                            OPEN4args.OPEN4_SHARE_ACCESS_BOTH, Attrs.builder().size(0).mode(0644).build()))
                    .status()).isEqualTo(NfsStatus.OK);
            // the session goes while the transaction holds an open of its client
            assertThat(NfsStatus.of(c.compound(new CompoundBuilder().destroySession(s.sessionId()).build(),
                    AuthSys.ROOT).status)).as("DESTROY_SESSION").isEqualTo(NfsStatus.OK);
            assertThat(NfsStatus.of(second.abort())).as("TXN_ABORT after DESTROY_SESSION").isEqualTo(NfsStatus.OK);
            assertThat(NfsStatus.of(c.compound(new CompoundBuilder().destroyClientId(s.clientId()).build(),
                    AuthSys.ROOT).status)).as("DESTROY_CLIENTID: the rollback released the open")
                    .isEqualTo(NfsStatus.OK);
            assertThat(d.resolve("held2")).as("rolled back").doesNotExist();
        }
        awaitNoOpenTransaction();
        assertThat(normal.probeMillis()).isLessThan(Hostile.WEDGED_MILLIS);
        assertNoStackTraceInTheLog();
    }

    /**
     * One transaction that carries thousands of small read-only compounds, sent one after the other, then its
     * connection closes: every compound was served, pipelined ones of the same transaction get NFS4ERR_DELAY (one
     * call of a transaction at a time), and when it ends the heap is back where it was. Prints what one kept
     * compound costs (docs/security.md, known limits).
     */
    @Test
    void thousandsOfCompoundsInOneTransactionAreServedAndLeaveNothingWhenItEnds() throws Exception {
        int compounds = Integer.getInteger("tcnfs.it.txn.compounds", 3000);
        Hostile.Memory before = Hostile.memory(server);
        byte[] dh = normal.lookup("d");
        try (Socket s = Hostile.connect(server)) {
            ByteBuffer begun = exchange(s, rootCall(1, PROC_TXN_BEGIN, ticket(0)));
            assertThat(nfsStatus(begun)).isEqualTo(NfsStatus.OK);
            byte[] id = new byte[16];
            begun.get(28, id);
            byte[] call = rootCall(2, PROC_TXN_COMPOUND, txnCompoundArgs(id,
                    new CompoundBuilder().minorVersion(0).putfh(dh).getattr(1).build()));
            // two at once: the second finds the first running
            s.getOutputStream().write(Hostile.record(call));
            s.getOutputStream().write(Hostile.record(call));
            List<NfsStatus> pair = List.of(nfsStatus(Hostile.readRecord(s)), nfsStatus(Hostile.readRecord(s)));
            assertThat(pair).contains(NfsStatus.OK);
            assertThat(pair).allMatch(st -> st == NfsStatus.OK || st == NfsStatus.DELAY);
            for (int i = 0; i < compounds; i++) {
                assertThat(nfsStatus(exchange(s, call))).isEqualTo(NfsStatus.OK);
            }
            Hostile.Memory during = Hostile.memory(server);
            System.out.printf("HOSTILE %d read-only TXN_COMPOUNDs in one transaction: live heap %.1f -> %.1f MiB "
                    + "(%.0f bytes per compound kept)%n", compounds, before.liveHeapMiB(), during.liveHeapMiB(),
                    (during.liveHeapMiB() - before.liveHeapMiB()) * (1 << 20) / compounds);
        }
        awaitNoOpenTransaction();
        Hostile.Memory after = Hostile.memory(server);
        Hostile.report(compounds + " compounds in one transaction, then closed", before, after, 0,
                normal.probeMillis());
        assertThat(after.liveHeapMiB()).as("live heap after the transaction ended (MiB)")
                .isLessThan(before.liveHeapMiB() + 8);
        assertNoStackTraceInTheLog();
    }
}
