package org.tcnfs.nfs4.xdr;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.BadXdrOncRpcException;
import org.dcache.oncrpc4j.xdr.Xdr;

/**
 * Fuzzes {@code COMPOUND4args} with the arguments of every operation, as the server decodes them
 * ({@code NfsRpcService} answers a failure with GARBAGE_ARGS). Run with a small heap, so that an
 * allocation sized by a claimed length fails as OutOfMemoryError.
 *
 * <p>Properties: decoding allocates in proportion to the input ({@link AllocationMeter}), never what a
 * length claims before the bytes are there; it either succeeds or fails with {@link OncRpcException} (a bound or a discriminant:
 * {@link MalformedXdrException}) or {@link BadXdrOncRpcException} (the request ends early), nothing else;
 * what decodes (apart from names that are not valid UTF-8, which decode to {@code null} so that the
 * operation answers NFS4ERR_INVAL) encodes, and that encoding decodes to a value that encodes to the same
 * bytes.
 *
 * <p>The kept inputs start with one compound per operation, decoded from zero bytes and encoded again.
 */
public class Compound4ArgsFuzzTest {
    /** Decoding may allocate this much per byte of input (objects per operation), plus a fixed allowance. */
    static final int ALLOCATION_PER_BYTE = 64;

    @FuzzTest(maxDuration = "20s")
    void compoundArgsDecodeOrFailAsMalformed(byte[] input) throws IOException {
        decode(input); // once to load and instrument the classes it needs, which allocates too
        long before = AllocationMeter.allocatedSoFar();
        COMPOUND4args args = decode(input);
        long allocated = AllocationMeter.allocatedSoFar() - before;
        assertThat(allocated).as("bytes allocated decoding %d bytes", input.length)
                .isLessThanOrEqualTo(AllocationMeter.budget(input.length, ALLOCATION_PER_BYTE));
        if (args == null) {
            return;
        }
        if (holdsLossyString(args)) {
            // a string that is not valid UTF-8: a name, a netaddr4 or an nfs_impl_id4 string is kept as null
            // (NFS4ERR_INVAL), the tag holds U+FFFD, longer in UTF-8 than the bytes it replaced; neither encodes
            // back to what was sent
            return;
        }
        byte[] once = XdrRoundTrip.encode(args);
        COMPOUND4args again = XdrRoundTrip.decode(once, new COMPOUND4args());
        assertThat(XdrRoundTrip.encode(again)).isEqualTo(once);
    }

    /** The arguments {@code input} holds, or {@code null} if they are malformed. */
    private static COMPOUND4args decode(byte[] input) throws IOException {
        Xdr xdr = new Xdr(input);
        xdr.beginDecoding();
        COMPOUND4args args = new COMPOUND4args();
        try {
            args.xdrDecode(xdr);
            return args;
        } catch (OncRpcException | BadXdrOncRpcException e) {
            return null;
        }
    }

    /**
     * Whether a String field anywhere in {@code value} (an XDR type, its fields and arrays) is {@code null} or
     * holds U+FFFD, the marks of bytes that were not valid UTF-8.
     */
    public static boolean holdsLossyString(Object value) {
        if (value == null) {
            return false;
        }
        if (value instanceof Object[] array) {
            for (Object element : array) {
                if (holdsLossyString(element)) {
                    return true;
                }
            }
            return false;
        }
        if (!value.getClass().getPackageName().equals(COMPOUND4args.class.getPackageName())) {
            return false;
        }
        for (Field field : value.getClass().getFields()) {
            if (Modifier.isStatic(field.getModifiers())) {
                continue;
            }
            try {
                Object fieldValue = field.get(value);
                if (field.getType() == String.class
                        && (fieldValue == null || ((String) fieldValue).indexOf('\uFFFD') >= 0)
                        || holdsLossyString(fieldValue)) {
                    return true;
                }
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
        }
        return false;
    }
}
