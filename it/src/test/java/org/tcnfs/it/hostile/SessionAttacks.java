package org.tcnfs.it.hostile;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.it.ServerProcess;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4args;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4args;
import org.tcnfs.nfs4.xdr.callback_sec_parms4;
import org.tcnfs.nfs4.xdr.channel_attrs4;
import org.tcnfs.nfs4.xdr.client_owner4;
import org.tcnfs.nfs4.xdr.verifier4;

/**
 * What the session and client attacks of issue 14 send, as raw compounds (EXCHANGE_ID and CREATE_SESSION
 * with the channel attributes an attacker picks), and how the tests look at the server process: its heap
 * after a full GC and its resident set, read with {@code jcmd} and {@code /proc}, and its gauges.
 */
final class SessionAttacks {
    static final int MIB = 1024 * 1024;
    /** The JVM options issue 14 asks the attacked server to run with. */
    static final List<String> SMALL_HEAP = List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError");

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern HEAP_USED = Pattern.compile("total \\d+K, used (\\d+)K");
    private static final Pattern VM_RSS = Pattern.compile("VmRSS:\\s+(\\d+) kB");

    private SessionAttacks() {
    }

    /** A client record (EXCHANGE_ID) of a fresh random owner. */
    static CompoundResult exchangeId(NfsConnection c, String prefix) throws IOException {
        byte[] suffix = new byte[8];
        RANDOM.nextBytes(suffix);
        byte[] verifier = new byte[8];
        RANDOM.nextBytes(verifier);
        return exchangeId(c, (prefix + "-" + java.util.HexFormat.of().formatHex(suffix))
                .getBytes(StandardCharsets.US_ASCII), verifier);
    }

    /** EXCHANGE_ID of owner {@code owner} with {@code verifier}. */
    static CompoundResult exchangeId(NfsConnection c, byte[] owner, byte[] verifier) throws IOException {
        EXCHANGE_ID4args ex = new EXCHANGE_ID4args();
        ex.eia_clientowner = new client_owner4(new verifier4(verifier.clone()), owner.clone());
        ex.eia_flags = 0;
        CompoundBuilder b = new CompoundBuilder().tag("attack-exchange-id").exchangeId(ex);
        return new CompoundResult(b.build(), c.compound(b.build()));
    }

    /** CREATE_SESSION asking {@code slots} slots and cached replies of {@code cachedBytes}. */
    static CompoundResult createSession(NfsConnection c, long clientId, int sequence, int slots, int cachedBytes)
            throws IOException {
        CREATE_SESSION4args cs = new CREATE_SESSION4args();
        cs.csa_clientid = clientId;
        cs.csa_sequence = sequence;
        cs.csa_flags = 0;
        cs.csa_fore_chan_attrs = channel(MIB, 16 * MIB + 64 * 1024, cachedBytes, 64, slots);
        cs.csa_back_chan_attrs = channel(16 * 1024, 16 * 1024, 16 * 1024, 8, 1);
        cs.csa_cb_program = 0x40000000;
        callback_sec_parms4 none = new callback_sec_parms4();
        none.cb_secflavor = callback_sec_parms4.AUTH_NONE;
        cs.csa_sec_parms = new callback_sec_parms4[] {none};
        CompoundBuilder b = new CompoundBuilder().tag("attack-create-session").createSession(cs);
        return new CompoundResult(b.build(), c.compound(b.build()));
    }

    private static channel_attrs4 channel(int request, int response, int cached, int ops, int slots) {
        channel_attrs4 a = new channel_attrs4();
        a.ca_headerpadsize = 0;
        a.ca_maxrequestsize = request;
        a.ca_maxresponsesize = response;
        a.ca_maxresponsesize_cached = cached;
        a.ca_maxoperations = ops;
        a.ca_maxrequests = slots;
        a.ca_rdma_ird = new int[0];
        return a;
    }

    /** A file of {@code size} random bytes in the export root, written behind the server's back. */
    static byte[] exportFile(ServerProcess server, String name, int size) throws IOException {
        byte[] data = new byte[size];
        RANDOM.nextBytes(data);
        Files.write(server.exportDir().resolve(name), data);
        return data;
    }

    /** The server's heap in use after a full GC, in bytes ({@code jcmd GC.run}, then {@code GC.heap_info}). */
    static long heapAfterGc(ServerProcess server) throws IOException {
        jcmd(server, "GC.run");
        String info = jcmd(server, "GC.heap_info");
        Matcher m = HEAP_USED.matcher(info);
        if (!m.find()) {
            throw new IOException("no heap size in jcmd output: " + info);
        }
        return Long.parseLong(m.group(1)) * 1024;
    }

    /** The server's resident set size in bytes. */
    static long rss(ServerProcess server) throws IOException {
        String status = Files.readString(Path.of("/proc", Long.toString(server.pid()), "status"));
        Matcher m = VM_RSS.matcher(status);
        return m.find() ? Long.parseLong(m.group(1)) * 1024 : -1;
    }

    private static String jcmd(ServerProcess server, String command) throws IOException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(server.pid()), command)
                .redirectErrorStream(true).start();
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("jcmd " + command + " did not finish");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    /** The value of gauge {@code name} on the server's /metrics, or -1 if it has none. */
    static double gauge(ServerProcess server, String name) throws IOException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.metricsPort() + "/metrics"))
                .timeout(Duration.ofSeconds(10)).build();
        String body;
        try {
            body = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        for (String line : body.split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return -1;
    }

    /** Waits up to 10 s for the server to exit (after a connection dropped mid-attack). */
    static void awaitExit(ServerProcess server) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (server.isAlive() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The remaining bytes of {@code b}. */
    static byte[] bytes(java.nio.ByteBuffer b) {
        java.nio.ByteBuffer d = b.duplicate();
        byte[] out = new byte[d.remaining()];
        d.get(out);
        return out;
    }

    /** Megabytes, for the report lines. */
    static String mib(long bytes) {
        return String.format("%.1f MiB", bytes / (double) MIB);
    }

    /** Closes the connections, ignoring failures (the server may have dropped them). */
    static void closeAll(List<NfsConnection> connections) {
        for (NfsConnection c : new ArrayList<>(connections)) {
            try {
                c.close();
            } catch (IOException e) {
                // already gone
            }
        }
    }
}
