import org.tcnfs.client.vector.*;
import java.util.*;
import java.net.*;
import java.net.http.*;
import java.nio.file.*;

/** args: port metricsPort pid mode(plain|txn) rounds. Per round: build tree (plain), then ls -lR and rm -rf in mode. */
/**
 * ls -lR and rm -rf of a generated tree (200 directories, 2,000 files of 1-9 KiB, 100 symbolic links, 64 paths per
 * call, the shape of the driver's macro workload) through the vectorized client, with the server's CPU time per entry
 * (utime+stime of its process, and stime alone) and its flush and commit counters per phase (issue 16). Each phase is
 * preceded by a GETATTR of a missing name MARK_LS_r, MARK_RM_r, MARK_END_r, so that an strace of the server can be
 * cut into phases. Run by scripts/bench-tree-phases.sh; args: port metricsPort serverPid plain|txn rounds.
 * JFR_DIR=DIR (with JFR_SETTINGS, default profile) records each phase of the last round with JFR (jcmd JFR.start
 * before the phase, JFR.stop after it, untimed) into DIR/ls.jfr and DIR/rm.jfr.
 */
public class TreePhases {
    static Map<String, Double> metrics(int mport) throws Exception {
        HttpClient c = HttpClient.newHttpClient();
        String body = c.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mport + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Map<String, Double> m = new TreeMap<>();
        for (String l : body.split("\n")) {
            if (l.startsWith("#") || l.isBlank()) continue;
            int sp = l.lastIndexOf(' ');
            try { m.put(l.substring(0, sp), Double.parseDouble(l.substring(sp + 1))); } catch (NumberFormatException e) { }
        }
        return m;
    }
    static long sysMs;
    static long cpu(long pid) throws Exception {
        String[] f = Files.readString(Path.of("/proc/" + pid + "/stat")).split("\\) ")[1].split(" ");
        sysMs = Long.parseLong(f[12]) * 10;
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10; // ms
    }
    static void report(String phase, long n, long nanos, Map<String, Double> a, Map<String, Double> b, long cpuMs, long sMs) {
        StringBuilder s = new StringBuilder();
        s.append(String.format("%-8s n=%d %.0f/s cpu=%.1fus/entry sys=%.1fus/entry", phase, n, n * 1e9 / nanos, cpuMs * 1000.0 / n, sMs * 1000.0 / n));
        for (String k : b.keySet()) {
            if (k.startsWith("tcnfs_fsyncs_total") || k.startsWith("tcnfs_lmdb_durable_commits_total") || k.startsWith("tcnfs_handle_table_commits_total")
                    || k.startsWith("tcnfs_txn_commits_total") || k.startsWith("tcnfs_handle_resolutions_total") || k.startsWith("tcnfs_symlink_checks_total") || k.startsWith("tcnfs_ops_total") || k.startsWith("tcnfs_compounds_total") || k.startsWith("tcnfs_fsync_pool_handoffs") || k.startsWith("tcnfs_handle_table_reads_total") || k.startsWith("tcnfs_handle_table_cached_reads_total") || k.startsWith("tcnfs_handle_table_snapshots_total")) {
                double d = b.get(k) - a.getOrDefault(k, 0.0);
                if (d != 0) s.append(' ').append(k.replace("tcnfs_", "")).append('=').append((long) d);
            } else if (k.startsWith("tcnfs_op_seconds_sum") || k.startsWith("tcnfs_compound_seconds_sum")) {
                // time inside each operation and each compound, in microseconds per entry
                double d = b.get(k) - a.getOrDefault(k, 0.0);
                if (d != 0) s.append(' ').append(k.replace("tcnfs_", "").replace("_seconds_sum", "_us")).append('=')
                        .append(String.format("%.1f", d * 1e6 / n));
            }
        }
        System.out.println(s);
    }
    static void jfr(long pid, String dir, String what, String file) throws Exception {
        if (dir == null) return;
        List<String> cmd = new ArrayList<>(List.of("jcmd", Long.toString(pid), "JFR." + what, "name=phase"));
        if (what.equals("start")) cmd.add("settings=" + System.getenv().getOrDefault("JFR_SETTINGS", "profile"));
        else cmd.add("filename=" + dir + "/" + file);
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start();
        if (p.waitFor() != 0) throw new IllegalStateException("jcmd " + cmd + " failed");
    }
    public static void main(String[] args) throws Exception {
        String jfrDir = System.getenv("JFR_DIR");
        int port = Integer.parseInt(args[0]); int mport = Integer.parseInt(args[1]); long pid = Long.parseLong(args[2]);
        Mode mode = args[3].equals("txn") ? Mode.TRANSACTION : Mode.PLAIN;
        int rounds = Integer.parseInt(args[4]);
        int dirs = 200, files = 2000, links = 100;
        try (VnfsClient nfs = VnfsClient.builder().host("127.0.0.1").port(port).export("/").connect()) {
            for (int r = 0; r < rounds; r++) {
                String root = "t" + r + "-" + System.nanoTime();
                Random rnd = new Random(r);
                List<String> ds = new ArrayList<>(); ds.add(root);
                for (int i = 0; i < dirs; i++) ds.add(ds.get(rnd.nextInt(ds.size())) + "/d" + i);
                nfs.vmkdir(ds, Mode.PLAIN, Parents.CREATE);
                List<String> leaves = new ArrayList<>();
                List<VWrite> batch = new ArrayList<>();
                for (int i = 0; i < files; i++) {
                    String p = ds.get(1 + rnd.nextInt(dirs)) + "/f" + i; leaves.add(p);
                    batch.add(VWrite.create(p, new byte[1024 + rnd.nextInt(8192)]));
                    if (batch.size() == 64) { check(nfs.vwrite(batch, Mode.PLAIN)); batch.clear(); }
                }
                if (!batch.isEmpty()) check(nfs.vwrite(batch, Mode.PLAIN));
                List<VSymlink> sl = new ArrayList<>();
                for (int i = 0; i < links; i++) { String p = ds.get(1 + rnd.nextInt(dirs)) + "/l" + i; leaves.add(p); sl.add(new VSymlink(p, "../x" + i)); }
                check(nfs.vsymlink(sl, Mode.PLAIN));
                // ls -lR
                nfs.vgetattrs(List.of("MARK_LS_" + r), Mode.PLAIN);
                String jfrNow = r == rounds - 1 ? jfrDir : null;
                jfr(pid, jfrNow, "start", null);
                Map<String, Double> m0 = metrics(mport); long c0 = cpu(pid); long s0 = sysMs; long t0 = System.nanoTime();
                boolean doLs = !"rm".equals(System.getenv("ONLY"));
                var list = nfs.vlistdir(List.of(root), Recursion.RECURSIVE, mode);
                check(list);
                List<String> paths = list.value(0).stream().map(e -> e.path()).toList();
                for (int i = 0; doLs && i < paths.size(); i += 64) check(nfs.vgetattrs(paths.subList(i, Math.min(paths.size(), i + 64)), mode));
                long t1 = System.nanoTime(); long c1 = cpu(pid); long s1 = sysMs; Map<String, Double> m1 = metrics(mport);
                jfr(pid, jfrNow, "stop", "ls.jfr");
                report("ls-lR", 2L * paths.size(), t1 - t0, m0, m1, c1 - c0, s1 - s0);
                // rm -rf
                nfs.vgetattrs(List.of("MARK_RM_" + r), Mode.PLAIN);
                jfr(pid, jfrNow, "start", null);
                if (jfrNow != null) { m1 = metrics(mport); c1 = cpu(pid); s1 = sysMs; t1 = System.nanoTime(); }
                List<String> order = new ArrayList<>(ds);
                order.sort((a, b) -> Long.compare(b.chars().filter(ch -> ch == '/').count(), a.chars().filter(ch -> ch == '/').count()));
                t0 = System.nanoTime();
                for (int i = 0; i < leaves.size(); i += 64) check(nfs.vremove(leaves.subList(i, Math.min(leaves.size(), i + 64)), mode));
                for (int i = 0; i < order.size(); i += 64) check(nfs.vremove(order.subList(i, Math.min(order.size(), i + 64)), mode));
                long t2 = System.nanoTime(); long c2 = cpu(pid); long s2 = sysMs; Map<String, Double> m2 = metrics(mport);
                jfr(pid, jfrNow, "stop", "rm.jfr");
                nfs.vgetattrs(List.of("MARK_END_" + r), Mode.PLAIN);
                report("rm-rf", leaves.size() + order.size(), t2 - t1, m1, m2, c2 - c1, s2 - s1);
            }
        }
    }
    static void check(VResult<?> r) { if (!r.isOk()) throw new IllegalStateException("failed: " + r.item(r.firstFailure())); }
}
