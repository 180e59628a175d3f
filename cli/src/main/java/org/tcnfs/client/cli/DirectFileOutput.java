package org.tcnfs.client.cli;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A new local file written past the page cache ({@code O_DIRECT}) in aligned blocks, for large downloads. Why:
 * writing a large file through the page cache makes the kernel find, zero and fill a fresh page for every 4 KiB,
 * and on a virtual machine whose freed memory goes back to the host (virtio-balloon free page reporting, as
 * here) each such page first costs the host a fault: 1 GiB of {@code dd} into a new file took 7-9 s with 1.5-2 s
 * of system CPU, the same with {@code oflag=direct} 1 s and 0.1 s (docs/benchmarks.md). Written past the cache,
 * the bytes go from one reused buffer to the device. The last partial block is written through an ordinary
 * descriptor. Where the file system refuses {@code O_DIRECT} (tmpfs, some FUSE file systems) the file is
 * written as usual. Not thread-safe.
 */
final class DirectFileOutput extends OutputStream {
    private static final Logger LOG = LoggerFactory.getLogger(DirectFileOutput.class);
    /** Bytes per write to the device. */
    static final int BUFFER = 1024 * 1024;
    /** Smallest alignment used (many devices report 512 but want 4096 for direct I/O of page-sized memory). */
    private static final int MIN_ALIGN = 4096;

    private final Path path;
    private final int align;
    private final ByteBuffer buffer;
    /** The file: opened with O_DIRECT while {@link #aligned}, else an ordinary descriptor. */
    private FileChannel out;
    private boolean aligned = true;
    /** Bytes written to the file so far (a multiple of {@link #align} while {@link #aligned}). */
    private long position;
    private boolean closed;

    private DirectFileOutput(Path path, FileChannel direct, int align) {
        this.path = path;
        this.out = direct;
        this.align = align;
        this.buffer = ByteBuffer.allocateDirect(BUFFER + align).alignedSlice(align);
        buffer.limit(BUFFER);
    }

    /**
     * Creates (or truncates) {@code path} for writing past the page cache, or, where its file system does not
     * allow that, as an ordinary {@link FileOutputStream}.
     */
    static OutputStream create(Path path) throws IOException {
        FileChannel ch;
        long align;
        try {
            align = Math.max(MIN_ALIGN, Files.getFileStore(parentOf(path)).getBlockSize());
            if (align > 65536 || BUFFER % align != 0) {
                return new FileOutputStream(path.toFile());
            }
            ch = FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, ExtendedOpenOption.DIRECT);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.debug("{}: no direct I/O ({}), writing through the page cache", path, e.toString());
            return new FileOutputStream(path.toFile());
        }
        return new DirectFileOutput(path, ch, (int) align);
    }

    private static Path parentOf(Path p) {
        Path parent = p.toAbsolutePath().getParent();
        return parent == null ? p.toAbsolutePath() : parent;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (closed) {
            throw new IOException(path + ": closed");
        }
        while (len > 0) {
            int n = Math.min(len, buffer.remaining());
            buffer.put(b, off, n);
            off += n;
            len -= n;
            if (!buffer.hasRemaining()) {
                drain();
            }
        }
    }

    /** Writes the buffer's whole blocks (all of it once not {@link #aligned}) and keeps the rest at its start. */
    private void drain() throws IOException {
        int filled = buffer.position();
        int whole = aligned ? filled - filled % align : filled;
        if (whole == 0) {
            return;
        }
        buffer.position(0).limit(whole);
        try {
            writeFully(out, buffer, position);
        } catch (IOException e) {
            if (!aligned || position > 0) {
                throw e;
            }
            // the file system took O_DIRECT at open and refuses it at the first write (EINVAL): go buffered
            LOG.debug("{}: direct write refused ({}), writing through the page cache", path, e.toString());
            reopenPlain();
            buffer.position(0).limit(whole);
            writeFully(out, buffer, position);
        }
        position += whole;
        buffer.limit(filled).position(whole);
        buffer.compact();
        buffer.limit(BUFFER);
    }

    private void reopenPlain() throws IOException {
        out.close();
        out = FileChannel.open(path, StandardOpenOption.WRITE);
        aligned = false;
    }

    private static void writeFully(FileChannel ch, ByteBuffer b, long at) throws IOException {
        long p = at;
        while (b.hasRemaining()) {
            p += ch.write(b, p);
        }
    }

    /** Writes what is left (the last partial block through an ordinary descriptor) and closes the file. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            drain();
            if (buffer.position() > 0) {
                reopenPlain();
                drain();
            }
        } finally {
            out.close();
        }
    }
}
