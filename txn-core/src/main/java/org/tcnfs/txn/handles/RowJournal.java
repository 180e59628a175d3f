package org.tcnfs.txn.handles;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An append-only file of records that makes the handle rows of plain {@code sync} compounds, and transactions'
 * recovery records and commit points, durable with one {@code fdatasync} of its own instead of a durable LMDB commit
 * (two device flushes); the rows themselves wait in
 * {@link PendingRows} for the next LMDB commit, which records the highest sequence number whose rows it applied
 * (docs/durability.md, "The row journal").
 *
 * <p><b>File.</b> A fixed size, preallocated by writing zeros and synced once (file and directory) when created, so
 * that an append overwrites allocated, written blocks and its {@code fdatasync} flushes data only, never the file
 * system's journal (unwritten extents from {@code fallocate} would make every first overwrite a metadata change).
 * The file never grows: an appender that finds no room is told so ({@link #NO_ROOM}) and has the table's pending
 * rows committed first.
 *
 * <p><b>Records.</b> {@code length(4) sequence(8) crc(4) payload(length)}, big-endian; the CRC32C covers length,
 * sequence and payload. Sequence numbers only grow, also across restarts and wraps. Writing starts at offset 0 and
 * goes on record after record; once every record written is in a durable LMDB commit ({@link #applied}), the next
 * record goes to offset 0 again (a new lap) with the next sequence number. Replay ({@link #read}) takes the run of
 * records from offset 0 with a good CRC and consecutive sequence numbers, and stops at the first that breaks either:
 * a torn or zeroed record, or one of an older lap, whose sequence number is lower. A length beyond the file ends the
 * run before anything is allocated.
 *
 * <p><b>Why an older record is never taken for a newer one.</b> A lap starts with the sequence number after the
 * highest durably applied one, and holds at most {@code size / HEADER} records, so every record in the file has a
 * sequence number below (first of the current lap) + {@code size / HEADER}. At open the table sets the next number
 * to the highest known one plus that many, and commits it as applied before writing ({@link #firstSequenceAfter}):
 * every record written from then on has a higher number than any left in the file, also those of compounds that
 * never got their reply and lie beyond a damaged record.
 *
 * <p><b>Flushes.</b> {@link #flush} returns once an {@code fdatasync} that began after the caller's record was
 * written has completed; flushes run one at a time, and a caller whose record an earlier one covered returns
 * without its own (a group flush).
 *
 * <p>Thread-safe: appends run under {@link #lock()}, which the table also holds for the whole of each LMDB write
 * transaction, from the drain of the pending rows to its commit: the drain takes every row of the records up to
 * {@link #lastAppended()} and none after, and no compound's rows become pending while a write transaction, which
 * reads LMDB without them, decides what to write.
 */
final class RowJournal implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RowJournal.class);

    /** Bytes before each record's payload: length, sequence number, CRC. */
    static final int HEADER = 16;
    /** {@link #append}: the record does not fit in the room left before the end of the file. */
    static final long NO_ROOM = -1;
    /** {@link #append}: the record is larger than the whole file. */
    static final long TOO_LARGE = -2;
    /** {@link #append}: the caller's {@code publish} refused (nothing written). */
    static final long REFUSED = -3;

    /** One record read back. */
    record Entry(long sequence, byte[] payload) {
    }

    /** What an append does, under the journal's lock, right before its record is written. */
    @FunctionalInterface
    interface Publish {
        /** Makes the record's rows visible; false writes nothing. */
        boolean run();
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Object flushLock = new Object();
    private final Path file;
    private final FileChannel channel;
    private final long size;
    private final LongAdder flushes = new LongAdder();
    private final LongAdder appends = new LongAdder();
    /** Where the next record goes. Guarded by {@link #lock}. */
    private long offset;
    /** The sequence number of the last record written; the next gets one more. Guarded by {@link #lock}. */
    private long last;
    /**
     * The sequence number of the last record whose write returned (all before it returned too: writes run in order
     * under {@link #lock}). Read by {@link #flush} without the lock, which the table holds for whole LMDB write
     * transactions, their flushes included.
     */
    private volatile long written;
    /** Highest sequence number a completed flush covers. Guarded by {@link #flushLock}. */
    private long flushed;
    /** Whether a write or flush failed: nothing is appended any more ({@link #fail}). */
    private volatile boolean failed;

    private RowJournal(Path file, FileChannel channel, long size, long last) {
        this.file = file;
        this.channel = channel;
        this.size = size;
        this.last = last;
        this.written = last;
        this.flushed = last;
    }

    /**
     * Reads the records of {@code file} that replay takes (see the class comment); none when there is no file.
     * Logs where and why the run ended when it ended before the zeros of an unwritten tail.
     */
    static List<Entry> read(Path file) throws IOException {
        List<Entry> run = new ArrayList<>();
        if (!Files.exists(file)) {
            return run;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long fileSize = ch.size();
            ByteBuffer header = ByteBuffer.allocate(HEADER);
            long at = 0;
            long previous = -1;
            String end = null;
            while (end == null) {
                if (fileSize - at < HEADER) {
                    end = "the end of the file";
                    break;
                }
                header.clear();
                readFully(ch, header, at);
                int length = header.getInt(0);
                long sequence = header.getLong(4);
                int crc = header.getInt(12);
                if (length == 0 && sequence == 0 && crc == 0) {
                    break; // never written: the quiet end of the first lap
                }
                if (length < 0 || length > fileSize - at - HEADER) {
                    end = "a length of " + length + " bytes beyond the file";
                } else if (previous >= 0 && sequence != previous + 1) {
                    break; // a record of an older lap: the normal end
                } else {
                    ByteBuffer payload = ByteBuffer.allocate(length);
                    readFully(ch, payload, at + HEADER);
                    if (crc(length, sequence, payload.array()) != crc) {
                        end = "a bad checksum";
                    } else {
                        run.add(new Entry(sequence, payload.array()));
                        previous = sequence;
                        at += HEADER + length;
                    }
                }
            }
            if (end != null) {
                LOG.info("row journal {}: replay ends at offset {} ({}) after {} records; a record cut there "
                        + "belongs to a compound that got no reply", file, at, end, run.size());
            }
        }
        return run;
    }

    /**
     * The first sequence number to write after a replay whose highest known number (applied in LMDB or read from
     * the file) is {@code highest}, for a file of {@code size} bytes: above every number any record left in the file
     * can carry (class comment).
     */
    static long firstSequenceAfter(long highest, long size) {
        return highest + size / HEADER + 1;
    }

    /**
     * Opens {@code file} for appending, creating it (zeros written and synced, with its directory), extending it
     * (zeros) or cutting it to {@code size} bytes when it has another size; the first record goes to offset 0 with
     * sequence number {@code next}. Call only after {@link #read} and after the table committed {@code next - 1} as
     * applied.
     */
    static RowJournal open(Path file, long size, long next) throws IOException {
        if (size < HEADER * 2L) {
            throw new IllegalArgumentException("a row journal needs at least " + HEADER * 2 + " bytes: " + size);
        }
        boolean created = !Files.exists(file);
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        try {
            long have = ch.size();
            if (have > size) {
                ch.truncate(size); // a smaller size set since it was made; every record in it is applied
                ch.force(true);
            } else if (have < size) {
                ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
                for (long at = have; at < size; at += zeros.capacity()) {
                    zeros.clear().limit((int) Math.min(zeros.capacity(), size - at));
                    writeFully(ch, zeros, at);
                }
                ch.force(true);
            }
            if (created) {
                try (FileChannel dir = FileChannel.open(file.toAbsolutePath().getParent(), StandardOpenOption.READ)) {
                    dir.force(true);
                }
            }
            return new RowJournal(file, ch, size, next - 1);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** The lock appends run under (see the class comment); reentrant. */
    ReentrantLock lock() {
        return lock;
    }

    /** The sequence number of the last record written. Call under {@link #lock()} for a consistent cut. */
    long lastAppended() {
        lock.lock();
        try {
            return last;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Under the journal's lock: runs {@code publish} and, if it says true, writes {@code payload} as the next record
     * (positional write, not flushed). Returns the record's sequence number, to {@link #flush}; or {@link #NO_ROOM},
     * {@link #TOO_LARGE} or {@link #REFUSED} (also after {@link #fail}), having done nothing.
     *
     * @throws IOException the write failed: {@code publish} ran, the record may be torn or whole (its sequence number
     *     counts as written, so that the applied number a later LMDB commit records covers it), and the caller makes
     *     the rows durable otherwise and {@link #fail}s the journal
     */
    long append(byte[] payload, Publish publish) throws IOException {
        long length = HEADER + (long) payload.length;
        if (length > size) {
            return TOO_LARGE;
        }
        lock.lock();
        try {
            if (failed) {
                return REFUSED;
            }
            if (length > size - offset) {
                return NO_ROOM;
            }
            if (!publish.run()) {
                return REFUSED;
            }
            long sequence = last + 1;
            ByteBuffer record = ByteBuffer.allocate((int) length);
            record.putInt(payload.length).putLong(sequence).putInt(crc(payload.length, sequence, payload))
                    .put(payload).flip();
            last = sequence;
            writeFully(channel, record, offset);
            written = sequence;
            offset += length;
            appends.increment();
            return sequence;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns once the record with {@code sequence} is durable: after an {@code fdatasync} that began after it was
     * written (this caller's or another's).
     */
    void flush(long sequence) throws IOException {
        synchronized (flushLock) {
            if (flushed >= sequence) {
                return;
            }
            long upTo = written;
            channel.force(false);
            flushes.increment();
            flushed = upTo;
        }
    }

    /**
     * Every record up to {@code sequence} is in a durable LMDB commit: when that is every record written, the next
     * one starts a new lap at offset 0.
     */
    void applied(long sequence) {
        lock.lock();
        try {
            if (sequence >= last && offset > 0) {
                offset = 0;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Stops appending for good (a write or flush failed: what the file holds can no longer be counted on). */
    void fail() {
        failed = true;
    }

    /** The file. */
    Path file() {
        return file;
    }

    /** {@code fdatasync}s run since it was opened. */
    long flushCount() {
        return flushes.sum();
    }

    /** Records written since it was opened. */
    long appendCount() {
        return appends.sum();
    }

    /** Where the next record goes (tests). */
    long offset() {
        lock.lock();
        try {
            return offset;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    private static int crc(int length, long sequence, byte[] payload) {
        CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.allocate(12).putInt(length).putLong(sequence).flip());
        crc.update(payload);
        return (int) crc.getValue();
    }

    private static void readFully(FileChannel ch, ByteBuffer into, long at) throws IOException {
        long position = at;
        while (into.hasRemaining()) {
            int n = ch.read(into, position);
            if (n < 0) {
                throw new IOException("unexpected end of the row journal at " + position);
            }
            position += n;
        }
        into.flip();
    }

    private static void writeFully(FileChannel ch, ByteBuffer from, long at) throws IOException {
        long position = at;
        while (from.hasRemaining()) {
            position += ch.write(from, position);
        }
    }
}
