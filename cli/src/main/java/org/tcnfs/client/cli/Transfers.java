package org.tcnfs.client.cli;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import org.tcnfs.client.stream.RemoteFileReader;
import org.tcnfs.client.stream.RemoteFileWriter;
import org.tcnfs.client.stream.RemoteFiles;
import org.tcnfs.client.vector.FileInfo;
import org.tcnfs.client.vector.Mode;
import org.tcnfs.client.vector.Parents;
import org.tcnfs.client.vector.TxnItem;
import org.tcnfs.client.vector.VRead;
import org.tcnfs.client.vector.VResult;
import org.tcnfs.client.vector.VSetattr;
import org.tcnfs.client.vector.VWrite;
import org.tcnfs.client.vector.VnfsClient;

/**
 * The plain (non-transactional) transfer path of put, get, cp and untar. A file larger than one WRITE (or
 * READ) streams through {@link RemoteFiles}, several compounds in flight; smaller files and other items
 * (directories, links) are batched, many per vectorized call, up to {@value #BATCH_BYTES} bytes of data or
 * {@value #BATCH_ITEMS} items at a time. Memory therefore stays bounded whatever the files' sizes and number
 * (the batch plus one stream's buffers). Work goes out in the order it was added; {@link #finish()} sends
 * what is still batched. Progress counts bytes.
 */
final class Transfers {
    /** Data bytes of small files batched before they are sent. */
    static final long BATCH_BYTES = 8L * 1024 * 1024;
    /** Items batched before they are sent. */
    static final int BATCH_ITEMS = 2048;
    /** Downloads of at least this many bytes are written past the page cache ({@link DirectFileOutput}). */
    static final long DIRECT_ABOVE = 16L * 1024 * 1024;

    private final VnfsClient nfs;
    private final RemoteFiles files;
    private final Progress progress;
    private final String verb;
    private final int umask = umask();

    /** Directories to create before the batched items (in order, parents first). */
    private final Set<String> dirs = new LinkedHashSet<>();
    private final List<TxnItem> items = new ArrayList<>();
    private final List<String> labels = new ArrayList<>();
    private long itemBytes;

    private final List<Copy> copies = new ArrayList<>();
    private long copyBytes;

    /** A small remote file to copy with the next batch. */
    private record Copy(String from, String to, int mode, Instant time, String label) {
    }

    private final List<Download> downloads = new ArrayList<>();
    private long downloadBytes;

    /** A small remote file to fetch with the next batch: where to, with which mode and time. */
    private record Download(String remote, Path local, String label, int mode, Instant time) {
    }

    Transfers(VnfsClient nfs, Progress progress, String verb) {
        this.nfs = nfs;
        this.files = RemoteFiles.of(nfs);
        this.progress = progress;
        this.verb = verb;
    }

    /**
     * Files above this size stream: one WRITE, or less when a plain compound cannot hold one WRITE and the
     * operations around it.
     */
    long streamAbove() {
        return Math.min(files.writeSize(), nfs.plainCompoundBytes() - 64 * 1024);
    }

    // ---- to the server

    /** Makes {@code dir} exist (with its parents) before the items added after it. */
    void mkdir(String dir) {
        if (!dir.isEmpty()) {
            dirs.add(dir);
        }
    }

    /** A non-data item (symbolic link, hard link, ...) in order with the files. */
    void item(TxnItem item, String label) throws IOException, CliException {
        items.add(item);
        labels.add(label);
        flushIfFull();
    }

    /**
     * Writes the local file {@code local} to {@code remote}, created with {@code mode} or truncated; with
     * {@code time}, also sets that mode (when the file existed) and its modification time.
     */
    void upload(Path local, String remote, int mode, Instant time, String label) throws IOException, CliException {
        long size;
        try {
            size = Files.size(local);
        } catch (IOException e) {
            throw new CliException(ExitCode.LOCAL_IO, verb + ": " + local + ": " + e.getMessage());
        }
        try (InputStream in = open(local)) {
            upload(in, size, remote, mode, time, label);
        } catch (LocalIo e) {
            throw new CliException(ExitCode.LOCAL_IO, verb + ": " + local + ": " + e.getCause().getMessage());
        }
    }

    /** As {@link #upload(Path, String, int, Instant, String)}, from {@code size} bytes of {@code in}. */
    void upload(InputStream in, long size, String remote, int mode, Instant time, String label)
            throws IOException, CliException {
        if (size <= streamAbove()) {
            addWrite(remote, readLocal(in, (int) size), mode, time, label);
            flushIfFull();
            return;
        }
        flush();
        try (RemoteFileWriter out = files.create(remote, mode, progress::bytesDone)) {
            if (time != null) {
                out.setMode(mode);
                out.setModifyTime(time);
            }
            long copied = out.transferFrom(new LocalInput(in, size));
            if (copied != size) {
                throw new LocalIo(new IOException("expected " + size + " bytes, read " + copied));
            }
        } catch (LocalIo e) {
            throw e;
        } catch (IOException e) {
            throw new CliException(ExitCode.NFS_ERROR, verb + " " + label + ": " + e.getMessage());
        }
    }

