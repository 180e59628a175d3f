package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, the RPC fuzz target's findings (docs/fuzzing.md), sent on the wire: calls that make oncrpc4j
 * allocate a forged length or fail unchecked when they reach it are refused by the server's credential check
 * with AUTH_ERROR/AUTH_BADCRED first, and the connection and the server go on.
 */
class UnservedFlavorsAndForgedLengthsIT extends AttackedServerTest {
    private static final int RPCSEC_GSS = 6;
    private static final int AUTH_TLS = 7;

    /** An RPCSEC_GSS DATA credential (RFC 2203, version 1) whose context handle claims 2^31-1 bytes. */
    static byte[] gssCredentialWithForgedHandleLength() {
        return ByteBuffer.allocate(20).putInt(1).putInt(0).putInt(1).putInt(1).putInt(Integer.MAX_VALUE).array();
    }

    /**
     * An AUTH_SYS body of 36 bytes whose fields take 28: oncrpc4j reads the verifier where the fields end, so
     * the last 8 bytes of the body would be taken as a verifier claiming 0x53535353 (1.4 GB) bytes.
     */
    static byte[] authSysBodyShorterThanItsLengthThenForgedVerifier() {
        byte[] fields = Hostile.authSys("client", 0, 0);
        ByteBuffer b = ByteBuffer.allocate(fields.length + 8).put(fields);
        return b.putInt(0x35535353).putInt(0x53535353).array();
    }

    @Test
    void authTlsRpcsecGssAndAShortAuthSysBodyWithAForgedVerifierAreRefusedWithBadCredAndTheConnectionGoesOn()
            throws IOException {
        Hostile.Memory before = Hostile.memory(server);
        byte[] gss = gssCredentialWithForgedHandleLength();
        byte[] shortSys = authSysBodyShorterThanItsLengthThenForgedVerifier();
        byte[] tlsProbe = Hostile.call(31, 0, AUTH_TLS, new byte[0], 0, new byte[0]);
        try (Socket s = Hostile.connect(server)) {
            s.getOutputStream().write(Hostile.record(tlsProbe));
            CredentialBombIT.assertBadCred(Hostile.readRecord(s), 31);
            s.getOutputStream().write(Hostile.record(Hostile.call(32, 1, RPCSEC_GSS, gss, gss.length, new byte[0])));
            CredentialBombIT.assertBadCred(Hostile.readRecord(s), 32);
            s.getOutputStream().write(Hostile.record(
                    Hostile.call(33, 0, Hostile.AUTH_SYS, shortSys, shortSys.length, new byte[0])));
            CredentialBombIT.assertBadCred(Hostile.readRecord(s), 33);
            // the AUTH_TLS flavor, then the end of the record
            s.getOutputStream().write(Hostile.record(Arrays.copyOf(tlsProbe, 7 * 4)));
            CredentialBombIT.assertBadCred(Hostile.readRecord(s), 31);
            Hostile.ping(s, 34);
        }
        assertThat(server.isAlive()).as("server alive\n%s", server.output()).isTrue();
        long after = normal.probeMillis();
        Hostile.report("AUTH_TLS, RPCSEC_GSS with a forged handle length, short AUTH_SYS body with a forged verifier",
                before, Hostile.memory(server), after, after);
        assertThat(after).as("probe after the attack (ms)").isLessThan(1000);
        assertThat(server.output()).contains("flavor 7 (AUTH_TLS) not served", "flavor 6 (RPCSEC_GSS) not served",
                "AUTH_SYS body length does not match its 0 gids");
    }
}
