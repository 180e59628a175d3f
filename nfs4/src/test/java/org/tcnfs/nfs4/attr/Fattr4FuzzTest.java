package org.tcnfs.nfs4.attr;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.util.Set;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.BadXdrOncRpcException;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.AllocationMeter;
import org.tcnfs.nfs4.xdr.XdrRoundTrip;
import org.tcnfs.nfs4.xdr.fattr4;

/**
 * Fuzzes {@code fattr4} as SETATTR, OPEN and CREATE (settable attributes) and VERIFY/NVERIFY (a comparison
 * with the object's attributes) receive it. Run with a small heap, so that an allocation sized by a claimed
 * length fails as OutOfMemoryError.
 *
 * <p>Properties: the XDR decodes or fails as malformed, allocating in proportion to the input and never a
 * claimed length before its bytes are there, and what decodes encodes to a value that decodes
 * the same; the settable attributes decode or fail with the statuses {@link FileAttributes} documents
 * (ATTRNOTSUPP, INVAL, BADXDR, FBIG, BADOWNER); VERIFY fails only with ATTRNOTSUPP or INVAL, and the
 * attributes the server encodes for the requested mask always verify against the object they came from.
 */
class Fattr4FuzzTest {
    private static final Set<NfsStatus> SETTABLE_FAILURES = Set.of(NfsStatus.ATTRNOTSUPP, NfsStatus.INVAL,
            NfsStatus.BADXDR, NfsStatus.FBIG, NfsStatus.BADOWNER);
    private static final Set<NfsStatus> VERIFY_FAILURES = Set.of(NfsStatus.ATTRNOTSUPP, NfsStatus.INVAL);

    private final InMemoryFileSystem fs = new InMemoryFileSystem();
    private final CompoundContext context =
            AttrTestContexts.context(AttrTestContexts.server(fs, NfsLimits.DEFAULTS), Credential.ROOT);
    private final Inode file;
    private final Stat stat;

    Fattr4FuzzTest() throws IOException {
        file = fs.create(fs.getRootInode(), "f", Credential.ROOT, 0644);
        stat = fs.getattr(file);
    }

    @FuzzTest(maxDuration = "20s")
    void attributesDecodeOrFailWithTheirDocumentedStatus(byte[] input) throws IOException {
        decode(input); // once to load and instrument the classes it needs, which allocates too
        long before = AllocationMeter.allocatedSoFar();
        fattr4 attrs = decode(input);
        assertThat(AllocationMeter.allocatedSoFar() - before).as("bytes allocated decoding %d bytes", input.length)
                .isLessThanOrEqualTo(AllocationMeter.budget(input.length, 16));
        if (attrs == null) {
            return;
        }
        XdrRoundTrip.roundTrip(attrs, new fattr4());

        try {
            FileAttributes.decodeSettableWithMask(context, attrs);
        } catch (NfsException e) {
            assertThat(e.status()).as("status of %s", e).isIn(SETTABLE_FAILURES);
        }

        boolean verifiable;
        try {
            FileAttributes.matches(context, file, stat, attrs);
            verifiable = true;
        } catch (NfsException e) {
            assertThat(e.status()).as("status of %s", e).isIn(VERIFY_FAILURES);
            verifiable = false;
        }
        if (verifiable) {
            fattr4 mine = FileAttributes.encode(context, file, stat, attrs.attrmask);
            assertThat(FileAttributes.matches(context, file, stat, mine)).as("own attributes verify").isTrue();
        }
    }

    /** The {@code fattr4} that {@code input} holds, or {@code null} if it is malformed. */
    private static fattr4 decode(byte[] input) throws IOException {
        Xdr xdr = new Xdr(input);
        xdr.beginDecoding();
        fattr4 attrs = new fattr4();
        try {
            attrs.xdrDecode(xdr);
            return attrs;
        } catch (OncRpcException | BadXdrOncRpcException e) {
            return null;
        }
    }
}