    /** A small file's WRITE (and with {@code time} the SETATTR of its mode and time) into the batch. */
    private void addWrite(String remote, byte[] data, int mode, Instant time, String label) {
        items.add(VWrite.create(remote, data).withMode(mode));
        labels.add(label);
        if (time != null) {
            items.add(new VSetattr(remote, OptionalInt.of(mode & 07777), OptionalLong.empty(), Optional.empty(),
                    Optional.empty(), Optional.of(time)));
            labels.add(label);
        }
        itemBytes += data.length;
    }

    private static byte[] readLocal(InputStream in, int size) throws LocalIo {
        try {
            byte[] data = in.readNBytes(size);
            if (data.length != size) {
                throw new IOException("expected " + size + " bytes, read " + data.length);
            }
            return data;
        } catch (IOException e) {
            throw new LocalIo(e);
        }
    }

    /**
     * Local files are read and written through {@code FileInputStream}/{@code FileOutputStream}: the NIO streams of
     * {@code Files.newInputStream}/{@code newOutputStream} cost several times the kernel time per MiB written in
     * 1 MiB pieces here (a 1 GiB file: 1.3-1.6 s of system CPU against 0.2 s; docs/benchmarks.md).
     */
    private static InputStream open(Path local) throws LocalIo {
        try {
            return new FileInputStream(local.toFile());
        } catch (IOException e) {
            throw new LocalIo(e);
        }
    }

    /** A local read failure, told apart from the server's. */
    static final class LocalIo extends IOException {
        private static final long serialVersionUID = 1L;

        LocalIo(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /** At most {@code limit} bytes of a local stream; its failures become {@link LocalIo}. */
    private static final class LocalInput extends InputStream {
        private final InputStream in;
        private long left;

        LocalInput(InputStream in, long limit) {
            this.in = in;
            this.left = limit;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left <= 0) {
                return -1;
            }
            try {
                int n = in.read(b, off, (int) Math.min(len, left));
                if (n > 0) {
                    left -= n;
                }
                return n;
            } catch (IOException e) {
                throw new LocalIo(e);
            }
        }
    }

    private void flushIfFull() throws IOException, CliException {
        if (itemBytes + copyBytes >= BATCH_BYTES || items.size() + copies.size() >= BATCH_ITEMS
                || dirs.size() >= BATCH_ITEMS) {
            flush();
        }
    }

    /** Sends the batched directories and items (reading the batched copies' sources first). */
    private void flush() throws IOException, CliException {
        if (!copies.isEmpty()) {
            VResult<byte[]> r = nfs.vread(copies.stream().map(c -> VRead.whole(c.from())).toList(), Mode.PLAIN);
            BaseCommand.check(r, copies.stream().map(Copy::label).toList(), verb);
            for (int i = 0; i < copies.size(); i++) {
                Copy c = copies.get(i);
                addWrite(c.to(), r.value(i), c.mode(), c.time(), c.label());
            }
            copies.clear();
            copyBytes = 0;
        }
        if (!dirs.isEmpty()) {
            List<String> d = new ArrayList<>(dirs);
            dirs.clear();
            BaseCommand.check(nfs.vmkdir(d, Mode.PLAIN, Parents.CREATE), d, verb + " (mkdir)");
        }
        if (!items.isEmpty()) {
            VResult<Void> r = nfs.vapply(items, Mode.PLAIN);
            BaseCommand.check(r, labels, verb);
            items.clear();
            labels.clear();
        }
        progress.bytesDone(itemBytes);
        itemBytes = 0;
    }

    // ---- from the server

    /**
     * Fetches the regular file {@code remote} (as {@code info} describes it) into {@code local}. The local file
     * gets the remote permission bits less the umask (so execute bits stay, as with cp), or with {@code
     * preserve} exactly those bits and the modification time.
     */
    void download(String remote, FileInfo info, Path local, boolean preserve, String label)
            throws IOException, CliException {
        int mode = preserve ? info.mode() & 0777 : info.mode() & 0777 & ~umask;
        Instant time = preserve ? info.modifyTime() : null;
        if (info.size() > files.readSize()) {
            flushDownloads();
            try (RemoteFileReader in = files.openRead(remote, progress::bytesDone);
                    OutputStream out = new LocalOutput(info.size() >= DIRECT_ABOVE ? createDirect(local)
                            : createLocal(local))) {
                in.transferTo(out);
            } catch (LocalIo e) {
                throw new CliException(ExitCode.LOCAL_IO, verb + ": " + local + ": " + e.getMessage());
            } catch (IOException e) {
                throw new CliException(ExitCode.NFS_ERROR, verb + " " + label + ": " + e.getMessage());
            }
            setLocal(local, mode, time);
            return;
        }
        downloads.add(new Download(remote, local, label, mode, time));
        downloadBytes += info.size();
        if (downloadBytes >= BATCH_BYTES || downloads.size() >= BATCH_ITEMS) {
            flushDownloads();
        }
    }

