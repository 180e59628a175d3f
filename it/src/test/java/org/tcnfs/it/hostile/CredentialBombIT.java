package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, item 1: an AUTH_SYS credential that claims 2^31-1 gids made the RPC library allocate the array
 * before reading it (one 48-byte call ended a server). Credentials beyond knfsd's limits are now refused with
 * AUTH_BADCRED before they are decoded, and the connection goes on.
 */
class CredentialBombIT extends AttackedServerTest {
    static void assertBadCred(ByteBuffer reply, int xid) {
        assertThat(reply.getInt(0)).as("xid").isEqualTo(xid);
        assertThat(reply.getInt(4)).as("REPLY").isEqualTo(1);
        assertThat(reply.getInt(8)).as("MSG_DENIED").isEqualTo(Hostile.MSG_DENIED);
        assertThat(reply.getInt(12)).as("AUTH_ERROR").isEqualTo(Hostile.AUTH_ERROR);
        assertThat(reply.getInt(16)).as("AUTH_BADCRED").isEqualTo(Hostile.AUTH_BADCRED);
    }

    static byte[] gidBomb(int xid, int claimedGids) {
        byte[] cred = Hostile.authSys("x", claimedGids, 0);
        return Hostile.record(Hostile.call(xid, 0, Hostile.AUTH_SYS, cred, cred.length, new byte[0]));
    }

    @Test
    void aCredentialClaimingTwoToTheThirtyOneGidsIsRefusedWithBadCredAndTheConnectionGoesOn() throws IOException {
        Hostile.Memory before = Hostile.memory(server);
        try (Socket s = Hostile.connect(server)) {
            s.getOutputStream().write(gidBomb(1, Integer.MAX_VALUE));
            assertBadCred(Hostile.readRecord(s), 1);
            Hostile.ping(s, 2);
        }
        assertThat(server.isAlive()).as("server alive\n%s", server.output()).isTrue();
        long after = normal.probeMillis();
        Hostile.report("one AUTH_SYS call claiming 2^31-1 gids", before, Hostile.memory(server), after, after);
        assertThat(after).as("probe after the attack (ms)").isLessThan(1000);
        assertThat(server.output()).contains("2147483647 gids (at most 16)");
    }

    @Test
    void credentialsBeyondTheLimitsOfKnfsdAreRefusedWithBadCred() throws IOException {
        try (Socket s = Hostile.connect(server)) {
            byte[] seventeen = Hostile.authSys("client", 17, 17);
            byte[] longName = Hostile.authSys("m".repeat(256), 0, 0);
            byte[] big = new byte[404];
            List<byte[]> calls = List.of(
                    Hostile.call(11, 0, Hostile.AUTH_SYS, seventeen, seventeen.length, new byte[0]),
                    Hostile.call(12, 0, Hostile.AUTH_SYS, longName, longName.length, new byte[0]),
                    Hostile.call(13, 0, Hostile.AUTH_SYS, big, 401, new byte[0]),
                    Hostile.call(14, 0, Hostile.AUTH_NONE, big, 404, new byte[0]));
            int xid = 11;
            for (byte[] call : calls) {
                s.getOutputStream().write(Hostile.record(call));
                assertBadCred(Hostile.readRecord(s), xid++);
            }
            byte[] sixteen = Hostile.authSys("m".repeat(255), 16, 16);
            s.getOutputStream().write(Hostile.record(
                    Hostile.call(20, 0, Hostile.AUTH_SYS, sixteen, sixteen.length, new byte[0])));
            ByteBuffer ok = Hostile.readRecord(s);
            assertThat(ok.getInt(0)).isEqualTo(20);
            assertThat(ok.getInt(8)).as("MSG_ACCEPTED at the limits").isZero();
        }
        assertThat(normal.probeMillis()).isLessThan(1000);
    }

    @Test
    void aFloodOfGidBombsLeavesTheHeapAndANormalClientAlone() throws Exception {
        Hostile.Memory before = Hostile.memory(server);
        long worst;
        try (Attacks.RepliedFlood bombs = Attacks.gidBombs(server, 4, 2000)) {
            worst = normal.worstMillis(Duration.ofSeconds(2));
            bombs.await(Duration.ofSeconds(30));
            assertThat(server.isAlive()).as("server alive\n%s", server.output()).isTrue();
            assertThat(bombs.answered.get()).as("AUTH_BADCRED replies").isEqualTo(8000);
        }
        Hostile.Memory during = Hostile.memory(server);
        long after = normal.probeMillis();
        normal.freshClientMillis();
        Hostile.report("8000 AUTH_SYS calls claiming 2^28 gids on 4 connections", before, during, worst, after);
        assertThat(worst).as("worst probe during the attack (ms)").isLessThan(Hostile.WEDGED_MILLIS);
        assertThat(after).as("probe after the attack (ms)").isLessThan(1000);
        assertThat(server.output().lines().filter(l -> l.contains("refusing an RPC call")).count())
                .as("rate-limited log lines").isLessThanOrEqualTo(20);
    }
}
