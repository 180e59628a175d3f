package org.tcnfs.nfs4.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.CompoundHook;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.COMPOUND4args;

/**
 * Through the wire (raw sockets, the real RPC stack): requests run on worker threads, and a NULL ping is
 * answered at once while every worker runs a long request and more wait (issue 14: with the network thread
 * running what did not fit in the queue, a ping waited behind a long transaction). Only NULL and a short
 * read-only compound while the workers are idle run on the network thread (issue 16).
 */
class NfsServerSchedulingTest {
    private static final long SLOW_MILLIS = 1500;
    private final List<String> threads = Collections.synchronizedList(new ArrayList<>());
    /** "tag thread" of every compound run. */
    private final List<String> ranOn = Collections.synchronizedList(new ArrayList<>());
    private NfsServer server;

    @BeforeEach
    void start() throws IOException {
        InMemoryFileSystem fs = new InMemoryFileSystem();
        server = NfsServer.builder().fileSystems((credential, client) -> fs).bind("127.0.0.1", 0).workerThreads(2)
                .minorVersions(Set.of(0, 1))
                .hook(new CompoundHook() {
                    @Override
                    public void beforeCompound(CompoundContext context, COMPOUND4args args) {
                        threads.add(Thread.currentThread().getName());
                        ranOn.add(args.tag + " " + Thread.currentThread().getName());
                        if ("slow".equals(args.tag)) {
                            try {
                                Thread.sleep(SLOW_MILLIS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                    }
                }).build();
        server.start();
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    /** An RPC call to NFSv4 {@code proc} with AUTH_NONE, as one record. */
    static byte[] record(int xid, int proc, byte[] args) {
        ByteBuffer b = ByteBuffer.allocate(4 + 40 + args.length);
        b.putInt(0x80000000 | (40 + args.length));
        b.putInt(xid).putInt(0).putInt(2).putInt(100003).putInt(4).putInt(proc);
        b.putInt(0).putInt(0).putInt(0).putInt(0);
        b.put(args);
        return b.array();
    }

    /** A minor version 1 COMPOUND with no operations and the given 4-byte tag. */
    static byte[] emptyCompound(String tag) {
        byte[] t = tag.getBytes(StandardCharsets.US_ASCII);
        return ByteBuffer.allocate(4 + 4 + 4 + 4).putInt(4).put(t).putInt(1).putInt(0).array();
    }

    /** A minor version 0 COMPOUND with the given 4-byte tag: PUTROOTFH, then {@code op} (GETATTR of the type). */
    static byte[] rootCompound(String tag, int op) {
        byte[] t = tag.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocate(4 + 4 + 4 + 4 + 4 + 4 + 8).putInt(4).put(t).putInt(0).putInt(2).putInt(24);
        if (op == 9) {
            b.putInt(9).putInt(1).putInt(1 << 1);
        } else {
            // REMOVE of the name "x"
            b.putInt(op).putInt(1).putInt('x' << 24);
        }
        return b.array();
    }

    static ByteBuffer readRecord(Socket s) throws IOException {
        DataInputStream in = new DataInputStream(s.getInputStream());
        int marker = in.readInt();
        byte[] body = new byte[marker & 0x7fffffff];
        in.readFully(body);
        return ByteBuffer.wrap(body);
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5000);
        s.setSoTimeout(20_000);
        return s;
    }

    @Test
    void aNullPingIsAnsweredAtOnceWhileEveryWorkerRunsALongRequestAndMoreWait() throws IOException {
        try (Socket a = connect(); Socket b = connect()) {
            for (Socket s : List.of(a, b)) {
                ByteBuffer burst = ByteBuffer.allocate(6 * record(0, 1, emptyCompound("slow")).length);
                for (int i = 0; i < 6; i++) {
                    burst.put(record(100 + i, 1, emptyCompound("slow")));
                }
                s.getOutputStream().write(burst.array());
            }
            Thread.sleep(300);
            long worst = 0;
            for (int i = 0; i < 3; i++) {
                try (Socket ping = connect()) {
                    long start = System.nanoTime();
                    ping.getOutputStream().write(record(7, 0, new byte[0]));
                    ByteBuffer reply = readRecord(ping);
                    worst = Math.max(worst, (System.nanoTime() - start) / 1_000_000);
                    assertThat(reply.getInt(0)).isEqualTo(7);
                    assertThat(reply.getInt(8)).as("MSG_ACCEPTED").isZero();
                }
            }
            assertThat(worst).as("ms for a NULL ping behind %d ms requests", SLOW_MILLIS).isLessThan(SLOW_MILLIS / 2);
            for (Socket s : List.of(a, b)) {
                // requests of one connection run on several workers at once, so replies may come in any order
                // (RPC matches them by xid); each is answered exactly once
                List<Integer> xids = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    xids.add(readRecord(s).getInt(0));
                }
                assertThat(xids).as("xids of the replies").containsExactlyInAnyOrder(100, 101, 102, 103, 104, 105);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        assertThat(threads).hasSize(12).allSatisfy(name -> assertThat(name).contains("-request-"));
    }

    @Test
    void aCallWithAHugeGidCountIsAnsweredBadCredAndTheConnectionGoesOn() throws IOException {
        try (Socket s = connect()) {
            ByteBuffer b = ByteBuffer.allocate(4 + 64);
            b.putInt(0x80000000 | 64);
            b.putInt(3).putInt(0).putInt(2).putInt(100003).putInt(4).putInt(0);
            b.putInt(1).putInt(24).putInt(0).putInt(1).putInt(0x78000000).putInt(0).putInt(0).putInt(Integer.MAX_VALUE);
            b.putInt(0).putInt(0);
            s.getOutputStream().write(b.array());
            ByteBuffer reply = readRecord(s);
            assertThat(reply.getInt(0)).isEqualTo(3);
            assertThat(reply.getInt(8)).as("MSG_DENIED").isEqualTo(1);
            assertThat(reply.getInt(12)).as("AUTH_ERROR").isEqualTo(1);
            assertThat(reply.getInt(16)).as("AUTH_BADCRED").isEqualTo(1);
            s.getOutputStream().write(record(4, 0, new byte[0]));
            assertThat(readRecord(s).getInt(0)).isEqualTo(4);
        }
    }

    @Test
    void aShortReadOnlyCompoundRunsOnTheNetworkThreadWhileNoRequestIsWithTheWorkers() throws IOException {
        try (Socket s = connect()) {
            s.getOutputStream().write(record(21, 1, rootCompound("fast", 9)));
            ByteBuffer reply = readRecord(s);
            assertThat(reply.getInt(0)).isEqualTo(21);
            assertThat(reply.getInt(24)).as("NFS4_OK").isZero();
        }
        assertThat(ranOn).singleElement().asString().startsWith("fast ").doesNotContain("-request-");
        assertThat(server.inlineCompounds()).isEqualTo(1);
    }

    @Test
    void aCompoundThatChangesSomethingRunsOnAWorker() throws IOException {
        try (Socket s = connect()) {
            s.getOutputStream().write(record(22, 1, rootCompound("kill", 28)));
            assertThat(readRecord(s).getInt(0)).isEqualTo(22);
        }
        assertThat(ranOn).singleElement().asString().startsWith("kill ").contains("-request-");
        assertThat(server.inlineCompounds()).isZero();
    }

    @Test
    void aShortCompoundIsAnsweredAtOnceOnAWorkerWhileAnotherConnectionsLongRequestRuns() throws IOException {
        try (Socket slow = connect(); Socket fast = connect()) {
            slow.getOutputStream().write(record(30, 1, emptyCompound("slow")));
            Thread.sleep(300);
            long start = System.nanoTime();
            fast.getOutputStream().write(record(31, 1, rootCompound("fast", 9)));
            ByteBuffer reply = readRecord(fast);
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(reply.getInt(0)).isEqualTo(31);
            assertThat(reply.getInt(24)).as("NFS4_OK").isZero();
            assertThat(millis).as("ms for a short compound beside a %d ms one", SLOW_MILLIS).isLessThan(SLOW_MILLIS / 2);
            assertThat(readRecord(slow).getInt(0)).isEqualTo(30);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // a request was with the workers: the short one went to a worker too (it might otherwise wait for a lock)
        assertThat(ranOn).hasSize(2).allSatisfy(r -> assertThat(r).contains("-request-"));
        assertThat(server.inlineCompounds()).isZero();
    }

    @Test
    void aShortCompoundWithAnotherRequestRightBehindItRunsOnAWorker() throws IOException {
        try (Socket s = connect()) {
            byte[] first = record(41, 1, rootCompound("fst1", 9));
            byte[] second = record(42, 1, rootCompound("fst2", 9));
            s.getOutputStream().write(ByteBuffer.allocate(first.length + second.length).put(first).put(second).array());
            List<Integer> xids = List.of(readRecord(s).getInt(0), readRecord(s).getInt(0));
            assertThat(xids).containsExactlyInAnyOrder(41, 42);
        }
        // sent without waiting for the first reply: the two may run side by side on the workers
        assertThat(ranOn).anySatisfy(r -> assertThat(r).startsWith("fst1 ").contains("-request-"));
    }
}
