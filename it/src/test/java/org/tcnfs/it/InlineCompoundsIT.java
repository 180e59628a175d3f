package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_MODE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_SIZE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.stable_how4;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * Issue 16: a short read-only COMPOUND (PUTROOTFH, LOOKUP, GETATTR, ...) runs on the network thread that read
 * it while no request is with the workers, sparing a worker's wake-up per round trip
 * ({@code tcnfs_rpc_inline_compounds_total}); so does a short plain change that flushes nothing before its reply on an
 * {@code async} export (h-inline2), while other changes run on a worker as before; and while a long compound runs on a
 * worker, a short one and a NULL on another connection are answered at once.
 */
class InlineCompoundsIT {
    private static final String INLINE = "tcnfs_rpc_inline_compounds_total";
    private static final int FILES = 1500;

    private ServerProcess server;

    @BeforeEach
    void start() throws IOException {
        server = ServerProcess.start("--max-ops", "8192");
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    @Test
    void shortReadsRunOnTheNetworkThreadAndChangesOnAWorker() throws Exception {
        try (NfsConnection connection = server.connect();
                Nfs41Session session = Nfs41Session.create(connection, "inline")) {
            NfsOps nfs = new NfsOps(session);
            byte[] root = nfs.rootFh();
            double before = server.metric(INLINE);
            for (int i = 0; i < 20; i++) {
                nfs.run(new CompoundBuilder().putfh(root).getattr(1).getfh());
            }
            double afterReads = server.metric(INLINE);
            assertThat(afterReads - before).as("read compounds run inline").isGreaterThanOrEqualTo(20);
            for (int i = 0; i < 5; i++) {
                nfs.runOk(new CompoundBuilder().putfh(root).mkdir("d" + i));
            }
            assertThat(server.metric(INLINE)).as("a compound that creates runs on a worker").isEqualTo(afterReads);
        }
    }

    @Test
    void aReadRightAfterAChangeRunsOnTheNetworkThread() throws Exception {
        // an unmodified client alternates changes (on a worker) and reads; the read that follows a change's reply
        // runs inline too: the worker stops counting as busy once its compound is done, before its reply is
        // written (before issue 16's h-inline it counted until after, so the client's next call, sent as soon as
        // the reply arrived, sometimes found the worker still "busy" and went to a worker itself)
        try (NfsConnection connection = server.connect();
                Nfs41Session session = Nfs41Session.create(connection, "alternate")) {
            NfsOps nfs = new NfsOps(session);
            byte[] root = nfs.rootFh();
            nfs.run(new CompoundBuilder().putfh(root).getattr(1));
            int rounds = 200;
            double before = server.metric(INLINE);
            for (int i = 0; i < rounds; i++) {
                nfs.runOk(new CompoundBuilder().putfh(root).mkdir("a" + i));
                nfs.runOk(new CompoundBuilder().putfh(root).getattr(1));
            }
            double inline = server.metric(INLINE) - before;
            System.out.println("INLINE reads right after a change: " + inline + " of " + rounds);
            assertThat(inline).as("reads right after a change run inline").isGreaterThanOrEqualTo(rounds);
        }
    }

    @Test
    void aShortReadAndANullAreAnsweredAtOnceWhileAnotherConnectionsLongCompoundRuns() throws Exception {
        try (NfsConnection connection = server.connect();
                Nfs41Session session = Nfs41Session.create(connection, "long");
                NfsConnection other = server.connect();
                Nfs41Session short1 = Nfs41Session.create(other, "short")) {
            NfsOps nfs = new NfsOps(session);
            byte[] dir = nfs.mkdir(nfs.rootFh(), "long");
            // one compound creating many directories, each made durable: hundreds of milliseconds on a worker
            CompoundBuilder creates = new CompoundBuilder().putfh(dir);
            for (int i = 0; i < FILES; i++) {
                creates.mkdir("m" + i).lookupp();
            }
            NfsOps shortOps = new NfsOps(short1);
            byte[] root = shortOps.rootFh();
            for (int i = 0; i < 10; i++) {
                probeMillis(shortOps, root); // warm both sides up
            }
            long start = System.nanoTime();
            CompletableFuture<Void> longOne = CompletableFuture.runAsync(() -> {
                try {
                    nfs.runOk(creates);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            List<Long> probes = new ArrayList<>();
            while (!longOne.isDone() && probes.size() < 200) {
                probes.add(probeMillis(shortOps, root));
            }
            longOne.get(120, TimeUnit.SECONDS);
            long longMillis = (System.nanoTime() - start) / 1_000_000;
            System.out.println("INLINE long compound " + longMillis + " ms; short read + NULL probes (ms): " + probes);
            assertThat(probes).as("probes while the long compound ran").isNotEmpty();
            assertThat(probes.stream().mapToLong(Long::longValue).max().orElse(0))
                    .as("slowest probe (ms) beside a %d ms compound", longMillis).isLessThan(Math.max(500, longMillis / 2));
        }
    }

    @Test
    void shortReadsOfWhatASpanningTransactionHoldsWaitOnWorkersNotOnTheNetworkThreads() throws Exception {
        // a transaction spanning compounds holds its directory's WRITE lock while no worker runs; short reads of that
        // directory from several connections are answered (NFS4ERR_DELAY, or after the lock) without holding up
        // the (two) network threads: a NULL on a new connection is answered at once meanwhile. The server also
        // keeps such reads off the network threads while any lock is held (TransactionWiring's inlineAllowed)
        List<NfsConnection> connections = new ArrayList<>();
        List<Nfs41Session> sessions = new ArrayList<>();
        try (NfsConnection connection = server.connect();
                Nfs41Session session = Nfs41Session.create(connection, "span")) {
            NfsOps nfs = new NfsOps(session);
            byte[] dir = nfs.mkdir(nfs.rootFh(), "held");
            Nfs41Session.SpanningTransaction txn = session.beginTransaction(0);
            assertThat(txn.beginStatus()).isZero();
            assertThat(txn.execute(new CompoundBuilder().putfh(dir).mkdir("inside")).status()).isEqualTo(NfsStatus.OK);
            List<CompletableFuture<Void>> readers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                NfsConnection c = server.connect();
                connections.add(c);
                Nfs41Session s = Nfs41Session.create(c, "reader" + i);
                sessions.add(s);
                NfsOps ops = new NfsOps(s);
                readers.add(CompletableFuture.runAsync(() -> {
                    try {
                        NfsStatus status = ops.run(new CompoundBuilder().putfh(dir).getattr(1)).status();
                        assertThat(status).isIn(NfsStatus.OK, NfsStatus.DELAY);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }));
            }
            Thread.sleep(500); // the readers' compounds reach the server and wait for the lock
            long nullMillis = nullMillis();
            assertThat(txn.abort()).isZero();
            CompletableFuture.allOf(readers.toArray(new CompletableFuture[0])).get(60, TimeUnit.SECONDS);
            System.out.println("INLINE NULL beside reads waiting for a spanning transaction's lock: " + nullMillis + " ms");
            assertThat(nullMillis).as("ms of a NULL while reads wait for a held lock").isLessThan(2000);
        } finally {
            for (Nfs41Session s : sessions) {
                s.close();
            }
            for (NfsConnection c : connections) {
                c.close();
            }
        }
    }

    @Test
    void oneOperationChangesOnAnAsyncExportRunOnTheNetworkThread() throws Exception {
        // issue 16, h-inline2: on an async export an OPEN-create, a small UNSTABLE4 WRITE, CLOSE, SETATTR and REMOVE
        // flush nothing before their reply: each runs inline (before h-inline2 every change went to a worker);
        // a COMMIT and a FILE_SYNC WRITE flush the file: on a worker
        server.close();
        server = ServerProcess.start("--max-ops", "8192", "--data-options", "rw,no_root_squash,async");
        assertThat(inlinePerChange()).as("compounds run inline: create, write, close, setattr, remove, commit, "
                + "stable write").containsExactly(1, 1, 1, 1, 1, 0, 0);
    }

    @Test
    void oneOperationChangesOnASyncExportRunOnAWorker() throws Exception {
        // on a sync export each of them makes its change durable before the reply: never on the network thread
        assertThat(inlinePerChange()).as("compounds run inline: create, write, close, setattr, remove, commit, "
                + "stable write").containsExactly(0, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void aChangeOnAnAsyncExportOfANameATransactionHoldsRunsOnAWorkerAndNeverBesideIt() throws Exception {
        // a transaction spanning compounds holds the lock of the name it created while no worker runs; a plain REMOVE
        // of that name, though it could run inline on an async export, goes to a worker (no inline change while a
        // lock is held), where it is refused NFS4ERR_DELAY rather than wait; it removes the name once the
        // transaction committed
        server.close();
        server = ServerProcess.start("--max-ops", "8192", "--data-options", "rw,no_root_squash,async");
        try (NfsConnection connection = server.connect();
                Nfs41Session session = Nfs41Session.create(connection, "span");
                NfsConnection other = server.connect();
                Nfs41Session plain = Nfs41Session.create(other, "plain")) {
            NfsOps nfs = new NfsOps(session);
            byte[] dir = nfs.mkdir(nfs.rootFh(), "held");
            NfsOps plainOps = new NfsOps(plain);
            plainOps.getattr(dir, FATTR4_MODE);
            Nfs41Session.SpanningTransaction txn = session.beginTransaction(0);
            assertThat(txn.beginStatus()).isZero();
            assertThat(txn.execute(new CompoundBuilder().putfh(dir).mkdir("inside")).status()).isEqualTo(NfsStatus.OK);
            double before = server.metric(INLINE);
            NfsStatus during = plainOps.run(new CompoundBuilder().putfh(dir).remove("inside")).status();
            double inlineDuring = server.metric(INLINE) - before;
            assertThat(txn.commit()).isZero();
            assertThat(during).as("a REMOVE of the name while the transaction holds it").isEqualTo(NfsStatus.DELAY);
            assertThat(inlineDuring).as("compounds run inline while the transaction held its lock").isZero();
            assertThat(plainOps.run(new CompoundBuilder().putfh(dir).remove("inside")).status())
                    .isEqualTo(NfsStatus.OK);
            assertThat(nfs.readdirNames(dir)).isEmpty();
        }
    }

    /**
     * Runs one-operation changes of a file, one compound each, and says how many compounds ran inline for each:
     * OPEN-create, UNSTABLE4 WRITE of 4 KiB, CLOSE, SETATTR of the mode, REMOVE, then on a second file COMMIT and a
     * FILE_SYNC WRITE. Checks what each did.
     */
    private List<Integer> inlinePerChange() throws IOException {
        try (NfsConnection connection = server.connect();
                Nfs41Session session = Nfs41Session.create(connection, "changes")) {
            NfsOps nfs = new NfsOps(session);
            byte[] dir = nfs.mkdir(nfs.rootFh(), "changes");
            byte[] other = nfs.createFile(dir, "other", new byte[100]);
            nfs.getattr(dir, FATTR4_MODE);
            List<Integer> inline = new ArrayList<>();
            CompoundResult opened = inlineOf(inline, nfs, new CompoundBuilder().putfh(dir)
                    .openCreate(session.clientId(), nfs.openOwner(), "f", OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                            Attrs.builder().mode(0644).build())
                    .getfh());
            byte[] fh = opened.fileHandle();
            stateid4 open = opened.body(OP_OPEN, OPEN4resok.class).stateid;
            byte[] page = new byte[4096];
            java.util.Arrays.fill(page, (byte) 7);
            inlineOf(inline, nfs, new CompoundBuilder().putfh(fh).write(open, 0, stable_how4.UNSTABLE4, page));
            inlineOf(inline, nfs, new CompoundBuilder().putfh(fh).close(open));
            inlineOf(inline, nfs, new CompoundBuilder().putfh(fh)
                    .setattr(CompoundBuilder.anonymousStateid(), Attrs.builder().mode(0600).build()));
            assertThat(nfs.getattr(fh, FATTR4_MODE, FATTR4_SIZE).mode() & 07777).isEqualTo(0600);
            assertThat(nfs.read(fh)).isEqualTo(page);
            inlineOf(inline, nfs, new CompoundBuilder().putfh(dir).remove("f"));
            assertThat(nfs.run(new CompoundBuilder().putfh(dir).lookup("f")).status()).isEqualTo(NfsStatus.NOENT);
            inlineOf(inline, nfs, new CompoundBuilder().putfh(other).commit(0, 0));
            inlineOf(inline, nfs, new CompoundBuilder().putfh(other)
                    .write(CompoundBuilder.anonymousStateid(), 0, stable_how4.FILE_SYNC4, new byte[8]));
            return inline;
        }
    }

    /** Runs {@code ops} (which must succeed) and adds to {@code inline} how many compounds ran inline meanwhile. */
    private CompoundResult inlineOf(List<Integer> inline, NfsOps nfs, CompoundBuilder ops) throws IOException {
        double before = server.metric(INLINE);
        CompoundResult result = nfs.runOk(ops);
        inline.add((int) (server.metric(INLINE) - before));
        return result;
    }

    /** Milliseconds of one NULL on a new connection. */
    private long nullMillis() throws IOException {
        long t = System.nanoTime();
        sendNull(78);
        return (System.nanoTime() - t) / 1_000_000;
    }

    /** Milliseconds of one short read compound on the session and one NULL on a new connection. */
    private long probeMillis(NfsOps ops, byte[] root) throws IOException {
        long t = System.nanoTime();
        ops.run(new CompoundBuilder().putfh(root).getattr(1));
        sendNull(77);
        return (System.nanoTime() - t) / 1_000_000;
    }

    /** Sends a NULL with {@code xid} on a new connection and reads its reply (30 s at most). */
    private void sendNull(int xid) throws IOException {
        try (Socket s = new Socket(server.host(), server.port())) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(nullCall(xid));
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] reply = new byte[in.readInt() & 0x7fffffff];
            in.readFully(reply);
            assertThat(ByteBuffer.wrap(reply).getInt(0)).isEqualTo(xid);
        }
    }

    /** NFSPROC4_NULL with AUTH_NONE, as one record. */
    private static byte[] nullCall(int xid) {
        return ByteBuffer.allocate(44).putInt(0x80000000 | 40).putInt(xid).putInt(0).putInt(2).putInt(100003)
                .putInt(4).putInt(0).putInt(0).putInt(0).putInt(0).putInt(0).array();
    }
}
