package org.tcnfs.proto;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A range of a file's old contents, saved before an operation overwrote or cut it.
 *
 * @param offset where the range lies in the file
 * @param length its length in bytes, not 0
 * @param source where the saved bytes are
 */
public record SavedRange(long offset, long length, Source source) {

    public SavedRange {
        Objects.requireNonNull(source, "source");
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        if (length <= 0) {
            throw new IllegalArgumentException("range length must be positive, not " + length);
        }
        if (offset > Long.MAX_VALUE - length) {
            throw new IllegalArgumentException("range " + offset + "+" + length + " ends past 2^63");
        }
        if (source instanceof Backup backup && backup.fileOffset() > Long.MAX_VALUE - length) {
            throw new IllegalArgumentException("backup extent " + backup.fileOffset() + "+" + length
                    + " ends past 2^63");
        }
        if (source instanceof Inline inline && inline.length() != length) {
            throw new IllegalArgumentException("inline data has " + inline.length() + " bytes, the range "
                    + length);
        }
    }

    /** A range saved in backup file {@code file} at {@code fileOffset}. */
    public static SavedRange inBackup(long offset, long length, RelativePath file, long fileOffset) {
        return new SavedRange(offset, length, new Backup(file, fileOffset));
    }

    /** A range that was one hole: nothing is saved, undo punches it again. */
    public static SavedRange hole(long offset, long length) {
        return new SavedRange(offset, length, Hole.INSTANCE);
    }

    /** A range whose bytes travel inside the record. */
    public static SavedRange inline(long offset, byte[] data) {
        return new SavedRange(offset, data.length, new Inline(data));
    }

    /** The offset just past the range. */
    public long end() {
        return offset + length;
    }

    /** Where the saved bytes of a range are. */
    public sealed interface Source permits Backup, Inline, Hole {
    }

    /**
     * The range was a hole (no allocated blocks; it read as zeros): nothing was saved, and undo deallocates
     * the range again so the file stays sparse.
     */
    public record Hole() implements Source {
        /** The one value. */
        public static final Hole INSTANCE = new Hole();
    }

    /**
     * Saved (cloned or copied) into a backup file, which mirrors the target's allocation over the range: a
     * hole of the backup file inside the range was a hole of the target, and undo punches it back.
     *
     * @param file the backup file, relative to the record's backup directory; not the directory itself
     * @param fileOffset offset of the range's first byte in that file
     */
    public record Backup(RelativePath file, long fileOffset) implements Source {

        public Backup {
            Objects.requireNonNull(file, "file");
            if (file.isRoot()) {
                throw new IllegalArgumentException("a backup file needs a name");
            }
            if (fileOffset < 0) {
                throw new IllegalArgumentException("negative backup file offset " + fileOffset);
            }
        }
    }

    /**
     * Saved inside the record itself (small ranges), durable with it.
     *
     * @param data the bytes (copied in and out)
     */
    public record Inline(byte[] data) implements Source {

        public Inline {
            data = data.clone();
        }

        /** A copy of the bytes. */
        @Override
        public byte[] data() {
            return data.clone();
        }

        /** Number of bytes. */
        public int length() {
            return data.length;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Inline that && Arrays.equals(data, that.data);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(data);
        }

        @Override
        public String toString() {
            int shown = Math.min(data.length, 16);
            return "Inline[" + data.length + " bytes: " + HexFormat.of().formatHex(data, 0, shown)
                    + (shown < data.length ? "...]" : "]");
        }
    }
}
