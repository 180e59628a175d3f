package org.tcnfs.jmh.workload;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.tcnfs.client.vector.DirEntry;
import org.tcnfs.client.vector.FileInfo;
import org.tcnfs.client.vector.Mode;
import org.tcnfs.client.vector.Parents;
import org.tcnfs.client.vector.Recursion;
import org.tcnfs.client.vector.VRead;
import org.tcnfs.client.vector.VResult;
import org.tcnfs.client.vector.VSymlink;
import org.tcnfs.client.vector.VWrite;
import org.tcnfs.client.vector.VnfsClient;
import org.tcnfs.client.vector.WriteStability;

/**
 * An NFSv4.1 server reached through the vectorized client; every call is sent in {@link Mode#TRANSACTION} when
 * the target has transactions, else in {@link Mode#PLAIN}. Writes ask for FILE_SYNC, so every target stores data
 * durably before it answers.
 */
final class NfsTarget implements Target {
    private final String name;
    private final String host;
    private final int port;
    private final String export;
    private final Mode mode;
    private final Identity identity;
    /** Request bytes of plain compounds; {@link VnfsClient#DEFAULT_PLAIN_COMPOUND_BYTES} unless one per call. */
    private final long plainCompoundBytes;

    NfsTarget(String name, String host, int port, String export, Mode mode, Identity identity) {
        this(name, host, port, export, mode, identity, VnfsClient.DEFAULT_PLAIN_COMPOUND_BYTES);
    }

    private NfsTarget(String name, String host, int port, String export, Mode mode, Identity identity,
            long plainCompoundBytes) {
        this.name = name;
        this.host = host;
        this.port = port;
        this.export = export;
        this.mode = mode;
        this.identity = identity;
        this.plainCompoundBytes = plainCompoundBytes;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public FsSession open() throws IOException {
        VnfsClient client = VnfsClient.builder().host(host).port(port).export(export)
                .uid(identity.uid()).gid(identity.gid()).writeStability(WriteStability.FILE_SYNC)
                .plainCompoundBytes(plainCompoundBytes).connect();
        return new Session(client, mode);
    }

    @Override
    public Target plain() {
        return mode == Mode.PLAIN ? this
                : new NfsTarget(name, host, port, export, Mode.PLAIN, identity, plainCompoundBytes);
    }

    /** Plain calls pack up to the session's whole request limit (the client takes the smaller of the two). */
    @Override
    public Target oneCompoundPerCall() {
        return new NfsTarget(name, host, port, export, mode, identity, Integer.MAX_VALUE);
    }

    @Override
    public String toString() {
        return name + " (nfs://" + host + ":" + port + export + (mode == Mode.TRANSACTION ? ", transactions)" : ")");
    }

    /** One client's connection. */
    private static final class Session implements FsSession {
        private final VnfsClient nfs;
        private final Mode mode;

        Session(VnfsClient nfs, Mode mode) {
            this.nfs = nfs;
            this.mode = mode;
        }

        private static <T> VResult<T> check(String what, VResult<T> r) throws IOException {
            if (!r.isOk()) {
                int i = r.firstFailure();
                throw new IOException(what + ": item " + i + " " + (i >= 0 ? r.item(i) : "") + " (" + r.mode()
                        + ", committed " + r.committed() + ")");
            }
            return r;
        }

        @Override
        public void write(List<FileData> files) throws IOException {
            List<VWrite> items = new ArrayList<>(files.size());
            for (FileData f : files) {
                items.add(VWrite.create(f.path(), f.data()));
            }
            check("vwrite", nfs.vwrite(items, mode));
        }

        @Override
        public long read(List<String> paths) throws IOException {
            long bytes = 0;
            for (byte[] b : readAll(paths)) {
                bytes += b.length;
            }
            return bytes;
        }

        @Override
        public List<byte[]> readAll(List<String> paths) throws IOException {
            return check("vread", nfs.vread(paths.stream().map(VRead::whole).toList(), mode)).values();
        }

        @Override
        public void mkdirs(List<String> dirs) throws IOException {
            check("vmkdir", nfs.vmkdir(dirs, mode, Parents.CREATE));
        }

        @Override
        public void symlinks(List<Link> links) throws IOException {
            check("vsymlink", nfs.vsymlink(links.stream().map(l -> new VSymlink(l.path(), l.target())).toList(), mode));
        }

        @Override
        public List<String> readlinks(List<String> paths) throws IOException {
            return check("vreadlink", nfs.vreadlink(paths, mode)).values();
        }

        @Override
        public List<Entry> listRecursive(String dir) throws IOException {
            List<Entry> out = new ArrayList<>();
            for (DirEntry e : check("vlistdir", nfs.vlistdir(List.of(dir), Recursion.RECURSIVE, mode)).value(0)) {
                out.add(new Entry(e.path(), kind(e.info()), e.info().size()));
            }
            return out;
        }

        private static Kind kind(FileInfo info) {
            return switch (info.type()) {
                case REGULAR -> Kind.FILE;
                case DIRECTORY -> Kind.DIRECTORY;
                case SYMLINK -> Kind.SYMLINK;
                case OTHER -> Kind.OTHER;
            };
        }

        @Override
        public void getattrs(List<String> paths) throws IOException {
            check("vgetattrs", nfs.vgetattrs(paths, mode));
        }

        @Override
        public void remove(List<String> paths) throws IOException {
            check("vremove", nfs.vremove(paths, mode));
        }

        @Override
        public OptionalLong compoundsSent() {
            return OptionalLong.of(nfs.compoundsSent());
        }

        @Override
        public void close() throws IOException {
            nfs.close();
        }
    }
}
