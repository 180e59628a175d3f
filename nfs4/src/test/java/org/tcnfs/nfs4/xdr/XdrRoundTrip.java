package org.tcnfs.nfs4.xdr;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.dcache.oncrpc4j.xdr.XdrAble;

/**
 * Test helper: XDR values to bytes and back, as a peer would send and receive them. Decoding insists that
 * every byte is consumed, so a type that reads less (or more) than it wrote fails the test.
 */
public final class XdrRoundTrip {

    private XdrRoundTrip() {
    }

    /** Writes raw XDR items (for bytes that no Java value encodes: bad discriminants, forged lengths). */
    @FunctionalInterface
    public interface Writer {
        void write(Xdr xdr) throws IOException;
    }

    /** The bytes {@code writer} puts on the wire. */
    public static byte[] bytes(Writer writer) throws IOException {
        Xdr xdr = new Xdr(1024);
        xdr.beginEncoding();
        writer.write(xdr);
        xdr.endEncoding();
        byte[] bytes = new byte[xdr.asBuffer().remaining()];
        xdr.asBuffer().get(bytes);
        return bytes;
    }

    /** The encoding of {@code value}. */
    public static byte[] encode(XdrAble value) throws IOException {
        return bytes(value::xdrEncode);
    }

    /** The XDR of {@code values}, one int after the other. */
    public static byte[] ints(int... values) throws IOException {
        return bytes(xdr -> {
            for (int v : values) {
                xdr.xdrEncodeInt(v);
            }
        });
    }

    /** Decodes {@code bytes} into {@code into}, which must consume all of them; returns {@code into}. */
    public static <T extends XdrAble> T decode(byte[] bytes, T into) throws IOException {
        Xdr xdr = new Xdr(bytes);
        xdr.beginDecoding();
        into.xdrDecode(xdr);
        assertThat(xdr.hasMoreData()).as("all bytes consumed").isFalse();
        xdr.endDecoding();
        return into;
    }

    /** Decodes the encoding of {@code value} and checks that it encodes to the same bytes again. */
    public static <T extends XdrAble> T roundTrip(XdrAble value, T into) throws IOException {
        byte[] bytes = encode(value);
        T back = decode(bytes, into);
        assertThat(encode(back)).isEqualTo(bytes);
        return back;
    }
}
