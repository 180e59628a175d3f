/**
 * Streaming transfers of single remote files of any size with bounded memory: {@link
 * org.tcnfs.client.stream.RemoteFiles} opens a file on the session of a {@link org.tcnfs.client.vector.VnfsClient}
 * for writing ({@link org.tcnfs.client.stream.RemoteFileWriter}, an {@code OutputStream}) or reading ({@link
 * org.tcnfs.client.stream.RemoteFileReader}, an {@code InputStream}). Data moves in READs and WRITEs of the
 * server's {@code maxread}/{@code maxwrite}, several compounds in flight on the session's slots; writes are
 * UNSTABLE and made durable by one COMMIT at close.
 *
 * <p>Memory: at most {@code inFlight + 1} buffers of one READ/WRITE each per open stream, whatever the file's
 * size. Threading: one stream is used by one thread; its compounds run on a small pool of its own, closed with
 * the stream. Exceptions: every failure is an {@link java.io.IOException}; an NFS status is its
 * {@link org.tcnfs.nfs4.status.NfsException}. A failed writer leaves the remote file partly written.
 */
package org.tcnfs.client.stream;
