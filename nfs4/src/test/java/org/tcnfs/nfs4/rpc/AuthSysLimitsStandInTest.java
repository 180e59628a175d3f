package org.tcnfs.nfs4.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.rpc.RpcRecordHarness.Outcome;

/** The finding the RPC fuzz target starts from, and the stand-in check that keeps the target past it. */
class AuthSysLimitsStandInTest {

    /** A COMPOUND call whose AUTH_SYS credential claims {@code gids} gids and carries none. */
    static byte[] callClaimingGids(int gids) {
        ByteBuffer b = ByteBuffer.allocate(60);
        b.putInt(1).putInt(0).putInt(2).putInt(NfsRpcService.NFS_PROGRAM).putInt(4).putInt(1);
        b.putInt(1).putInt(20).putInt(0).putInt(0).putInt(0).putInt(0).putInt(gids); // stamp, "", uid, gid
        b.putInt(0).putInt(0); // verifier AUTH_NONE
        return b.array();
    }

    @Test
    void oncrpc4jAllocatesTheGidsACredentialClaimsBeforeReadingThem() {
        RpcRecordHarness unchecked = new RpcRecordHarness(record -> true);
        assertThatThrownBy(() -> unchecked.receive(callClaimingGids(Integer.MAX_VALUE)))
                .isInstanceOf(OutOfMemoryError.class);
    }

    /** A NULL call with an AUTH_TLS credential (RFC 9289), as a client probing for RPC-with-TLS sends it. */
    static byte[] authTlsProbe() {
        ByteBuffer b = ByteBuffer.allocate(40);
        b.putInt(7).putInt(0).putInt(2).putInt(NfsRpcService.NFS_PROGRAM).putInt(4).putInt(0);
        b.putInt(AuthSysLimitsStandIn.AUTH_TLS).putInt(0).putInt(0).putInt(0);
        return b.array();
    }

    @Test
    void oncrpc4jStartsTlsForAnAuthTlsCallAndFailsUncheckedWithoutIt() {
        RpcRecordHarness unchecked = new RpcRecordHarness(record -> true);
        assertThatThrownBy(() -> unchecked.receive(authTlsProbe())).isInstanceOf(java.util.NoSuchElementException.class);
        assertThat(new AuthSysLimitsStandIn().admits(authTlsProbe())).isFalse();
    }

    @Test
    void standInRefusesMoreThanSixteenGidsAndNegativeCounts() throws IOException {
        RpcRecordHarness checked = new RpcRecordHarness(new AuthSysLimitsStandIn());
        assertThat(checked.receive(callClaimingGids(Integer.MAX_VALUE))).isEqualTo(Outcome.REFUSED_IN_FRONT);
        assertThat(checked.receive(callClaimingGids(17))).isEqualTo(Outcome.REFUSED_IN_FRONT);
        assertThat(checked.receive(callClaimingGids(-1))).isEqualTo(Outcome.REFUSED_IN_FRONT);
    }
}
