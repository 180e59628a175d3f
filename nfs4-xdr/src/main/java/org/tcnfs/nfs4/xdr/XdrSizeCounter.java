package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * An encoding stream that writes nothing and counts the bytes an encoding would take (RFC 4506: every item
 * padded to four bytes), so the size of a reply can be known before it is sent without copying its data.
 *
 * <p>Not thread-safe; one instance counts one encoding.
 */
public final class XdrSizeCounter implements XdrEncodingStream {
    private long bytes;

    /** The encoded size of {@code value} in bytes. */
    public static long sizeOf(XdrAble value) throws OncRpcException, IOException {
        XdrSizeCounter counter = new XdrSizeCounter();
        value.xdrEncode(counter);
        return counter.bytes;
    }

    /** The encoded size of an XDR string of {@code s} (length, UTF-8 bytes, padding). */
    public static long sizeOfString(String s) {
        return 4 + padded(s.getBytes(StandardCharsets.UTF_8).length);
    }

    /** Bytes counted so far. */
    public long bytes() {
        return bytes;
    }

    private static long padded(long n) {
        return (n + 3) & ~3L;
    }

    @Override
    public void beginEncoding() {
    }

    @Override
    public void endEncoding() {
    }

    @Override
    public void xdrEncodeInt(int value) {
        bytes += 4;
    }

    @Override
    public void xdrEncodeIntVector(int[] value) {
        bytes += 4 + 4L * value.length;
    }

    @Override
    public void xdrEncodeIntFixedVector(int[] value, int length) {
        bytes += 4L * length;
    }

    @Override
    public void xdrEncodeDynamicOpaque(byte[] value) {
        bytes += 4 + padded(value.length);
    }

    @Override
    public void xdrEncodeOpaque(byte[] value, int length) {
        bytes += padded(length);
    }

    @Override
    public void xdrEncodeOpaque(byte[] value, int offset, int length) {
        bytes += padded(length);
    }

    @Override
    public void xdrEncodeBoolean(boolean value) {
        bytes += 4;
    }

    @Override
    public void xdrEncodeString(String value) {
        bytes += sizeOfString(value);
    }

    @Override
    public void xdrEncodeLong(long value) {
        bytes += 8;
    }

    @Override
    public void xdrEncodeLongVector(long[] value) {
        bytes += 4 + 8L * value.length;
    }

    @Override
    public void xdrEncodeLongFixedVector(long[] value, int length) {
        bytes += 8L * length;
    }

    @Override
    public void xdrEncodeByteBuffer(ByteBuffer buf) {
        bytes += 4 + padded(buf.remaining());
    }

    @Override
    public void xdrEncodeFloat(float value) {
        bytes += 4;
    }

    @Override
    public void xdrEncodeDouble(double value) {
        bytes += 8;
    }

    @Override
    public void xdrEncodeFloatVector(float[] value) {
        bytes += 4 + 4L * value.length;
    }

    @Override
    public void xdrEncodeFloatFixedVector(float[] value, int length) {
        bytes += 4L * length;
    }

    @Override
    public void xdrEncodeDoubleVector(double[] value) {
        bytes += 4 + 8L * value.length;
    }

    @Override
    public void xdrEncodeDoubleFixedVector(double[] value, int length) {
        bytes += 8L * length;
    }

    @Override
    public void xdrEncodeByteVector(byte[] value) {
        bytes += 4 + 4L * value.length;
    }

    @Override
    public void xdrEncodeByteFixedVector(byte[] value, int length) {
        bytes += 4L * length;
    }

    @Override
    public void xdrEncodeByte(byte value) {
        bytes += 4;
    }

    @Override
    public void xdrEncodeShort(short value) {
        bytes += 4;
    }

    @Override
    public void xdrEncodeShortVector(short[] value) {
        bytes += 4 + 4L * value.length;
    }

    @Override
    public void xdrEncodeShortFixedVector(short[] value, int length) {
        bytes += 4L * length;
    }
}
