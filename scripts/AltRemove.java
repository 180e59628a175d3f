import org.tcnfs.client.vector.*;
import java.util.*;

/**
 * Paired latency of rm -rf compounds on two tcnfs servers (issue 16, docs/benchmarks.md "rm -rf per entry, sixth
 * round"): each compound removes one file from each of DIRS directories (the driver's rm -rf spreads its 64 paths over
 * about 50), sent to the two servers in turn (who goes first alternates), so that the load of a shared machine falls
 * on both alike. Prints the median, quartiles and mean per server after 5 untimed rounds.
 * Run by scripts/bench-alt-remove.sh; args: portA portB rounds dirs [plain|txn] (the REMOVE compounds' mode; the
 * tree is made by plain compounds either way).
 */
public class AltRemove {
    public static void main(String[] a) throws Exception {
        int[] ports = {Integer.parseInt(a[0]), Integer.parseInt(a[1])};
        int rounds = Integer.parseInt(a[2]); int dirs = Integer.parseInt(a[3]);
        Mode mode = a.length > 4 && a[4].equals("txn") ? Mode.TRANSACTION : Mode.PLAIN;
        VnfsClient[] c = new VnfsClient[2];
        for (int s = 0; s < 2; s++) c[s] = VnfsClient.builder().host("127.0.0.1").port(ports[s]).export("/").connect();
        String root = "alt" + System.nanoTime();
        List<long[]> lat = List.of(new long[rounds], new long[rounds]);
        for (int s = 0; s < 2; s++) {
            List<String> ds = new ArrayList<>();
            for (int i = 0; i < dirs; i++) ds.add(root + "/a" + (i % 7) + "/b" + (i % 5) + "/d" + i);
            c[s].vmkdir(ds, Mode.PLAIN, Parents.CREATE);
            List<VWrite> w = new ArrayList<>();
            for (int r = 0; r < rounds + 5; r++) for (String d : ds) {
                w.add(VWrite.create(d + "/f" + r, new byte[100]));
                if (w.size() == 64) { c[s].vwrite(w, Mode.PLAIN); w.clear(); }
            }
            if (!w.isEmpty()) c[s].vwrite(w, Mode.PLAIN);
        }
        for (int r = 0; r < rounds + 5; r++) {
            for (int k = 0; k < 2; k++) {
                int s = (r + k) % 2;  // alternate who goes first
                List<String> paths = new ArrayList<>();
                for (int i = 0; i < dirs; i++) paths.add(root + "/a" + (i % 7) + "/b" + (i % 5) + "/d" + i + "/f" + r);
                long t0 = System.nanoTime();
                VResult<Void> res = c[s].vremove(paths, mode);
                long t = System.nanoTime() - t0;
                if (!res.isOk()) throw new IllegalStateException("remove failed on " + s + ": " + res);
                if (r >= 5) lat.get(s)[r - 5] = t;
            }
        }
        for (int s = 0; s < 2; s++) {
            long[] l = lat.get(s).clone(); Arrays.sort(l);
            System.out.printf("server %d (port %d): median %.2f ms, p25 %.2f, p75 %.2f, mean %.2f ms per compound of %d REMOVEs%n",
                s, ports[s], l[l.length / 2] / 1e6, l[l.length / 4] / 1e6, l[3 * l.length / 4] / 1e6, Arrays.stream(l).average().orElse(0) / 1e6, dirs);
        }
    }
}
