package org.tcnfs.nfs4.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RpcCredentialCheckTest {

    /** An RPC call to NFSv4 NULL with an AUTH_SYS credential of the given parts and an AUTH_NONE verifier. */
    static ByteBuffer call(String machine, int claimedGids, int presentGids) {
        byte[] name = machine.getBytes(StandardCharsets.UTF_8);
        int padded = (name.length + 3) & ~3;
        int body = 4 + 4 + padded + 4 + 4 + 4 + 4 * presentGids;
        ByteBuffer b = ByteBuffer.allocate(6 * 4 + 8 + body + 8);
        b.putInt(7).putInt(0).putInt(2).putInt(100003).putInt(4).putInt(0);
        b.putInt(1).putInt(body);
        b.putInt(0).putInt(name.length).put(name).position(b.position() + padded - name.length);
        b.putInt(0).putInt(0).putInt(claimedGids);
        for (int i = 0; i < presentGids; i++) {
            b.putInt(100 + i);
        }
        b.putInt(0).putInt(0);
        return b.flip();
    }

    @Test
    void anOrdinaryAuthSysCallPasses() {
        assertThat(RpcCredentialCheck.check(call("client", 3, 3))).isEqualTo(RpcCredentialCheck.Verdict.PASS);
        assertThat(RpcCredentialCheck.check(call("c".repeat(255), 16, 16)).passes()).isTrue();
    }

    @Test
    void moreThanSixteenGidsIsABadCredential() {
        RpcCredentialCheck.Verdict v = RpcCredentialCheck.check(call("client", 17, 17));
        assertThat(v.authStat()).isEqualTo(RpcCredentialCheck.AUTH_BADCRED);
        assertThat(v.reason()).contains("17 gids");
    }

    @Test
    void aClaimOfTwoToTheThirtyOneGidsIsRefusedWithoutReadingThem() {
        RpcCredentialCheck.Verdict v = RpcCredentialCheck.check(call("x", Integer.MAX_VALUE, 0));
        assertThat(v.authStat()).isEqualTo(RpcCredentialCheck.AUTH_BADCRED);
        assertThat(RpcCredentialCheck.check(call("x", -1, 0)).authStat()).isEqualTo(RpcCredentialCheck.AUTH_BADCRED);
    }

    @Test
    void aMachineNameOverTwoHundredFiftyFiveBytesIsABadCredential() {
        assertThat(RpcCredentialCheck.check(call("m".repeat(256), 0, 0)).authStat())
                .isEqualTo(RpcCredentialCheck.AUTH_BADCRED);
    }

    @Test
    void aCredentialBodyOverFourHundredBytesIsABadCredential() {
        ByteBuffer b = call("client", 0, 0);
        b.putInt(28, 401);
        assertThat(RpcCredentialCheck.check(b).reason()).contains("401 bytes");
        b.putInt(28, 0xffffffff);
        assertThat(RpcCredentialCheck.check(b).authStat()).isEqualTo(RpcCredentialCheck.AUTH_BADCRED);
    }

    @Test
    void gidsThatDoNotFillTheBodyAreABadCredential() {
        assertThat(RpcCredentialCheck.check(call("client", 2, 3)).passes()).isFalse();
        assertThat(RpcCredentialCheck.check(call("client", 3, 2)).passes()).isFalse();
    }

    @Test
    void aHugeVerifierIsABadVerifier() {
        ByteBuffer b = call("client", 0, 0);
        b.putInt(b.limit() - 4, Integer.MAX_VALUE);
        assertThat(RpcCredentialCheck.check(b).authStat()).isEqualTo(RpcCredentialCheck.AUTH_BADVERF);
    }

    @Test
    void shortMessagesAndRepliesPassToTheDecoderUntouched() {
        ByteBuffer b = call("client", 0, 0);
        int position = b.position();
        assertThat(RpcCredentialCheck.check(b.duplicate().limit(20)).passes()).isTrue();
        b.putInt(4, 1);
        assertThat(RpcCredentialCheck.check(b).passes()).isTrue();
        assertThat(b.position()).isEqualTo(position);
    }

    @Test
    void everyTruncationOfACallIsHandledWithoutAnException() {
        ByteBuffer full = call("client.example", 16, 16);
        for (int n = 0; n <= full.limit(); n++) {
            RpcCredentialCheck.check(full.duplicate().limit(n));
        }
    }

    /** An RPC call to NFSv4 NULL with a credential of {@code flavor} and an empty body, and an AUTH_NONE verifier. */
    static ByteBuffer callWithFlavor(int flavor) {
        ByteBuffer b = ByteBuffer.allocate(6 * 4 + 8 + 8);
        b.putInt(7).putInt(0).putInt(2).putInt(100003).putInt(4).putInt(0);
        b.putInt(flavor).putInt(0).putInt(0).putInt(0);
        return b.flip();
    }

    @Test
    void everyFlavorButAuthNoneAndAuthSysIsABadCredential() {
        assertThat(RpcCredentialCheck.check(callWithFlavor(RpcCredentialCheck.AUTH_NONE)).passes()).isTrue();
        for (int flavor : new int[] {2, 3, RpcCredentialCheck.RPCSEC_GSS, RpcCredentialCheck.AUTH_TLS, 390003, -1}) {
            RpcCredentialCheck.Verdict v = RpcCredentialCheck.check(callWithFlavor(flavor));
            assertThat(v.authStat()).as("flavor %d", flavor).isEqualTo(RpcCredentialCheck.AUTH_BADCRED);
            assertThat(v.reason()).contains("not served");
        }
        assertThat(RpcCredentialCheck.check(callWithFlavor(RpcCredentialCheck.AUTH_TLS)).reason())
                .contains("flavor 7 (AUTH_TLS)");
    }

    @Test
    void anRpcsecGssCredentialClaimingAHugeHandleIsABadCredentialBeforeItsFieldsAreRead() {
        // gss_proc DATA, seq 1, service none, then a handle claiming 2^31-1 bytes, inside a 20-byte body
        ByteBuffer b = ByteBuffer.allocate(6 * 4 + 8 + 20 + 8);
        b.putInt(7).putInt(0).putInt(2).putInt(100003).putInt(4).putInt(1);
        b.putInt(RpcCredentialCheck.RPCSEC_GSS).putInt(20).putInt(1).putInt(0).putInt(1).putInt(1)
                .putInt(Integer.MAX_VALUE);
        b.putInt(0).putInt(0);
        assertThat(RpcCredentialCheck.check(b.flip()).authStat()).isEqualTo(RpcCredentialCheck.AUTH_BADCRED);
    }

    @Test
    void anAuthTlsFlavorThatEndsTheRecordIsABadCredential() {
        ByteBuffer b = callWithFlavor(RpcCredentialCheck.AUTH_TLS).limit(7 * 4);
        assertThat(RpcCredentialCheck.check(b).authStat()).isEqualTo(RpcCredentialCheck.AUTH_BADCRED);
        ByteBuffer sys = callWithFlavor(RpcCredentialCheck.AUTH_SYS).limit(7 * 4 + 3);
        assertThat(RpcCredentialCheck.check(sys).reason()).contains("length missing");
    }

    @Test
    void anAuthSysBodyLongerThanItsFieldsCannotHideAVerifierLength() {
        // fields of 28 bytes in a body claiming 36: oncrpc4j would read the verifier from the last 8 bytes of
        // the body (flavor 0x35535353, length 0x53535353, 1.4 GB) and allocate its length
        ByteBuffer b = ByteBuffer.allocate(6 * 4 + 8 + 36 + 8);
        b.putInt(7).putInt(0).putInt(2).putInt(100003).putInt(4).putInt(0x80000001);
        b.putInt(1).putInt(36).putInt(0x1234).putInt(6).put("client\0\0".getBytes(StandardCharsets.US_ASCII))
                .putInt(1000).putInt(1000).putInt(0).putInt(0x35535353).putInt(0x53535353);
        b.putInt(0).putInt(0);
        RpcCredentialCheck.Verdict v = RpcCredentialCheck.check(b.flip());
        assertThat(v.authStat()).isEqualTo(RpcCredentialCheck.AUTH_BADCRED);
        assertThat(v.reason()).contains("does not match its 0 gids");
    }
}
