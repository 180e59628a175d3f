package org.tcnfs.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.glassfish.grizzly.Buffer;

/** XDR values to and from byte arrays (to compare replies byte for byte, to build malformed requests). */
public final class XdrBytes {
    private XdrBytes() {
    }

    /** The XDR encoding of {@code value}. */
    public static byte[] encode(XdrAble value) {
        Xdr xdr = new Xdr(Xdr.INITIAL_XDR_SIZE);
        xdr.beginEncoding();
        try {
            value.xdrEncode(xdr);
        } catch (IOException e) {
            throw new UncheckedIOException("encoding " + value.getClass().getSimpleName(), e);
        }
        xdr.endEncoding();
        Buffer buffer = xdr.asBuffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    /** Decodes {@code bytes} into {@code target} and returns it. */
    public static <T extends XdrAble> T decode(byte[] bytes, T target) throws IOException {
        Xdr xdr = new Xdr(bytes);
        xdr.beginDecoding();
        target.xdrDecode(xdr);
        xdr.endDecoding();
        return target;
    }
}
