package org.tcnfs.client.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.rpc.RpcAcceptStatus;
import org.tcnfs.client.rpc.RpcReplyException;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.rpc.NfsServer;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.nfs_opnum4;

/**
 * A plain compound answered with the RPC status GARBAGE_ARGS for its size (as NFS-Ganesha 4.3 answers more than
 * 1,024 operations) is resent in halves, on sequence ids the refused one left unused; a small one, and a
 * transaction, fail. A proxy in front of the protocol server answers COMPOUNDs of too many operations itself.
 */
class GarbageArgsSplitTest {
    private NfsServer server;
    private GarbageArgsProxy proxy;
    private final InMemoryFileSystem fs = new InMemoryFileSystem();

    /** A client that reaches the server through a proxy refusing compounds of more than {@code maxOps}. */
    private VnfsClient connect(int maxOps) throws IOException {
        NfsLimits d = NfsLimits.DEFAULTS;
        NfsLimits noGrace = new NfsLimits(d.maxOperations(), d.maxRequestBytes(), d.maxResponseBytes(), d.maxRead(),
                d.maxWrite(), d.maxSessionSlots(), d.lease(), Duration.ZERO);
        server = NfsServer.builder().fileSystems((credential, client) -> fs).limits(noGrace).bind("127.0.0.1", 0)
                .build();
        server.start();
        proxy = new GarbageArgsProxy(new InetSocketAddress("127.0.0.1", server.port()), maxOps);
        return VnfsClient.builder().host("127.0.0.1").port(proxy.port()).timeout(Duration.ofSeconds(20)).connect();
    }

