package org.tcnfs.it;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETATTR;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READ;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READDIR;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.nfs4.xdr.GETATTR4resok;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.READ4resok;
import org.tcnfs.nfs4.xdr.READDIR4resok;
import org.tcnfs.nfs4.xdr.entry4;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * File operations over an {@link Nfs41Session} for the integration tests: each one compound (or a
 * loop of them), failing with the whole compound's statuses when anything in it fails.
 */
final class NfsOps {
    /** Bytes per READ and WRITE; the server's default maxread/maxwrite. */
    static final int IO_SIZE = 1024 * 1024;
    private static final int IO_OPS_PER_COMPOUND = 4;

    private final Nfs41Session session;
    private final byte[] openOwner;

    NfsOps(Nfs41Session session) {
        this.session = session;
        this.openOwner = ("owner-" + System.nanoTime()).getBytes(StandardCharsets.UTF_8);
    }

    Nfs41Session session() {
        return session;
    }

    byte[] openOwner() {
        return openOwner.clone();
    }

    CompoundResult run(CompoundBuilder ops) throws IOException {
        return session.execute(ops);
    }

    CompoundResult runOk(CompoundBuilder ops) throws IOException {
        return session.execute(ops).orThrow();
    }

    byte[] rootFh() throws IOException {
        return runOk(new CompoundBuilder().putrootfh().getfh()).fileHandle();
    }

    byte[] mkdir(byte[] dir, String name) throws IOException {
        return runOk(new CompoundBuilder().putfh(dir).mkdir(name).getfh()).fileHandle();
    }

    /**
     * Makes directory {@code name} in {@code dir}, a chain of {@code depth} directories d0, d1, ... in it and a file
     * "f" at the bottom; returns the names from {@code name} down to "f".
     */
    List<String> mkdirChainWithFile(byte[] dir, String name, int depth) throws IOException {
        List<String> names = new ArrayList<>(List.of(name));
        byte[] at = mkdir(dir, name);
        for (int i = 0; i < depth; i++) {
            names.add("d" + i);
            at = mkdir(at, "d" + i);
        }
        createFile(at, "f", "deep".getBytes(StandardCharsets.UTF_8));
        names.add("f");
        return names;
    }

    byte[] lookup(byte[] dir, String name) throws IOException {
        return runOk(new CompoundBuilder().putfh(dir).lookup(name).getfh()).fileHandle();
    }

    Attrs getattr(byte[] fh, int... attributes) throws IOException {
        CompoundResult r = runOk(new CompoundBuilder().putfh(fh).getattr(attributes));
        return Attrs.decode(r.body(OP_GETATTR, GETATTR4resok.class).obj_attributes);
    }

    /** Creates (or truncates) {@code name} with {@code data}; returns its handle. */
    byte[] createFile(byte[] dir, String name, byte[] data) throws IOException {
        CompoundResult opened = runOk(new CompoundBuilder().putfh(dir)
                .openCreate(session.clientId(), openOwner, name, OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                        Attrs.builder().size(0).mode(0644).build())
                .getfh());
        byte[] fh = opened.fileHandle();
        stateid4 open = opened.body(OP_OPEN, OPEN4resok.class).stateid;
        write(fh, open, 0, data);
        runOk(new CompoundBuilder().putfh(fh).close(open));
        return fh;
    }

    /** Writes {@code data} at {@code offset} in WRITEs of {@link #IO_SIZE}, a few per compound. */
    void write(byte[] fh, stateid4 stateid, long offset, byte[] data) throws IOException {
        int pos = 0;
        while (pos < data.length) {
            CompoundBuilder b = new CompoundBuilder().putfh(fh);
            for (int i = 0; i < IO_OPS_PER_COMPOUND && pos < data.length; i++) {
                int n = Math.min(IO_SIZE, data.length - pos);
                byte[] chunk = new byte[n];
                System.arraycopy(data, pos, chunk, 0, n);
                b.write(stateid, offset + pos, chunk);
                pos += n;
            }
            runOk(b);
        }
    }

    /** The whole file, read with the anonymous stateid in READs of {@link #IO_SIZE}. */
    byte[] read(byte[] fh) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            CompoundBuilder b = new CompoundBuilder().putfh(fh);
            for (int i = 0; i < IO_OPS_PER_COMPOUND; i++) {
                b.read(CompoundBuilder.anonymousStateid(), out.size() + (long) i * IO_SIZE, IO_SIZE);
            }
            CompoundResult r = runOk(b);
            boolean eof = false;
            for (READ4resok read : r.bodies(OP_READ, READ4resok.class)) {
                ByteBuffer data = read.data.duplicate();
                byte[] bytes = new byte[data.remaining()];
                data.get(bytes);
                out.write(bytes);
                if (read.eof || bytes.length == 0) {
                    eof = true;
                    break;
                }
                if (bytes.length < IO_SIZE) {
                    throw new IOException("short READ of " + bytes.length + " bytes without eof at " + out.size());
                }
            }
            if (eof) {
                return out.toByteArray();
            }
        }
    }

    /** Every name in the directory, following cookies until eof (at most 100,000 rounds). */
    List<String> readdirNames(byte[] dir) throws IOException {
        List<String> names = new ArrayList<>();
        long cookie = 0;
        byte[] verifier = new byte[8];
        for (int round = 0; round < 100_000; round++) {
            CompoundResult r = runOk(new CompoundBuilder().putfh(dir)
                    .readdir(cookie, verifier, 32 * 1024, 64 * 1024, org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_TYPE,
                            org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_FILEID));
            READDIR4resok ok = r.body(OP_READDIR, READDIR4resok.class);
            for (entry4 e : ok.reply.entries) {
                names.add(new String(e.name, StandardCharsets.UTF_8));
                cookie = e.cookie;
            }
            verifier = ok.cookieverf.value.clone();
            if (ok.reply.eof) {
                return names;
            }
            if (ok.reply.entries.length == 0) {
                throw new IOException("READDIR returned no entries and no eof at cookie " + cookie);
            }
        }
        throw new IOException("READDIR did not reach eof");
    }
}
