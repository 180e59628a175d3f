package org.tcnfs.client.stream;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_COMMIT;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_WRITE;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.nfs4.xdr.COMMIT4resok;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.WRITE4resok;
import org.tcnfs.nfs4.xdr.stable_how4;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * A remote file opened for writing by {@link RemoteFiles#create}: bytes written to it go out in UNSTABLE WRITEs
 * of {@link RemoteFiles#writeSize()} bytes, up to {@link RemoteFiles#inFlight()} at once; {@link #close()} waits
 * for them, COMMITs, sets the times and mode asked for, and CLOSEs the open. A WRITE that failed makes the
 * next call (at the latest {@code close}) throw. When the server's write verifier changes between the WRITEs
 * and the COMMIT (it restarted and may have lost unstable data), {@code close} throws: the file must be
 * written again.
 */
public final class RemoteFileWriter extends OutputStream {
    private final RemoteFiles files;
    private final String path;
    private final byte[] handle;
    private final stateid4 open;
    private final LongConsumer progress;
    private final int chunk;
    private final ExecutorService pool;
    /** Free buffers; a WRITE in flight holds one, so taking one waits while all are out. */
    private final BlockingQueue<byte[]> free;
    private final int buffers;
    /** Buffers allocated so far (at most {@link #buffers}); each is free, being filled, or in a WRITE. */
    private int buffersMade;
    private final AtomicReference<IOException> failure = new AtomicReference<>();
    private final AtomicReference<byte[]> verifier = new AtomicReference<>();
    private byte[] current;
    private int fill;
    private long offset;
    private Instant modifyTime;
    private Integer mode;
    private boolean closed;

    RemoteFileWriter(RemoteFiles files, String path, byte[] handle, stateid4 open, LongConsumer progress) {
        this.files = files;
        this.path = path;
        this.handle = handle;
        this.open = open;
        this.progress = progress;
        this.chunk = files.writeSize();
        this.buffers = files.inFlight() + 1;
        this.free = new ArrayBlockingQueue<>(buffers);
        this.pool = files.pool("write");
    }

    /** The file's path, relative to the export. */
    public String path() {
        return path;
    }

    /** Bytes written so far (handed over, not necessarily acknowledged). */
    public long position() {
        return offset + fill;
    }

    /** Sets the file's modification time at {@link #close()}. */
    public void setModifyTime(Instant time) {
        this.modifyTime = time;
    }

    /** Sets the file's permission bits at {@link #close()} (also when it existed before). */
    public void setMode(int bits) {
        this.mode = bits & 07777;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        ensureOpen();
        while (len > 0) {
            byte[] buf = buffer();
            int n = Math.min(len, chunk - fill);
            System.arraycopy(b, off, buf, fill, n);
            fill += n;
            off += n;
            len -= n;
            if (fill == chunk) {
                dispatch();
            }
        }
    }

    /**
     * Writes everything {@code in} holds, reading it straight into the WRITE buffers; does not close it.
     *
     * @return the bytes copied
     */
    public long transferFrom(InputStream in) throws IOException {
        ensureOpen();
        long total = 0;
        while (true) {
            byte[] buf = buffer();
            int n = in.read(buf, fill, chunk - fill);
            if (n < 0) {
                return total;
            }
            fill += n;
            total += n;
            if (fill == chunk) {
                dispatch();
            }
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException(path + ": stream closed");
        }
        IOException f = failure.get();
        if (f != null) {
            throw new IOException(path + ": " + f.getMessage(), f);
        }
    }

    /** The buffer being filled, taking a free one (waiting for a WRITE to finish) when there is none. */
    private byte[] buffer() throws IOException {
        if (current != null) {
            return current;
        }
        byte[] b = free.poll();
        if (b == null) {
            if (buffersMade < buffers) {
                buffersMade++;
                b = new byte[chunk];
            } else {
                b = take();
            }
        }
        if (failure.get() != null) {
            free.add(b); // close() waits for every buffer to come back
            ensureOpen();
        }
        current = b;
        fill = 0;
        return b;
    }

    private byte[] take() throws InterruptedIOException {
        try {
            return free.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted writing " + path);
        }
    }

    /** Sends the current buffer's bytes as one WRITE in the background. */
    private void dispatch() {
        byte[] buf = current;
        int n = fill;
        long at = offset;
        current = null;
        offset += n;
        fill = 0;
        pool.execute(() -> {
            try {
                if (failure.get() == null) {
                    writeChunk(buf, n, at);
                }
            } catch (IOException | RuntimeException e) {
                failure.compareAndSet(null, e instanceof IOException io ? io : new IOException(e.toString(), e));
            } finally {
                free.add(buf);
            }
        });
    }

    private void writeChunk(byte[] buf, int n, long at) throws IOException {
        int done = 0;
        while (done < n) {
            CompoundBuilder ops = new CompoundBuilder().tag("stream-write").putfh(handle)
                    .op(OP_WRITE, new WRITE4args(open, at + done, stable_how4.UNSTABLE4,
                            ByteBuffer.wrap(buf, done, n - done).slice()));
            CompoundResult r = files.send(ops);
            WRITE4resok ok = r.body(OP_WRITE, WRITE4resok.class);
            checkVerifier(ok.writeverf.value);
            if (ok.count <= 0) {
                throw new IOException("the server wrote nothing at offset " + (at + done));
            }
            done += ok.count;
            progress.accept(ok.count);
        }
    }

    private void checkVerifier(byte[] v) throws IOException {
        byte[] first = verifier.updateAndGet(old -> old == null ? v.clone() : old);
        if (!Arrays.equals(first, v)) {
            throw new IOException("the server restarted while " + path + " was written (write verifier changed); "
                    + "write it again");
        }
    }

    /** Waits until every WRITE sent has finished. */
    private void drain() throws IOException {
        for (int i = 0; i < buffersMade; i++) {
            take();
        }
        buffersMade = 0;
        free.clear();
    }

    /**
     * Sends what is left, waits for every WRITE, then COMMIT, SETATTR (times, mode, when set) and CLOSE in one
     * compound. Throws the first failure; the open is closed in any case. Calling it again does nothing.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            if (current != null && fill > 0 && failure.get() == null) {
                dispatch();
            } else if (current != null) {
                free.add(current);
                current = null;
            }
            drain();
        } finally {
            closed = true;
            pool.shutdownNow();
        }
        IOException f = failure.get();
        CompoundBuilder ops = new CompoundBuilder().tag("stream-close").putfh(handle);
        if (f == null) {
            ops.commit(0, 0);
            if (mode != null || modifyTime != null) {
                Attrs.Builder a = Attrs.builder();
                if (mode != null) {
                    a.mode(mode);
                }
                if (modifyTime != null) {
                    a.timeModifySet(modifyTime.getEpochSecond(), modifyTime.getNano());
                }
                ops.setattr(open, a.build());
            }
        }
        ops.close(open);
        try {
            CompoundResult r = files.send(ops);
            if (f == null) {
                checkVerifier(r.body(OP_COMMIT, COMMIT4resok.class).writeverf.value);
            }
        } catch (IOException e) {
            if (f == null) {
                throw new IOException(path + ": " + e.getMessage(), e);
            }
        }
        if (f != null) {
            throw new IOException(path + ": " + f.getMessage(), f);
        }
    }
}
