package org.tcnfs.it.hostile;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.XdrBytes;
import org.tcnfs.it.ServerProcess;

/** The network attacks of issue 14, each started against a server and stopped by closing it. */
final class Attacks {
    private Attacks() {
    }

    /** Connections that each claim a record of {@code claim} bytes and send most of it, as fast as the server reads. */
    static final class SlowRecords implements AutoCloseable {
        final List<SocketChannel> channels = new ArrayList<>();
        long pushed;

        static SlowRecords push(ServerProcess server, int connections, int claim, long bytesEach, Duration within)
                throws IOException {
            SlowRecords a = new SlowRecords();
            long[] left = new long[connections];
            ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
            for (int i = 0; i < connections; i++) {
                SocketChannel c = SocketChannel.open(new InetSocketAddress(server.host(), server.port()));
                c.write(ByteBuffer.allocate(4).putInt(0, Hostile.LAST_FRAGMENT | claim));
                c.configureBlocking(false);
                a.channels.add(c);
                left[i] = bytesEach;
            }
            long deadline = System.nanoTime() + within.toNanos();
            boolean more = true;
            while (more && System.nanoTime() < deadline) {
                more = false;
                boolean progress = false;
                for (int i = 0; i < connections; i++) {
                    if (left[i] == 0) {
                        continue;
                    }
                    more = true;
                    ByteBuffer b = zeros.duplicate().limit((int) Math.min(zeros.capacity(), left[i]));
                    int n;
                    try {
                        n = a.channels.get(i).write(b);
                    } catch (IOException e) {
                        left[i] = 0; // closed by the server
                        continue;
                    }
                    left[i] -= n;
                    a.pushed += n;
                    progress |= n > 0;
                }
                if (!progress) {
                    Hostile.sleep(5);
                }
            }
            return a;
        }

        @Override
        public void close() {
            channels.forEach(Hostile::closeQuietly);
        }
    }

    /** A connection whose record marker claims {@code claim} bytes, followed by a few of them. */
    static Socket hugeMarker(ServerProcess server, int claim) throws IOException {
        Socket s = Hostile.connect(server);
        s.getOutputStream().write(ByteBuffer.allocate(4 + 1000).putInt(claim).array());
        return s;
    }

    /** A connection that sends a tenth of a 1000-byte record, then nothing. */
    static Socket idlePartialRecord(ServerProcess server) throws IOException {
        Socket s = Hostile.connect(server);
        s.getOutputStream().write(ByteBuffer.allocate(4 + 100).putInt(Hostile.LAST_FRAGMENT | 1000).array());
        return s;
    }

    /** Undecodable COMPOUNDs pipelined on several connections, with their replies read. */
    static RepliedFlood undecodableFlood(ServerProcess server, int connections, int perConnection)
            throws IOException {
        return RepliedFlood.start(server, Hostile.record(Hostile.undecodableCompound(7)), connections,
                perConnection);
    }

    /** AUTH_SYS calls claiming 2^28 gids, pipelined on several connections, with their replies read. */
    static RepliedFlood gidBombs(ServerProcess server, int connections, int perConnection) throws IOException {
        byte[] cred = Hostile.authSys("x", 1 << 28, 0);
        return RepliedFlood.start(server,
                Hostile.record(Hostile.call(9, 0, Hostile.AUTH_SYS, cred, cred.length, new byte[0])), connections,
                perConnection);
    }

    /** One record sent {@code perConnection} times, pipelined on several connections, with its replies read. */
    static final class RepliedFlood implements AutoCloseable {
        final List<Socket> sockets = new ArrayList<>();
        final List<Thread> threads = new ArrayList<>();
        final AtomicInteger answered = new AtomicInteger();

        static RepliedFlood start(ServerProcess server, byte[] one, int connections, int perConnection)
                throws IOException {
            RepliedFlood f = new RepliedFlood();
            ByteBuffer batch = ByteBuffer.allocate(one.length * perConnection);
            for (int i = 0; i < perConnection; i++) {
                batch.put(one);
            }
            for (int i = 0; i < connections; i++) {
                Socket s = Hostile.connect(server);
                f.sockets.add(s);
                Thread reader = new Thread(() -> {
                    try {
                        f.answered.addAndGet(Hostile.drainRecords(s, perConnection));
                    } catch (IOException e) {
                        // closed
                    }
                });
                Thread writer = new Thread(() -> {
                    try {
                        s.getOutputStream().write(batch.array());
                    } catch (IOException e) {
                        // closed
                    }
                });
                reader.start();
                writer.start();
                f.threads.add(reader);
                f.threads.add(writer);
            }
            return f;
        }

        void await(Duration timeout) throws InterruptedException {
            long end = System.nanoTime() + timeout.toNanos();
            for (Thread t : threads) {
                t.join(Math.max(1, (end - System.nanoTime()) / 1_000_000));
            }
        }

        @Override
        public void close() {
            sockets.forEach(Hostile::closeQuietly);
        }
    }

    /** Connections that pipeline {@code requests} READs of 1 MiB of {@code fh} each and never read a reply. */
    static final class UnreadReplies implements AutoCloseable {
        final List<Socket> sockets = new ArrayList<>();

        static UnreadReplies start(ServerProcess server, byte[] fh, int connections, int requests)
                throws IOException {
            byte[] args = XdrBytes.encode(new CompoundBuilder().minorVersion(0).putfh(fh)
                    .read(CompoundBuilder.anonymousStateid(), 0, 1 << 20).build());
            byte[] one = Hostile.record(Hostile.compoundCall(5, args));
            ByteBuffer batch = ByteBuffer.allocate(one.length * requests);
            for (int i = 0; i < requests; i++) {
                batch.put(one);
            }
            UnreadReplies u = new UnreadReplies();
            for (int i = 0; i < connections; i++) {
                Socket s = Hostile.connect(server);
                s.setReceiveBufferSize(64 * 1024);
                u.sockets.add(s);
                Thread writer = new Thread(() -> {
                    try {
                        s.getOutputStream().write(batch.array());
                    } catch (IOException e) {
                        // the server stopped reading and the socket was closed at the end
                    }
                });
                writer.setDaemon(true);
                writer.start();
            }
            return u;
        }

        @Override
        public void close() {
            sockets.forEach(Hostile::closeQuietly);
        }
    }
}