    /** Streams the remote file {@code remote} to {@code out} (standard output, say). */
    void download(String remote, OutputStream out, String label) throws IOException, CliException {
        try (RemoteFileReader in = files.openRead(remote, progress::bytesDone)) {
            in.transferTo(new LocalOutput(out));
            out.flush();
        } catch (LocalIo e) {
            throw new CliException(ExitCode.LOCAL_IO, verb + ": " + e.getMessage());
        } catch (IOException e) {
            throw new CliException(ExitCode.NFS_ERROR, verb + " " + label + ": " + e.getMessage());
        }
    }

    private void flushDownloads() throws IOException, CliException {
        if (downloads.isEmpty()) {
            return;
        }
        VResult<byte[]> r = nfs.vread(downloads.stream().map(d -> VRead.whole(d.remote())).toList(), Mode.PLAIN);
        BaseCommand.check(r, downloads.stream().map(Download::label).toList(), verb);
        for (int i = 0; i < downloads.size(); i++) {
            Download d = downloads.get(i);
            try (OutputStream out = createLocal(d.local())) {
                out.write(r.value(i));
            } catch (IOException e) {
                throw new CliException(ExitCode.LOCAL_IO, verb + ": " + d.local() + ": " + e.getMessage());
            }
            setLocal(d.local(), d.mode(), d.time());
        }
        downloads.clear();
        progress.bytesDone(downloadBytes);
        downloadBytes = 0;
    }

    /** A new local file for a large download, written past the page cache where it can be ({@link DirectFileOutput}). */
    private static OutputStream createDirect(Path local) throws LocalIo {
        try {
            return DirectFileOutput.create(local);
        } catch (IOException e) {
            throw new LocalIo(e);
        }
    }

    private static OutputStream createLocal(Path local) throws LocalIo {
        try {
            return new FileOutputStream(local.toFile());
        } catch (IOException e) {
            throw new LocalIo(e);
        }
    }

    /** Writes to a local stream; its failures become {@link LocalIo}. */
    private static final class LocalOutput extends OutputStream {
        private final OutputStream out;

        LocalOutput(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw new LocalIo(e);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                out.close();
            } catch (IOException e) {
                throw new LocalIo(e);
            }
        }
    }

    private void setLocal(Path local, int mode, Instant time) throws CliException {
        setLocal(local, mode, time, verb);
    }

    /** Sets a local file's permission bits and, when {@code time} is given, its modification time. */
    static void setLocal(Path local, int mode, Instant time, String verb) throws CliException {
        try {
            Files.setPosixFilePermissions(local, permissions(mode));
            if (time != null) {
                Files.setLastModifiedTime(local, FileTime.from(time));
            }
        } catch (IOException | UnsupportedOperationException e) {
            throw new CliException(ExitCode.LOCAL_IO, verb + ": " + local + ": " + e.getMessage());
        }
    }

    static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> s = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_READ, PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_READ};
        for (int i = 0; i < order.length; i++) {
            if ((mode & (1 << i)) != 0) {
                s.add(order[i]);
            }
        }
        return s;
    }

    /** This process's umask (Linux /proc), 022 where it cannot be read. */
    static int umask() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Umask:")) {
                    return Integer.parseInt(line.substring(6).trim(), 8) & 0777;
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through
        }
        return 022;
    }

    // ---- on the server

    /**
     * Copies the remote file {@code from} to {@code to} on the same server, keeping its permission bits (and
     * with {@code preserve} its modification time): streamed when large, else read and written in batches.
     */
    void copy(String from, FileInfo info, String to, boolean preserve, String label) throws IOException, CliException {
        int mode = info.mode() & 07777;
        Instant time = preserve ? info.modifyTime() : null;
        if (info.size() <= streamAbove()) {
            copies.add(new Copy(from, to, mode, time, label));
            copyBytes += info.size();
            flushIfFull();
            return;
        }
        flush();
        try (RemoteFileReader in = files.openRead(from, null);
                RemoteFileWriter out = files.create(to, mode, progress::bytesDone)) {
            if (time != null) {
                out.setMode(mode);
                out.setModifyTime(time);
            }
            out.transferFrom(in);
        } catch (IOException e) {
            throw new CliException(ExitCode.NFS_ERROR, verb + " " + label + ": " + e.getMessage());
        }
    }

    /** Sends everything still batched. */
    void finish() throws IOException, CliException {
        flush();
        flushDownloads();
    }
}
