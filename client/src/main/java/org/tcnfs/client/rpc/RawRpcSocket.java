package org.tcnfs.client.rpc;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * A plain TCP socket that speaks ONC RPC record marking (RFC 5531, section 11) and nothing more, for
 * tests that send what no RPC library would: broken headers, truncated records, random bytes.
 *
 * <p>Not thread-safe. Reads time out after the timeout given at connect.
 */
public final class RawRpcSocket implements AutoCloseable {
    private static final int LAST_FRAGMENT = 0x80000000;
    private static final int MAX_REPLY = 64 * 1024 * 1024;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    private RawRpcSocket(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Connects; reads wait at most {@code timeout}. */
    public static RawRpcSocket connect(InetSocketAddress address, Duration timeout) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(address, (int) timeout.toMillis());
            s.setSoTimeout((int) timeout.toMillis());
            s.setTcpNoDelay(true);
            return new RawRpcSocket(s);
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    /** Sends {@code payload} as one record (a single last fragment). */
    public void sendRecord(byte[] payload) throws IOException {
        DataOutputStream d = new DataOutputStream(out);
        d.writeInt(LAST_FRAGMENT | payload.length);
        d.write(payload);
        d.flush();
    }

    /** Sends bytes exactly as given, without record marking. */
    public void sendBytes(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /**
     * Reads one reply record (all its fragments).
     *
     * @return the record, or empty when the server closed the connection first
     * @throws java.net.SocketTimeoutException when nothing complete arrives in time
     */
    public Optional<byte[]> readRecord() throws IOException {
        ByteArrayOutputStream record = new ByteArrayOutputStream();
        while (true) {
            int mark;
            try {
                mark = in.readInt();
            } catch (EOFException e) {
                return Optional.empty();
            }
            int length = mark & ~LAST_FRAGMENT;
            if (record.size() + length > MAX_REPLY) {
                throw new IOException("reply record longer than " + MAX_REPLY + " bytes");
            }
            byte[] fragment = new byte[length];
            in.readFully(fragment);
            record.write(fragment);
            if ((mark & LAST_FRAGMENT) != 0) {
                return Optional.of(record.toByteArray());
            }
        }
    }

    /**
     * A well-formed RPC CALL header with AUTH_SYS credentials and an AUTH_NONE verifier; append the
     * procedure's arguments to it.
     */
    public static byte[] callHeader(int xid, int program, int version, int procedure, AuthSys auth) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(b);
        try {
            d.writeInt(xid);
            d.writeInt(0); // CALL
            d.writeInt(2); // RPC version
            d.writeInt(program);
            d.writeInt(version);
            d.writeInt(procedure);
            byte[] machine = auth.machine().getBytes(StandardCharsets.UTF_8);
            int[] gids = auth.gids();
            int bodyLength = 4 + 4 + padded(machine.length) + 4 + 4 + 4 + 4 * gids.length;
            d.writeInt(1); // AUTH_SYS
            d.writeInt(bodyLength);
            d.writeInt(0); // stamp
            d.writeInt(machine.length);
            d.write(machine);
            d.write(new byte[padded(machine.length) - machine.length]);
            d.writeInt(auth.uid());
            d.writeInt(auth.gid());
            d.writeInt(gids.length);
            for (int g : gids) {
                d.writeInt(g);
            }
            d.writeInt(0); // verifier AUTH_NONE
            d.writeInt(0);
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory failed", e);
        }
        return b.toByteArray();
    }

    private static int padded(int length) {
        return (length + 3) & ~3;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
