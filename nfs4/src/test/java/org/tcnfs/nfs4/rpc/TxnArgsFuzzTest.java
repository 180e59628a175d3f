package org.tcnfs.nfs4.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.util.Arrays;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.BadXdrOncRpcException;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.tcnfs.nfs4.xdr.AllocationMeter;
import org.tcnfs.nfs4.xdr.Compound4ArgsFuzzTest;
import org.tcnfs.nfs4.xdr.TXN_BEGIN4args;
import org.tcnfs.nfs4.xdr.TXN_COMPOUND4args;
import org.tcnfs.nfs4.xdr.XdrRoundTrip;
import org.tcnfs.nfs4.xdr.txnid4;

/**
 * Fuzzes the arguments of the procedures of transactions that span compounds (docs/protocol.md) as
 * {@link NfsRpcService} decodes them: the first input byte picks TXN_BEGIN, TXN_COMPOUND, TXN_COMMIT or TXN_ABORT,
 * the rest are its arguments. Run with a small heap.
 *
 * <p>Properties: the arguments decode, or fail as the server's GARBAGE_ARGS ({@link OncRpcException}, of which
 * {@link org.tcnfs.nfs4.xdr.MalformedXdrException}, or {@link BadXdrOncRpcException}), nothing else; decoding
 * allocates in proportion to the input; TXN_BEGIN, TXN_COMMIT and TXN_ABORT decode only from exactly their
 * size, and then encode back to the same bytes; a TXN_COMPOUND that decodes (without strings that are not valid
 * UTF-8) encodes, and decodes again to the same bytes.
 */
class TxnArgsFuzzTest {
    private static final int[] PROCEDURES = {NfsRpcService.PROC_TXN_BEGIN, NfsRpcService.PROC_TXN_COMPOUND,
        NfsRpcService.PROC_TXN_COMMIT, NfsRpcService.PROC_TXN_ABORT};
    /** As for COMPOUND4args: objects per operation, plus a fixed allowance. */
    private static final int ALLOCATION_PER_BYTE = 64;

    @FuzzTest(maxDuration = "20s")
    void txnArgumentsDecodeOrFailAsMalformed(byte[] input) throws IOException {
        if (input.length == 0) {
            return;
        }
        int proc = PROCEDURES[input[0] & 3];
        byte[] body = Arrays.copyOfRange(input, 1, input.length);
        decode(proc, body); // once to load the classes it needs
        long before = AllocationMeter.allocatedSoFar();
        XdrAble args = decode(proc, body);
        long allocated = AllocationMeter.allocatedSoFar() - before;
        assertThat(allocated).as("bytes allocated decoding %d bytes", body.length)
                .isLessThanOrEqualTo(AllocationMeter.budget(body.length, ALLOCATION_PER_BYTE));
        if (args == null) {
            return;
        }
        int fixed = NfsRpcService.fixedArgumentSize(proc);
        if (fixed >= 0) {
            assertThat(body).hasSize(fixed);
            assertThat(XdrRoundTrip.encode(args)).isEqualTo(body);
            return;
        }
        TXN_COMPOUND4args compound = (TXN_COMPOUND4args) args;
        if (Compound4ArgsFuzzTest.holdsLossyString(compound.compound)) {
            return;
        }
        byte[] once = XdrRoundTrip.encode(compound);
        TXN_COMPOUND4args again = XdrRoundTrip.decode(once, new TXN_COMPOUND4args());
        assertThat(again.txnid.value).isEqualTo(compound.txnid.value);
        assertThat(XdrRoundTrip.encode(again)).isEqualTo(once);
    }

    /** The arguments of {@code proc} that {@code body} holds, as the server decodes them, or null if malformed. */
    private static XdrAble decode(int proc, byte[] body) throws IOException {
        XdrAble args = switch (proc) {
            case NfsRpcService.PROC_TXN_BEGIN -> new TXN_BEGIN4args();
            case NfsRpcService.PROC_TXN_COMPOUND -> new TXN_COMPOUND4args();
            default -> new txnid4();
        };
        try {
            NfsRpcService.checkArgumentSize(proc, body.length);
            Xdr xdr = new Xdr(body);
            xdr.beginDecoding();
            args.xdrDecode(xdr);
            return args;
        } catch (OncRpcException | BadXdrOncRpcException e) {
            return null;
        }
    }
}
