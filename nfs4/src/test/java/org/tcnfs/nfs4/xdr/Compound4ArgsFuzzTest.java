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
 * <p>Properties: decoding either succeeds or fails with {@link OncRpcException} (a bound or a discriminant:
 * {@link MalformedXdrException}) or {@link BadXdrOncRpcException} (the request ends early), nothing else;
 * what decodes (apart from names that are not valid UTF-8, which decode to {@code null} so that the
 * operation answers NFS4ERR_INVAL) encodes, and that encoding decodes to a value that encodes to the same
 * bytes.
 *
 * <p>The kept inputs start with one compound per operation, decoded from zero bytes and encoded again.
 */
class Compound4ArgsFuzzTest {

    @FuzzTest(maxDuration = "25s")
    void compoundArgsDecodeOrFailAsMalformed(byte[] input) throws IOException {
        Xdr xdr = new Xdr(input);
        xdr.beginDecoding();
        COMPOUND4args args = new COMPOUND4args();
        try {
            args.xdrDecode(xdr);
        } catch (OncRpcException | BadXdrOncRpcException e) {
            return;
        }
        if (holdsNull(args)) {
            return; // a name that is not valid UTF-8: kept as null for NFS4ERR_INVAL, it has no encoding
        }
        byte[] once = XdrRoundTrip.encode(args);
        COMPOUND4args again = XdrRoundTrip.decode(once, new COMPOUND4args());
        assertThat(XdrRoundTrip.encode(again)).isEqualTo(once);
    }

    /** Whether a String field anywhere in {@code value} (an XDR type, its fields and arrays) is {@code null}. */
    static boolean holdsNull(Object value) {
        if (value == null) {
            return false;
        }
        if (value instanceof Object[] array) {
            for (Object element : array) {
                if (holdsNull(element)) {
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
                if (fieldValue == null && field.getType() == String.class || holdsNull(fieldValue)) {
                    return true;
                }
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
        }
        return false;
    }
}
