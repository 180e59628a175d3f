package org.tcnfs.nfs4.xdr;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.dcache.oncrpc4j.rpc.OncRpcException;

import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * Bounded decoding helpers.
 *
 * <p>oncrpc4j allocates an array of the announced length before it checks that the bytes are there, so a
 * forged length could make the server allocate gigabytes. Every variable-length item of a request is
 * decoded through these methods, each with the protocol's own bound.
 */
public final class XdrSupport {
    /** NFS4_FHSIZE: the longest file handle. */
    public static final int NFS4_FHSIZE = 128;
    /** NFS4_VERIFIER_SIZE. */
    public static final int NFS4_VERIFIER_SIZE = 8;
    /** NFS4_OTHER_SIZE: the opaque part of a stateid. */
    public static final int NFS4_OTHER_SIZE = 12;
    /** NFS4_SESSIONID_SIZE. */
    public static final int NFS4_SESSIONID_SIZE = 16;
    /** NFS4_OPAQUE_LIMIT: owners, client ids and similar opaques. */
    public static final int NFS4_OPAQUE_LIMIT = 1024;
    /** The longest string (names, tags, symlink targets) the server decodes. */
    public static final int MAX_STRING = 64 * 1024;
    /** The longest bitmap (in 32-bit words) the server decodes. */
    public static final int MAX_BITMAP_WORDS = 64;
    /** The largest number of elements of any array the server decodes, apart from the op array. */
    public static final int MAX_ARRAY = 64 * 1024;

    private XdrSupport() {
    }

    /** Decodes an array length and checks it against {@code max}. */
    public static int decodeLength(XdrDecodingStream xdr, int max) throws IOException {
        int len = xdr.xdrDecodeInt();
        if (len < 0 || len > max) {
            throw new MalformedXdrException("length " + (len & 0xffffffffL) + " exceeds " + max);
        }
        return len;
    }

    /**
     * Decodes a variable-length opaque of at most {@code max} bytes. A length beyond what is left of the
     * request is malformed before anything is allocated for it.
     */
    public static byte[] decodeOpaque(XdrDecodingStream xdr, int max) throws IOException {
        int len = decodeLength(xdr, max);
        requireAvailable(xdr, len);
        return len == 0 ? new byte[0] : xdr.xdrDecodeOpaque(len);
    }

    /**
     * Decodes a variable-length opaque bounded only by the bytes the request really carries (WRITE data):
     * a length longer than what is left of the request is malformed, and nothing is allocated for it. The
     * bytes are copied out, so the request buffer is not kept alive by them.
     */
    public static byte[] decodeOpaqueWithinRequest(XdrDecodingStream xdr) throws IOException {
        int len = xdr.xdrDecodeInt();
        if (len < 0) {
            throw new MalformedXdrException("negative length " + (len & 0xffffffffL));
        }
        if (xdr instanceof org.dcache.oncrpc4j.xdr.Xdr x && len > x.asBuffer().remaining()) {
            throw new MalformedXdrException("length " + len + " exceeds the " + x.asBuffer().remaining()
                    + " bytes left in the request");
        }
        return len == 0 ? new byte[0] : xdr.xdrDecodeOpaque(len);
    }

    /**
     * Checks that the request still holds {@code bytes} bytes, so that a claimed length is refused before
     * anything is allocated for it (oncrpc4j allocates first and checks after). Only oncrpc4j's
     * {@link org.dcache.oncrpc4j.xdr.Xdr} knows what is left; other streams are not checked.
     */
    private static void requireAvailable(XdrDecodingStream xdr, long bytes) throws MalformedXdrException {
        if (xdr instanceof org.dcache.oncrpc4j.xdr.Xdr x && bytes > x.asBuffer().remaining()) {
            throw new MalformedXdrException("length " + bytes + " exceeds the " + x.asBuffer().remaining()
                    + " bytes left in the request");
        }
    }

    /** Decodes a fixed-length opaque. */
    public static byte[] decodeFixedOpaque(XdrDecodingStream xdr, int len) throws IOException {
        return xdr.xdrDecodeOpaque(len);
    }

    /**
     * Decodes a variable-length int array of at most {@code max} elements; more elements than the request
     * has bytes for are malformed before the array is allocated.
     */
    public static int[] decodeIntArray(XdrDecodingStream xdr, int max) throws IOException {
        int len = decodeLength(xdr, max);
        requireAvailable(xdr, 4L * len);
        int[] values = new int[len];
        for (int i = 0; i < len; i++) {
            values[i] = xdr.xdrDecodeInt();
        }
        return values;
    }

    /**
     * Decodes a UTF-8 string of at most {@code max} bytes. Bytes that are not valid UTF-8 are kept as the
     * replacement character; callers that must refuse them use {@link #decodeStrictUtf8}.
     */
    public static String decodeString(XdrDecodingStream xdr, int max) throws IOException {
        byte[] bytes = decodeOpaque(xdr, max);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Decodes a UTF-8 string of at most {@code max} bytes, or returns {@code null} when the bytes are not
     * valid UTF-8 (the operation then answers NFS4ERR_INVAL).
     */
    public static String decodeStrictUtf8(XdrDecodingStream xdr, int max) throws IOException {
        byte[] bytes = decodeOpaque(xdr, max);
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** Whether {@code bytes} are valid UTF-8 (what a {@code utf8str_cs} must hold, RFC 8881 section 14). */
    public static boolean isUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /** Encodes a string as UTF-8 opaque. */
    public static void encodeString(XdrEncodingStream xdr, String s) {
        xdr.xdrEncodeDynamicOpaque(s.getBytes(StandardCharsets.UTF_8));
    }

    /** Decodes a boolean, refusing values other than 0 and 1. */
    public static boolean decodeBoolean(XdrDecodingStream xdr) throws IOException {
        int v = xdr.xdrDecodeInt();
        if (v != 0 && v != 1) {
            throw new MalformedXdrException("bool " + v);
        }
        return v == 1;
    }
}
