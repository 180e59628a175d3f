import org.tcnfs.client.vector.*;
import java.util.*;

/**
 * Paired latency of one-new-file compounds on two tcnfs servers (issue 16, docs/benchmarks.md "one new file per
 * compound"): each call writes one new file of SIZE bytes in one compound (the workload driver's degree k=1 row:
 * LOOKUPs, OPEN-create, stable WRITE, CLOSE), sent to the two servers in turn (who goes first alternates), so that the
 * load of a shared machine falls on both alike. Prints the median, quartiles and mean per server after 50 untimed
 * files each. Run by scripts/bench-alt-create.sh; args: portA portB files size.
 */
public class AltCreate {
    public static void main(String[] a) throws Exception {
        int[] ports = {Integer.parseInt(a[0]), Integer.parseInt(a[1])};
        int files = Integer.parseInt(a[2]);
        int size = Integer.parseInt(a[3]);
        int warm = 50;
        VnfsClient[] c = new VnfsClient[2];
        for (int s = 0; s < 2; s++) c[s] = VnfsClient.builder().host("127.0.0.1").port(ports[s]).export("/").connect();
        String dir = "alt" + System.nanoTime() + "/d/e";
        for (int s = 0; s < 2; s++) c[s].vmkdir(List.of(dir), Mode.PLAIN, Parents.CREATE);
        byte[] data = new byte[size];
        new Random(16).nextBytes(data);
        long[][] lat = new long[2][files];
        for (int r = 0; r < files + warm; r++) {
            for (int k = 0; k < 2; k++) {
                int s = (r + k) % 2;  // alternate who goes first
                long t0 = System.nanoTime();
                VResult<Void> res = c[s].vwrite(List.of(VWrite.create(dir + "/f" + r, data)), Mode.PLAIN);
                long t = System.nanoTime() - t0;
                if (!res.isOk()) throw new IllegalStateException("write failed on " + s + ": " + res);
                if (r >= warm) lat[s][r - warm] = t;
            }
        }
        for (int s = 0; s < 2; s++) {
            long[] l = lat[s].clone(); Arrays.sort(l);
            System.out.printf("server %d (port %d): median %.3f ms, p25 %.3f, p75 %.3f, mean %.3f ms per one-file compound of %d bytes%n",
                s, ports[s], l[l.length / 2] / 1e6, l[l.length / 4] / 1e6, l[3 * l.length / 4] / 1e6, Arrays.stream(l).average().orElse(0) / 1e6, size);
        }
        System.out.printf("B / A: median %.3f, mean %.3f%n", (double) median(lat[1]) / median(lat[0]),
                Arrays.stream(lat[1]).average().orElse(0) / Arrays.stream(lat[0]).average().orElse(1));
    }

    private static long median(long[] l) {
        long[] c = l.clone(); Arrays.sort(c); return c[c.length / 2];
    }
}
