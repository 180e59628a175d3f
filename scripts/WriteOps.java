import java.nio.charset.StandardCharsets;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.stable_how4;

/**
 * The compounds the workload driver's vwrite sends, or parts of them, for counting what each operation costs the
 * server (issue 16, docs/benchmarks.md "CPU per write under 8 clients"): COMPOUNDS compounds of PUTFH of DIR (made
 * if missing), SAVEFH and 16 x (RESTOREFH, then as VARIANT names them: OPEN UNCHECKED4 size 0 of a new name, or of
 * the names e0..e15 when VARIANT starts with "existing"; WRITE FILE_SYNC4 of 4 KiB if it holds "write"; CLOSE if it
 * holds "close"; no OPEN if it holds "noopen"). Run by scripts/bench-write-ops.sh; args: port variant compounds dir.
 */
public class WriteOps {
    public static void main(String[] a) throws Exception {
        int port = Integer.parseInt(a[0]);
        String variant = a[1];
        int compounds = Integer.parseInt(a[2]);
        String dirName = a[3];
        try (NfsConnection c = NfsConnection.connect("127.0.0.1", port)) {
            Nfs41Session s = Nfs41Session.create(c, "write-ops");
            byte[] owner = "write-ops-owner".getBytes(StandardCharsets.UTF_8);
            byte[] root = s.execute(new CompoundBuilder().putrootfh().getfh()).fileHandle();
            CompoundResult r = s.execute(new CompoundBuilder().putfh(root).lookup(dirName).getfh());
            byte[] dir = r.isOk() ? r.fileHandle() : s.execute(new CompoundBuilder().putfh(root).mkdir(dirName).getfh())
                    .fileHandle();
            byte[] data = new byte[4096];
            long t0 = System.nanoTime();
            for (int k = 0; k < compounds; k++) {
                CompoundBuilder b = new CompoundBuilder().putfh(dir).savefh();
                for (int i = 0; i < 16; i++) {
                    String name = variant.startsWith("existing") ? "e" + i : "f" + k + "_" + i;
                    b.restorefh();
                    if (!variant.contains("noopen")) {
                        b.openCreate(s.clientId(), owner, name, OPEN4args.OPEN4_SHARE_ACCESS_WRITE,
                                Attrs.builder().size(0).mode(0644).build());
                    }
                    if (variant.contains("write")) {
                        b.write(CompoundBuilder.currentStateid(), 0, stable_how4.FILE_SYNC4, data);
                    }
                    if (variant.contains("close")) {
                        b.close(CompoundBuilder.currentStateid());
                    }
                }
                r = s.execute(b);
                if (!r.isOk()) {
                    System.out.println(variant + ": compound " + k + " answered " + r.status());
                    System.exit(1);
                }
            }
            System.out.printf("%s: %d compounds in %.1f ms%n", variant, compounds, (System.nanoTime() - t0) / 1e6);
        }
    }
}
