package org.tcnfs.nfs4.xdr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.tcnfs.nfs4.xdr.XdrRoundTrip.encode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.junit.jupiter.api.Test;

/**
 * Decoding COMPOUND4args never fails with anything but an IOException (which the RPC layer answers with
 * GARBAGE_ARGS), whatever the bytes: truncated, random, or with forged lengths.
 */
class Compound4ArgsDecodingTest {

    private static COMPOUND4args decode(byte[] bytes) throws IOException {
        Xdr xdr = new Xdr(bytes);
        xdr.beginDecoding();
        COMPOUND4args args = new COMPOUND4args();
        args.xdrDecode(xdr);
        return args;
    }

    private static COMPOUND4args sample() {
        COMPOUND4args args = new COMPOUND4args();
        args.tag = "sample";
        args.minorversion = 1;
        byte[] data = new byte[100];
        Arrays.fill(data, (byte) 7);
        args.argarray = new nfs_argop4[] {
            new nfs_argop4(nfs_opnum4.OP_PUTROOTFH, null),
            new nfs_argop4(nfs_opnum4.OP_LOOKUP, new LOOKUP4args("dir")),
            new nfs_argop4(nfs_opnum4.OP_WRITE, new WRITE4args(new stateid4(), 0, 2, ByteBuffer.wrap(data))),
            new nfs_argop4(nfs_opnum4.OP_GETFH, null),
        };
        return args;
    }

    @Test
    void validCompoundRoundTrips() throws IOException {
        COMPOUND4args back = decode(encode(sample()));
        assertThat(back.tag).isEqualTo("sample");
        assertThat(back.minorversion).isEqualTo(1);
        assertThat(back.argarray).extracting(op -> op.argop).containsExactly(nfs_opnum4.OP_PUTROOTFH,
                nfs_opnum4.OP_LOOKUP, nfs_opnum4.OP_WRITE, nfs_opnum4.OP_GETFH);
        assertThat(((LOOKUP4args) back.argarray[1].args).objname).isEqualTo("dir");
        assertThat(((WRITE4args) back.argarray[2].args).data.remaining()).isEqualTo(100);
    }

    @Test
    void everyTruncationFailsWithAnIoException() throws IOException {
        byte[] full = encode(sample());
        for (int len = 0; len < full.length; len++) {
            byte[] cut = Arrays.copyOf(full, len);
            try {
                COMPOUND4args args = decode(cut);
                // A cut exactly between operations cannot be told from a shorter array only if the count
                // says so; here the count says 4, so every strict prefix must fail.
                fail("prefix of " + len + " bytes decoded to " + args.argarray.length + " operations");
            } catch (IOException expected) {
                // the RPC layer turns this into GARBAGE_ARGS
            }
        }
    }

    @Test
    void randomBytesNeverEscapeAsAnythingButIoException() {
        Random random = new Random(20261122L);
        byte[] valid;
        try {
            valid = encode(sample());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        for (int i = 0; i < 20_000; i++) {
            byte[] bytes;
            if (i % 2 == 0) {
                bytes = new byte[random.nextInt(200)];
                random.nextBytes(bytes);
            } else {
                bytes = valid.clone();
                for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
                    bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
                }
            }
            try {
                decode(bytes);
            } catch (IOException expected) {
                // fine
            } catch (RuntimeException | OutOfMemoryError e) {
                throw new AssertionError("seed 20261122, case " + i + ": " + e, e);
            }
        }
    }

    @Test
    void forgedHugeOperationCountIsRefusedWithoutAllocating() {
        byte[] bytes = ByteBuffer.allocate(16).putInt(0).putInt(1).putInt(0x7fffffff).putInt(nfs_opnum4.OP_GETFH)
                .array();
        assertThatThrownBy(() -> decode(bytes)).isInstanceOf(IOException.class);
    }

    @Test
    void forgedHugeTagLengthIsRefused() {
        byte[] bytes = ByteBuffer.allocate(8).putInt(0x7ffffff0).putInt(0).array();
        assertThatThrownBy(() -> decode(bytes)).isInstanceOf(IOException.class);
    }

    @Test
    void unknownOperationStopsDecodingAsOpIllegal() throws IOException {
        byte[] bytes = ByteBuffer.allocate(24).putInt(0).putInt(1).putInt(3).putInt(nfs_opnum4.OP_GETFH)
                .putInt(9999).putInt(nfs_opnum4.OP_GETFH).array();
        COMPOUND4args args = decode(bytes);
        assertThat(args.argarray).extracting(op -> op.argop)
                .containsExactly(nfs_opnum4.OP_GETFH, nfs_opnum4.OP_ILLEGAL);
    }

    @Test
    void aNameLongerThanWhatIsLeftOfTheRequestIsMalformedBeforeItIsAllocated() throws IOException {
        // found by Compound4ArgsFuzzTest: a 29-byte CREATE claiming a 64 KiB name made the decoder allocate 64 KiB
        byte[] bytes = ByteBuffer.allocate(32).putInt(0).putInt(1).putInt(1).putInt(nfs_opnum4.OP_CREATE)
                .putInt(nfs_ftype4.NF4DIR).putInt(XdrSupport.MAX_STRING).putInt(0x61626364).array();
        decodeQuietly(bytes); // loads the classes, which allocates too
        long before = AllocationMeter.allocatedSoFar();
        assertThatThrownBy(() -> decode(bytes)).isInstanceOf(MalformedXdrException.class)
                .hasMessageContaining("bytes left in the request");
        assertThat(AllocationMeter.allocatedSoFar() - before).isLessThan(16 * 1024);
    }

    private static void decodeQuietly(byte[] bytes) {
        try {
            decode(bytes);
        } catch (IOException e) {
            // expected
        }
    }
}
