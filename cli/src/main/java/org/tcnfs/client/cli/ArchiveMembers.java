package org.tcnfs.client.cli;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.tcnfs.client.vector.LocalData;

/**
 * The bytes of a local tar archive's members, by their offset in the tar stream ({@link TarPlan#index}), read as
 * an atomic untar sends them. An uncompressed archive is read at those offsets. A gzip-compressed one is
 * decompressed front to back as the offsets grow; the last range read is kept, since the client may ask for it
 * again (a compound packed again), and an earlier range (the transaction begun again) decompresses the archive
 * again from its start. Not thread-safe; {@link #close()} releases the file.
 */
final class ArchiveMembers implements LocalData, Closeable {
    private final Path archive;
    private final boolean gzip;
    private FileChannel channel;
    private InputStream stream;
    /** Offset in the tar stream of the next byte {@link #stream} gives. */
    private long streamAt;
    private long lastAt = -1;
    private byte[] last;
    private int reopened;

    private ArchiveMembers(Path archive, boolean gzip) {
        this.archive = archive;
        this.gzip = gzip;
    }

    /** The members of {@code archive}, gzip detected by its magic bytes. */
    static ArchiveMembers open(Path archive) throws IOException {
        boolean gz;
        try (InputStream in = java.nio.file.Files.newInputStream(archive)) { // NoSuchFileException names the cause
            gz = in.read() == 0x1f && in.read() == 0x8b;
        }
        return new ArchiveMembers(archive, gz);
    }

    /** Whether the archive is gzip-compressed. */
    boolean compressed() {
        return gzip;
    }

    /** How often a compressed archive was decompressed again from its start (after a transaction restart). */
    int reopened() {
        return reopened;
    }

    @Override
    public byte[] read(long position, int length) throws IOException {
        if (position == lastAt && last != null && last.length == length) {
            return last;
        }
        byte[] data = gzip ? readSequential(position, length) : readAt(position, length);
        lastAt = position;
        last = data;
        return data;
    }

    private byte[] readAt(long position, int length) throws IOException {
        if (channel == null) {
            channel = FileChannel.open(archive);
        }
        byte[] data = new byte[length];
        ByteBuffer buf = ByteBuffer.wrap(data);
        while (buf.hasRemaining()) {
            if (channel.read(buf, position + buf.position()) < 0) {
                throw new EOFException(archive + " ends inside a member (truncated archive)");
            }
        }
        return data;
    }

    private byte[] readSequential(long position, int length) throws IOException {
        if (stream == null || position < streamAt) {
            if (stream != null) {
                stream.close();
                reopened++;
            }
            stream = new GzipCompressorInputStream(new BufferedInputStream(new FileInputStream(archive.toFile()),
                    64 * 1024), true);
            streamAt = 0;
        }
        long skip = position - streamAt;
        while (skip > 0) {
            long n = stream.skip(skip);
            if (n <= 0) {
                if (stream.read() < 0) {
                    throw new EOFException(archive + " ends inside a member (truncated archive)");
                }
                n = 1;
            }
            skip -= n;
            streamAt += n;
        }
        byte[] data = stream.readNBytes(length);
        streamAt += data.length;
        if (data.length < length) {
            throw new EOFException(archive + " ends inside a member (truncated archive)");
        }
        return data;
    }

    @Override
    public void close() throws IOException {
        last = null;
        try {
            if (channel != null) {
                channel.close();
            }
        } finally {
            if (stream != null) {
                stream.close();
            }
        }
    }
}