    @AfterEach
    void stop() throws IOException {
        if (proxy != null) {
            proxy.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aLargePlainCompoundAnsweredGarbageArgsIsResentInHalvesOnUnusedSequenceIds() throws IOException {
        try (VnfsClient nfs = connect(200)) {
            List<VWrite> writes = newFiles("/f", 100, i -> "file " + i);
            int before = proxy.compounds();

            VResult<Void> r = nfs.vwrite(writes, Mode.PLAIN);

            assertThat(r.firstFailure()).as("first failed item, %s", r.firstFailure() < 0 ? "none"
                    : r.items().get(r.firstFailure())).isEqualTo(-1);
            assertThat(proxy.refused()).as("compounds answered GARBAGE_ARGS").isGreaterThanOrEqualTo(1);
            assertThat(r.compounds()).as("compounds sent, refused ones included")
                    .isEqualTo(proxy.compounds() - before);
            assertThat(proxy.largestForwarded()).isBetween(GarbageArgsProxy.MIN_SPLIT + 1, 200);
            for (int round = 0; round < 3; round++) { // every slot again, at its next sequence id
                List<String> paths = List.of("/f0", "/f" + (33 * round + 1), "/f99");
                VResult<byte[]> read = nfs.vread(paths.stream().map(VRead::whole).toList(), Mode.PLAIN);
                for (int k = 0; k < paths.size(); k++) {
                    assertThat(new String(read.value(k), StandardCharsets.UTF_8))
                            .isEqualTo("file " + paths.get(k).substring(2));
                }
                for (int k = 0; k < 8; k++) {
                    assertThat(nfs.vgetattrs(List.of("/f" + k), Mode.PLAIN).isOk()).isTrue();
                }
            }
            proxy.assertRefusedCompoundsUsedNoSequenceId();
        }
    }

    @Test
    void garbageArgsForACompoundOfAtMost64OperationsIsAnError() throws IOException {
        try (VnfsClient nfs = connect(10)) {
            List<VWrite> writes = newFiles("/small", 10, i -> "x");

            assertThatThrownBy(() -> nfs.vwrite(writes, Mode.PLAIN)).isInstanceOf(RpcReplyException.class)
                    .satisfies(e -> assertThat(((RpcReplyException) e).acceptStatus())
                            .contains(RpcAcceptStatus.GARBAGE_ARGS));
            assertThat(proxy.refused()).as("sent once, not split").isEqualTo(1);
            assertThat(proxy.largestRefused()).isLessThanOrEqualTo(GarbageArgsProxy.MIN_SPLIT);
        }
    }

    @Test
    void aTransactionAnsweredGarbageArgsIsNeverSplit() throws IOException {
        try (VnfsClient nfs = connect(200)) {
            List<VWrite> writes = newFiles("/t", 100, i -> "t");

            assertThatThrownBy(() -> nfs.vwrite(writes, Mode.TRANSACTION)).isInstanceOf(RpcReplyException.class)
                    .hasMessageContaining("GARBAGE_ARGS");
            assertThat(proxy.refused()).as("sent once, not split").isEqualTo(1);
            assertThat(nfs.vgetattrs(List.of("/t0"), Mode.PLAIN).isOk()).as("nothing written").isFalse();
        }
    }

    /** Writes creating {@code prefix + i} for i in [0, count), each holding {@code content.apply(i)}. */
    private static List<VWrite> newFiles(String prefix, int count, IntFunction<String> content) {
        List<VWrite> writes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            writes.add(VWrite.create(prefix + i, bytes(content.apply(i))));
        }
        return writes;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A TCP proxy for ONC RPC records that answers an NFS COMPOUND (plain or transactional) of more than
     * {@code maxOps} operations with an accepted reply of status GARBAGE_ARGS, without forwarding it, and passes
     * everything else through. It notes each COMPOUND's operation count and SEQUENCE slot and sequence id.
     */
    static final class GarbageArgsProxy implements AutoCloseable {
        static final int MIN_SPLIT = VnfsClient.GARBAGE_SPLIT_MIN_OPS;
        private static final int NFS_PROGRAM = 100003;

        /** A COMPOUND seen: operations (SEQUENCE included), its SEQUENCE's slot and id, whether refused. */
        record Call(int ops, int slot, int sequenceId, boolean refused) {
        }

        private final InetSocketAddress upstream;
        private final int maxOps;
        private final ServerSocket listener;
        private final List<Call> calls = new CopyOnWriteArrayList<>();
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();

        GarbageArgsProxy(InetSocketAddress upstream, int maxOps) throws IOException {
            this.upstream = upstream;
            this.maxOps = maxOps;
            this.listener = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
            daemon(this::accept, "garbage-args-proxy");
        }

        int port() {
            return listener.getLocalPort();
        }

        int refused() {
            return (int) calls.stream().filter(Call::refused).count();
        }

        /** COMPOUNDs seen so far, refused ones included. */
        int compounds() {
            return calls.size();
        }

        int largestForwarded() {
            return calls.stream().filter(c -> !c.refused()).mapToInt(Call::ops).max().orElse(0);
        }

        int largestRefused() {
            return calls.stream().filter(Call::refused).mapToInt(Call::ops).max().orElse(0);
        }

        /**
         * On each slot, a forwarded compound carries the sequence id after the previous forwarded one, and a
         * refused one the id the next compound on that slot carries again: the server never saw it.
         */
        void assertRefusedCompoundsUsedNoSequenceId() {
            Map<Integer, Integer> next = new HashMap<>();
            for (Call c : calls) {
                if (c.slot() < 0) {
                    continue;
                }
                int expected = next.getOrDefault(c.slot(), 1);
                assertThat(c.sequenceId()).as("%s after %s", c, calls).isEqualTo(expected);
                if (!c.refused()) {
                    next.put(c.slot(), expected + 1);
                }
            }
        }

        private void accept() {
            try {
                while (true) {
                    Socket client = listener.accept();
                    Socket server = new Socket(upstream.getAddress(), upstream.getPort());
                    sockets.add(client);
                    sockets.add(server);
                    InputStream fromClient = client.getInputStream();
                    InputStream fromServer = server.getInputStream();
                    DataOutputStream toClient = new DataOutputStream(client.getOutputStream());
                    DataOutputStream toServer = new DataOutputStream(server.getOutputStream());
                    daemon(() -> pump(fromClient, toServer, toClient), "proxy-calls");
                    daemon(() -> pump(fromServer, toClient, null), "proxy-replies");
                }
            } catch (IOException closed) {
                // the proxy was closed
            }
        }

        /** Copies records from {@code in} to {@code out}; calls ({@code caller} set) may be answered instead. */
        private void pump(InputStream in, DataOutputStream out, DataOutputStream caller) {
            DataInputStream data = new DataInputStream(in);
            try {
                for (byte[] record = readRecord(data); record != null; record = readRecord(data)) {
                    if (caller != null && refuse(record)) {
                        ByteBuffer reply = ByteBuffer.allocate(24).putInt(ByteBuffer.wrap(record).getInt(0))
                                .putInt(1).putInt(0).putInt(0).putInt(0).putInt(RpcAcceptStatus.GARBAGE_ARGS.code());
                        writeRecord(caller, reply.array());
                    } else {
                        writeRecord(out, record);
                    }
                }
            } catch (IOException closed) {
                // a side closed the connection
            }
        }

        /** Notes a COMPOUND call and tells whether to answer it GARBAGE_ARGS. */
        private boolean refuse(byte[] record) {
            ByteBuffer b = ByteBuffer.wrap(record);
            if (b.getInt(4) != 0 || b.getInt(12) != NFS_PROGRAM || (b.getInt(20) & 0x7fffffff) != 1) {
                return false;
            }
            int pos = 28;
            pos += 4 + padded(b.getInt(pos)); // credential body
            pos += 8 + padded(b.getInt(pos + 4)); // verifier
            pos += 4 + padded(b.getInt(pos)); // tag
            pos += 4; // minorversion
            int ops = b.getInt(pos);
            pos += 4;
            boolean sequence = ops > 0 && b.getInt(pos) == nfs_opnum4.OP_SEQUENCE;
            // SEQUENCE4args: sessionid (16 bytes), sequenceid, slotid, ...
            Call call = new Call(ops, sequence ? b.getInt(pos + 24) : -1, sequence ? b.getInt(pos + 20) : -1,
                    ops > maxOps);
            calls.add(call);
            return call.refused();
        }

        private static int padded(int length) {
            return (length + 3) & ~3;
        }

        /** One record (all its fragments), or null at the end of the stream. */
        private static byte[] readRecord(DataInputStream in) throws IOException {
            ByteArrayOutputStream record = new ByteArrayOutputStream();
            boolean last = false;
            while (!last) {
                int mark;
                try {
                    mark = in.readInt();
                } catch (EOFException end) {
                    return null;
                }
                last = mark < 0;
                byte[] fragment = new byte[mark & 0x7fffffff];
                in.readFully(fragment);
                record.write(fragment);
            }
            return record.toByteArray();
        }

        private static void writeRecord(DataOutputStream out, byte[] record) throws IOException {
            synchronized (out) {
                out.writeInt(0x80000000 | record.length);
                out.write(record);
                out.flush();
            }
        }

        private static void daemon(Runnable body, String name) {
            Thread t = new Thread(body, name);
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void close() throws IOException {
            listener.close();
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
