package org.tcnfs.it.hostile;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.AuthSys;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.it.ServerProcess;

/** Raw RPC on sockets, a normal client, and the server's memory, for the attacks of this package. */
final class Hostile {
    /** The JVM options of every attacked server: a small heap, and an OutOfMemoryError ends the process. */
    static final List<String> SMALL_HEAP = List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError");
    static final int NFS_PROGRAM = 100003;
    static final int AUTH_NONE = 0;
    static final int AUTH_SYS = 1;
    static final int MSG_DENIED = 1;
    static final int AUTH_ERROR = 1;
    static final int AUTH_BADCRED = 1;
    static final int LAST_FRAGMENT = 0x80000000;

    private Hostile() {
    }

    static ServerProcess start(String... args) throws IOException {
        return ServerProcess.start(SMALL_HEAP, args);
    }

    // ---- encoding

    /** An AUTH_SYS credential body: stamp, machine name, uid 0, gid 0, {@code claimedGids} then {@code presentGids} gids. */
    static byte[] authSys(String machine, int claimedGids, int presentGids) {
        byte[] name = machine.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocate(4 + 4 + pad(name.length) + 12 + 4 * presentGids);
        b.putInt(1).putInt(name.length).put(name).position(8 + pad(name.length));
        b.putInt(0).putInt(0).putInt(claimedGids);
        for (int i = 0; i < presentGids; i++) {
            b.putInt(1000 + i);
        }
        return b.array();
    }

    /** An RPC call message (no record marker) to NFSv4 {@code proc} with the given credential and arguments. */
    static byte[] call(int xid, int proc, int flavor, byte[] credential, int claimedCredentialLength, byte[] args) {
        ByteBuffer b = ByteBuffer.allocate(6 * 4 + 8 + pad(credential.length) + 8 + args.length);
        b.putInt(xid).putInt(0).putInt(2).putInt(NFS_PROGRAM).putInt(4).putInt(proc);
        b.putInt(flavor).putInt(claimedCredentialLength).put(credential)
                .position(b.position() + pad(credential.length) - credential.length);
        b.putInt(AUTH_NONE).putInt(0);
        b.put(args);
        return b.array();
    }

    /** NFSPROC4_COMPOUND with {@code args} and a root AUTH_SYS credential. */
    static byte[] compoundCall(int xid, byte[] args) {
        byte[] cred = authSys("hostile-it", 0, 0);
        return call(xid, 1, AUTH_SYS, cred, cred.length, args);
    }

    /** NFSPROC4_NULL with a well-formed AUTH_SYS credential. */
    static byte[] nullCall(int xid) {
        byte[] cred = authSys("hostile-it", 2, 2);
        return call(xid, 0, AUTH_SYS, cred, cred.length, new byte[0]);
    }

    /** A COMPOUND whose arguments cannot be decoded (a tag claiming 2^32-1 bytes). */
    static byte[] undecodableCompound(int xid) {
        return call(xid, 1, AUTH_NONE, new byte[0], 0, new byte[] {-1, -1, -1, -1, 0, 0, 0, 0});
    }

    /** {@code message} as one record: a last-fragment marker, then the bytes. */
    static byte[] record(byte[] message) {
        return ByteBuffer.allocate(4 + message.length).putInt(LAST_FRAGMENT | message.length).put(message).array();
    }

    static int pad(int n) {
        return (n + 3) & ~3;
    }

    // ---- raw connections

