package org.tcnfs.client.vector;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Local bytes that a transactional write reads only when it packs them into a compound ({@link VWriteFrom}), so
 * the client holds about one compound of them at a time, whatever their size. {@link #of(Path)} reads a local
 * file; the tcnfs CLI reads the members of a tar archive (decompressed as they are read) this way.
 */
@FunctionalInterface
public interface LocalData {
    /**
     * The {@code length} bytes at {@code position}. The client asks in increasing order of position as it packs
     * compounds, may ask for the same range again (a compound packed again) and for an earlier one (a transaction
     * begun again after NFS4ERR_DEADLOCK). It does not modify the array, so an implementation may hand out the
     * same array again for the same range.
     *
     * @throws EOFException when fewer than {@code length} bytes are there
     * @throws IOException when they cannot be read
     */
    byte[] read(long position, int length) throws IOException;

    /** Positional reads of the local file {@code file} (opened for each read). */
    static LocalData of(Path file) {
        Objects.requireNonNull(file, "file");
        return (position, length) -> {
            byte[] data = new byte[length];
            try (FileChannel ch = FileChannel.open(file)) {
                ByteBuffer buf = ByteBuffer.wrap(data);
                while (buf.hasRemaining()) {
                    if (ch.read(buf, position + buf.position()) < 0) {
                        throw new EOFException(file + " became shorter while it was written");
                    }
                }
            }
            return data;
        };
    }
}
