package org.tcnfs.client.stream;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READ;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.LongConsumer;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.nfs4.xdr.READ4resok;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * A remote file opened for reading by {@link RemoteFiles#openRead}: READs of {@link RemoteFiles#readSize()}
 * bytes go out ahead of the reader, up to {@link RemoteFiles#inFlight()} at once, and are handed out in order.
 * The stream ends where the server says the file ends (a file that grows while it is read is read to its new
 * end). {@link #close()} CLOSEs the open.
 */
public final class RemoteFileReader extends InputStream {
    private final RemoteFiles files;
    private final String path;
    private final byte[] handle;
    private final stateid4 open;
    private final long size;
    private final int mode;
    private final Instant modifyTime;
    private final LongConsumer progress;
    private final int chunk;
    private final ExecutorService pool;
    /** READs sent, in file order. */
    private final Deque<Pending> pending = new ArrayDeque<>();
    /** Where the next READ to send starts. */
    private long next;
    /** Whether a READ answered end of file: no more are sent. */
    private boolean ended;
    private ByteBuffer current = ByteBuffer.allocate(0);
    private boolean closed;

    /** A READ in flight: where it starts, how much it asks for, its answer. */
    private record Pending(long offset, int count, Future<READ4resok> answer) {
    }

    RemoteFileReader(RemoteFiles files, String path, byte[] handle, stateid4 open, long size, int mode,
            Instant modifyTime, LongConsumer progress) {
        this.files = files;
        this.path = path;
        this.handle = handle;
        this.open = open;
        this.size = size;
        this.mode = mode;
        this.modifyTime = modifyTime;
        this.progress = progress;
        this.chunk = files.readSize();
        this.pool = files.pool("read");
    }

    /** The file's path, relative to the export. */
    public String path() {
        return path;
    }

    /** The file's size when it was opened. */
    public long size() {
        return size;
    }

    /** The file's permission bits when it was opened. */
    public int mode() {
        return mode;
    }

    /** The file's modification time when it was opened. */
    public Instant modifyTime() {
        return modifyTime;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(len, current.remaining());
        current.get(b, off, n);
        return n;
    }

    @Override
    public int available() {
        return current.remaining();
    }

    /** Copies the rest of the file to {@code out}, a READ's bytes at a time; does not close it. */
    @Override
    public long transferTo(OutputStream out) throws IOException {
        long total = 0;
        while (fill()) {
            int n = current.remaining();
            if (current.hasArray()) {
                out.write(current.array(), current.arrayOffset() + current.position(), n);
                current.position(current.limit());
            } else {
                byte[] b = new byte[n];
                current.get(b);
                out.write(b);
            }
            total += n;
        }
        return total;
    }

    /** Makes {@link #current} hold unread bytes; false at the end of the file. */
    private boolean fill() throws IOException {
        if (closed) {
            throw new IOException(path + ": stream closed");
        }
        while (!current.hasRemaining()) {
            sendAhead();
            Pending p = pending.pollFirst();
            if (p == null) {
                return false;
            }
            READ4resok r = await(p);
            ByteBuffer data = r.data;
            int got = data.remaining();
            if (r.eof || got == 0) {
                ended = true;
                cancelPending();
            } else if (got < p.count()) {
                // a short READ before the end: read the gap now, the READs after it are already on their way
                ByteBuffer whole = ByteBuffer.allocate(p.count());
                whole.put(data);
                long at = p.offset() + got;
                while (whole.hasRemaining()) {
                    READ4resok more = readChunk(at, whole.remaining());
                    int n = more.data.remaining();
                    whole.put(more.data);
                    at += n;
                    if (more.eof || n == 0) {
                        ended = true;
                        cancelPending();
                        break;
                    }
                }
                whole.flip();
                data = whole;
            }
            current = data;
            progress.accept(current.remaining());
        }
        return true;
    }

    /** Sends READs until {@link RemoteFiles#inFlight()} are outstanding, unless the end was seen. */
    private void sendAhead() {
        while (!ended && pending.size() < files.inFlight()) {
            if (next >= size && !pending.isEmpty()) {
                return; // past the size seen at OPEN: one READ at a time until the end shows
            }
            long at = next;
            next += chunk;
            pending.addLast(new Pending(at, chunk, pool.submit(() -> readChunk(at, chunk))));
        }
    }

    private READ4resok readChunk(long at, int count) throws IOException {
        CompoundBuilder ops = new CompoundBuilder().tag("stream-read").putfh(handle).read(open, at, count);
        return files.send(ops).body(OP_READ, READ4resok.class);
    }

    private READ4resok await(Pending p) throws IOException {
        try {
            return p.answer().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted reading " + path);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw new IOException(path + " at offset " + p.offset() + ": " + c.getMessage(), c);
        }
    }

    private void cancelPending() {
        for (Pending p : pending) {
            p.answer().cancel(false);
        }
        pending.clear();
    }

    /** CLOSEs the open (READs still in flight are dropped). Calling it again does nothing. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        cancelPending();
        pool.shutdown();
        try {
            files.send(new CompoundBuilder().tag("stream-close").putfh(handle).close(open));
        } finally {
            pool.shutdownNow();
        }
    }
}