    /** A plain TCP connection to the server with a read timeout. */
    static Socket connect(ServerProcess server) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(server.host(), server.port()), 5000);
        s.setSoTimeout(5000);
        s.setTcpNoDelay(true);
        return s;
    }

    /** Reads one whole record (all fragments) from {@code s}. */
    static ByteBuffer readRecord(Socket s) throws IOException {
        DataInputStream in = new DataInputStream(s.getInputStream());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            int marker = in.readInt();
            byte[] fragment = new byte[marker & 0x7fffffff];
            in.readFully(fragment);
            out.write(fragment);
            if ((marker & LAST_FRAGMENT) != 0) {
                return ByteBuffer.wrap(out.toByteArray());
            }
        }
    }

    /** Whether the server closes {@code s} within {@code timeout} (reading and dropping anything it sends). */
    static boolean closedByServerWithin(Socket s, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        byte[] sink = new byte[65536];
        while (System.nanoTime() < deadline) {
            s.setSoTimeout((int) Math.max(1, Math.min(500, (deadline - System.nanoTime()) / 1_000_000)));
            try {
                if (s.getInputStream().read(sink) < 0) {
                    return true;
                }
            } catch (SocketTimeoutException e) {
                // still open
            } catch (IOException e) {
                return true; // reset
            }
        }
        return false;
    }

    /** Sends a NULL call on {@code s} and reads its reply; the xid must match and the call be accepted. */
    static void ping(Socket s, int xid) throws IOException {
        s.getOutputStream().write(record(nullCall(xid)));
        ByteBuffer reply = readRecord(s);
        if (reply.getInt(0) != xid || reply.getInt(4) != 1 || reply.getInt(8) != 0) {
            throw new IOException("unexpected reply to NULL xid " + xid);
        }
    }

    // ---- a normal client

    /**
     * A normal client, mounted before the attack: a connection with an NFSv4.1 session on it. A probe runs one
     * compound on the session (SEQUENCE, PUTROOTFH, GETFH) and pings on a new connection.
     */
    static final class NormalClient implements AutoCloseable {
        private final ServerProcess server;
        private final NfsConnection connection;
        private final Nfs41Session session;

        private NormalClient(ServerProcess server, NfsConnection connection, Nfs41Session session) {
            this.server = server;
            this.connection = connection;
            this.session = session;
        }

        static NormalClient open(ServerProcess server) throws IOException {
            NfsConnection c = server.connect(AuthSys.ROOT, Duration.ofSeconds(10));
            NormalClient client = new NormalClient(server, c, Nfs41Session.create(c, "normal-client"));
            client.probeMillis(); // warm both sides up
            return client;
        }

        /** The file handle of {@code name} in the export's root. */
        byte[] lookup(String name) throws IOException {
            return session.execute(new CompoundBuilder().putrootfh().lookup(name).getfh()).orThrow().fileHandle();
        }

        /** Milliseconds one probe took; throws if it failed. */
        long probeMillis() throws IOException {
            long start = System.nanoTime();
            session.execute(new CompoundBuilder().putrootfh().getfh()).orThrow();
            try (Socket s = connect(server)) {
                ping(s, 424242);
            }
            return (System.nanoTime() - start) / 1_000_000;
        }

        /** Probes every 100 ms for {@code during} and returns the longest probe. */
        long worstMillis(Duration during) throws IOException {
            long worst = 0;
            long end = System.nanoTime() + during.toNanos();
            List<Long> all = new ArrayList<>();
            do {
                long probe = probeMillis();
                all.add(probe);
                worst = Math.max(worst, probe);
                sleep(100);
            } while (System.nanoTime() < end);
            System.out.println("HOSTILE normal client probes (ms) during the attack: " + all);
            return worst;
        }

        /** A brand-new client (connection, session, one compound) works; returns the milliseconds it took. */
        long freshClientMillis() throws IOException {
            long start = System.nanoTime();
            try (NfsConnection c = server.connect(AuthSys.ROOT, Duration.ofSeconds(10));
                    Nfs41Session s = Nfs41Session.create(c, "fresh-client")) {
                s.execute(new CompoundBuilder().putrootfh().getfh()).orThrow();
            }
            return (System.nanoTime() - start) / 1_000_000;
        }

        @Override
        public void close() {
            closeQuietly(session);
            closeQuietly(connection);
        }
    }

    // ---- measurements

    /**
     * Heap in use (from /metrics), heap still in use after a full GC (what the server really holds) and
     * resident set size (from /proc) of the server process, in MiB.
     */
    record Memory(double heapMiB, double liveHeapMiB, double rssMiB) {
        @Override
        public String toString() {
            return String.format("heap %.0f MiB (%.0f MiB after a full GC), RSS %.0f MiB", heapMiB, liveHeapMiB,
                    rssMiB);
        }
    }

    static Memory memory(ServerProcess server) {
        double heap = heapMiB(server);
        double rss = rssMiB(server.pid());
        fullGc(server.pid());
        return new Memory(heap, heapMiB(server), rss);
    }

    /** {@code jcmd PID GC.run}: a full collection in the server, so that the heap then in use is live data. */
    private static void fullGc(long pid) {
        try {
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(pid), "GC.run").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (IOException e) {
            // no jcmd: the heap figure then includes garbage
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static double heapMiB(ServerProcess server) {
        try {
            String text = server.scrapeMetrics();
            double sum = 0;
            for (String line : text.split("\n")) {
                if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) {
                    sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
            return sum / (1 << 20);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    private static double rssMiB(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone, or not Linux
        }
        return Double.NaN;
    }

    /** One line the report collects: the attack, memory before and after, the normal client's worst latency. */
    /**
     * The longest a normal client may wait during an attack before the server counts as wedged. The bar of
     * issue 14 is a second once the attack stops; during it, on a loaded two-core machine, the first probe
     * can take longer while the JIT warms the attacked path.
     */
    static final long WEDGED_MILLIS = 5000;

    static void report(String attack, Memory before, Memory after, long worstMillisDuring, long millisAfter) {
        System.out.printf("HOSTILE %s: before %s; after %s; normal client worst %d ms during, %d ms after%n",
                attack, before, after, worstMillisDuring, millisAfter);
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // already gone
        }
    }

    /** Reads whole records until {@code EOF} or the count is reached; returns how many arrived. */
    static int drainRecords(Socket s, int count) throws IOException {
        int n = 0;
        try {
            while (n < count) {
                readRecord(s);
                n++;
            }
        } catch (EOFException | SocketTimeoutException e) {
            // fewer
        }
        return n;
    }
}
