package org.tcnfs.jmh.workload;

import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_CHANGE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_FILEHANDLE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_FILEID;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_MODE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_NUMLINKS;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_OWNER;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_OWNER_GROUP;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_SIZE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_SPACE_USED;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_TIME_ACCESS;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_TIME_METADATA;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_TIME_MODIFY;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_TYPE;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.nfs4.xdr.ACCESS4args;
import org.tcnfs.nfs4.xdr.READDIR4resok;
import org.tcnfs.nfs4.xdr.entry4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The read side of issue 16 one operation at a time, as a kernel client sends it: one client, one compound after the
 * other, each shape (LOOKUP, GETATTR, ACCESS, READDIR, READ) for a fixed time over the entries of an existing
 * directory tree of the export. Prints compounds per second and, given the server's pid, the server's CPU time per
 * compound (user + system from {@code /proc/PID/stat}), which depends far less on other load on the machine than the
 * rate does.
 */
@Command(name = "readloop", mixinStandardHelpOptions = true,
        description = "One-operation read compounds against an NFSv4.1 server; rate and server CPU per compound.")
public final class ReadLoop implements Callable<Integer> {
    private static final int[] LS_ATTRS = {FATTR4_TYPE, FATTR4_CHANGE, FATTR4_SIZE, FATTR4_FILEID, FATTR4_MODE,
        FATTR4_NUMLINKS, FATTR4_OWNER, FATTR4_OWNER_GROUP, FATTR4_SPACE_USED, FATTR4_TIME_ACCESS,
        FATTR4_TIME_METADATA, FATTR4_TIME_MODIFY};

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "server host (default: ${DEFAULT-VALUE})")
    String host;

    @Option(names = "--port", required = true, description = "server port")
    int port;

    @Option(names = "--dir", required = true, description = "directory of the export to walk (e.g. tree)")
    String dir;

    @Option(names = "--seconds", defaultValue = "5", description = "seconds per shape (default: ${DEFAULT-VALUE})")
    double seconds;

    @Option(names = "--shapes", split = ",", defaultValue = "lookup,getattr,access,readdir,read",
            description = "any of lookup,getattr,access,readdir,read (default: ${DEFAULT-VALUE})")
    List<String> shapes;

    @Option(names = "--pid", description = "server pid, for its CPU time per compound")
    Long pid;

    @Option(names = "--metrics-port", description = "server metrics port, for the bytes it allocates per compound")
    Integer metricsPort;

    @Option(names = "--rounds", defaultValue = "1", description = "times to run all shapes (default: ${DEFAULT-VALUE})")
    int rounds;

    /** A directory and one of its entries, with their handles. */
    private record Entry(byte[] parent, String name, byte[] handle, int type) {
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new ReadLoop()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        try (NfsConnection connection = NfsConnection.connect(host, port);
                Nfs41Session session = Nfs41Session.create(connection, "readloop")) {
            CompoundResult root = session.execute(new CompoundBuilder().putrootfh().lookupPath(dir).getfh()).orThrow();
            List<Entry> entries = new ArrayList<>();
            List<byte[]> dirs = new ArrayList<>();
            walk(session, root.fileHandle(), dirs, entries);
            List<Entry> files = entries.stream().filter(e -> e.type() == 1).toList();
            System.out.printf(Locale.ROOT, "%d directories, %d entries, %d regular files%n", dirs.size(),
                    entries.size(), files.size());
            for (int round = 1; round <= rounds; round++) {
                for (String shape : shapes) {
                    run(session, shape, round, dirs, entries, files);
                }
            }
        }
        return 0;
    }

    private static void walk(Nfs41Session session, byte[] dirHandle, List<byte[]> dirs, List<Entry> out)
            throws IOException {
        dirs.add(dirHandle);
        long cookie = 0;
        byte[] verifier = new byte[8];
        while (true) {
            CompoundResult r = session.execute(new CompoundBuilder().putfh(dirHandle)
                    .readdir(cookie, verifier, 65536, 65536, FATTR4_TYPE, FATTR4_FILEHANDLE)).orThrow();
            READDIR4resok page = r.body(nfs_opnum4.OP_READDIR, READDIR4resok.class);
            List<Entry> here = new ArrayList<>();
            for (entry4 e : page.reply.entries) {
                Attrs a = Attrs.decode(e.attrs);
                here.add(new Entry(dirHandle, e.nameAsString(), (byte[]) a.get(FATTR4_FILEHANDLE), a.type()));
                cookie = e.cookie;
            }
            out.addAll(here);
            for (Entry e : here) {
                if (e.type() == 2) {
                    walk(session, e.handle(), dirs, out);
                }
            }
            if (page.reply.eof || page.reply.entries.length == 0) {
                return;
            }
            verifier = page.cookieverf.value;
        }
    }

    private void run(Nfs41Session session, String shape, int round, List<byte[]> dirs, List<Entry> entries,
            List<Entry> files) throws IOException {
        long cpu0 = cpuTicks();
        double alloc0 = allocated();
        long t0 = System.nanoTime();
        long end = t0 + (long) (seconds * 1e9);
        long n = 0;
        int i = 0;
        while (System.nanoTime() < end) {
            for (int k = 0; k < 50; k++, n++, i++) {
                CompoundBuilder b = new CompoundBuilder();
                switch (shape) {
                    case "lookup" -> {
                        Entry e = entries.get(i % entries.size());
                        b.putfh(e.parent()).lookup(e.name()).getfh().getattr(LS_ATTRS);
                    }
                    case "getattr" -> b.putfh(entries.get(i % entries.size()).handle()).getattr(LS_ATTRS);
                    case "access" -> b.putfh(entries.get(i % entries.size()).handle())
                            .access(ACCESS4args.ACCESS4_READ | ACCESS4args.ACCESS4_LOOKUP);
                    case "readdir" -> b.putfh(dirs.get(i % dirs.size())).readdir(32768, LS_ATTRS);
                    case "read" -> b.putfh(files.get(i % files.size()).handle())
                            .read(CompoundBuilder.anonymousStateid(), 0, 4096);
                    default -> throw new IllegalArgumentException("unknown shape " + shape);
                }
                session.execute(b).orThrow();
            }
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        long cpu = cpuTicks() - cpu0;
        String perOp = pid == null ? "" : String.format(Locale.ROOT, "  server cpu %.1f us/compound", cpu * 1e4 / n);
        if (metricsPort != null) {
            perOp += String.format(Locale.ROOT, "  alloc %.1f KB/compound", (allocated() - alloc0) / n / 1000);
        }
        System.out.printf(Locale.ROOT, "round %d %-8s %8d compounds %9.0f /s%s  load %s%n", round, shape, n,
                n / secs, perOp, load());
    }

    /** The server's user + system time in clock ticks (1/100 s), or 0 without a pid. */
    private long cpuTicks() throws IOException {
        if (pid == null) {
            return 0;
        }
        String stat = Files.readString(Path.of("/proc", pid.toString(), "stat"), StandardCharsets.US_ASCII);
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /**
     * The server's {@code jvm_gc_memory_allocated_bytes_total} (counted at each young collection, so exact only
     * over many of them), or 0 without a metrics port.
     */
    private double allocated() throws IOException {
        if (metricsPort == null) {
            return 0;
        }
        java.net.URL url = new java.net.URL("http://" + host + ":" + metricsPort + "/metrics");
        try (java.io.InputStream in = url.openStream()) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("jvm_gc_memory_allocated_bytes_total")) {
                    return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
        }
        return 0;
    }

    private static String load() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    }
}
