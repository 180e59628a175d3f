package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.it.hostile.SessionAttacks.MIB;
import static org.tcnfs.it.hostile.SessionAttacks.SMALL_HEAP;
import static org.tcnfs.it.hostile.SessionAttacks.mib;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_CREATE_SESSION;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_EXCHANGE_ID;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READ;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.it.ServerProcess;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4resok;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4resok;
import org.tcnfs.nfs4.xdr.READ4resok;
import org.tcnfs.nfs4.xdr.channel_attrs4;

/**
 * Issue 14 item 3: the reply cache is bounded. A session may ask {@code ca_maxresponsesize_cached} of 16 MiB
 * on 64 slots; before, the server granted it and one session pinned about 1 GiB of replies. Now the grant is
 * at most {@code max-cached-reply} (default 4 MiB + 64 KiB, RFC 8881 18.36.4 lets the server lower it), a
 * reply asked to be cached that would be larger fails with NFS4ERR_REP_TOO_BIG_TO_CACHE (RFC 8881 2.10.6.4,
 * 18.46.3), and the reservations of all sessions stay within {@code reply-cache-memory} (default an eighth
 * of the heap, 32 MiB here).
 * The server runs with the defaults and a 256 MiB heap that exits on OutOfMemoryError.
 */
class ReplyCacheBoundIT extends SessionAttackTest {
    private static final int DEFAULT_MAX_CACHED_REPLY = 4160 * 1024;
    /** An eighth of the 256 MiB heap (setting reply-cache-memory 0). */
    private static final long DEFAULT_REPLY_CACHE_MEMORY = 32L * MIB;
    /** Kept replies over 512 KiB are humongous objects of G1 (1 MiB regions): up to twice their size. */
    private static final int HUMONGOUS_FACTOR = 2;
    private static final int READS_PER_COMPOUND = 16;

    @BeforeEach
    void startServer() throws IOException {
        server = ServerProcess.start(SMALL_HEAP);
    }

    /** A session of an attacker that asks for {@code slots} slots with 16 MiB cached replies. */
    private AttackSession attackSession(NfsConnection c, int slots) throws IOException {
        EXCHANGE_ID4resok ex = SessionAttacks.exchangeId(c, "cache-attack").orThrow()
                .body(OP_EXCHANGE_ID, EXCHANGE_ID4resok.class);
        CREATE_SESSION4resok cs = SessionAttacks.createSession(c, ex.eir_clientid, ex.eir_sequenceid, slots,
                16 * MIB + 64 * 1024).orThrow().body(OP_CREATE_SESSION, CREATE_SESSION4resok.class);
        return new AttackSession(c, cs.csr_sessionid.value, cs.csr_fore_chan_attrs);
    }

    private record AttackSession(NfsConnection connection, byte[] sessionId, channel_attrs4 fore) {
        int slots() {
            return fore.ca_maxrequests;
        }

        /** SEQUENCE (sa_cachethis) on {@code slot}, PUTFH {@code file} and {@code reads} READs of {@code count}. */
        CompoundResult cachedReads(int slot, byte[] file, int reads, int count) throws IOException {
            CompoundBuilder b = new CompoundBuilder().tag("fill").sequence(sessionId, 1, slot, slots() - 1).putfh(file);
            for (int i = 0; i < reads; i++) {
                b.read(CompoundBuilder.anonymousStateid(), 0, count);
            }
            return new CompoundResult(b.build(), connection.compound(b.build()));
        }
    }

    private static byte[] lookup(Nfs41Session s, String name) throws IOException {
        return s.execute(new CompoundBuilder().putrootfh().lookup(name).getfh()).orThrow().fileHandle();
    }

    /** A normal client reads {@code name} whole and gets {@code expected}, within a second. */
    private void normalClientReads(Nfs41Session normal, byte[] file, byte[] expected) throws IOException {
        long start = System.nanoTime();
        CompoundResult r = normal.execute(new CompoundBuilder().putfh(file)
                .read(CompoundBuilder.anonymousStateid(), 0, expected.length)).orThrow();
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(SessionAttacks.bytes(r.body(OP_READ, READ4resok.class).data)).isEqualTo(expected);
        assertThat(millis).as("a normal client's READ took %d ms", millis).isLessThan(1000);
    }

    @Test
    void sessionAskingSixteenMebibyteCachedRepliesIsGrantedTheCapAndLargerRepliesAreNotCached() throws IOException {
        byte[] data = SessionAttacks.exportFile(server, "one-mebibyte", MIB);
        Nfs41Session normal = Nfs41Session.create(connect(), "normal");
        byte[] file = lookup(normal, "one-mebibyte");
        long heapBefore = SessionAttacks.heapAfterGc(server);
        long rssBefore = SessionAttacks.rss(server);

        AttackSession attack = attackSession(connect(), 64);
        List<CompoundResult> replies = new ArrayList<>();
        try {
            for (int slot = 0; slot < attack.slots(); slot++) {
                replies.add(attack.cachedReads(slot, file, READS_PER_COMPOUND, MIB));
            }
        } catch (IOException e) {
            SessionAttacks.awaitExit(server);
            assertThat(server.isAlive()).as("server alive after %s\n%s", e, server.output()).isTrue();
        }

        assertThat(server.isAlive()).as("server alive after the attack\n%s", server.output()).isTrue();
        long heapAfter = SessionAttacks.heapAfterGc(server);
        long rssAfter = SessionAttacks.rss(server);
        System.out.printf("[reply cache, 1 session] granted %d slots x %d bytes cached; heap %s -> %s, RSS %s -> %s%n",
                attack.slots(), attack.fore().ca_maxresponsesize_cached, mib(heapBefore), mib(heapAfter),
                mib(rssBefore), mib(rssAfter));
        assertThat(attack.fore().ca_maxresponsesize_cached).isLessThanOrEqualTo(DEFAULT_MAX_CACHED_REPLY);
        assertThat((long) attack.slots() * attack.fore().ca_maxresponsesize_cached)
                .isLessThanOrEqualTo(DEFAULT_REPLY_CACHE_MEMORY / 4);
        int fit = (attack.fore().ca_maxresponsesize_cached - 1024) / MIB;
        for (CompoundResult r : replies) {
            // SEQUENCE, PUTFH and the READs that fit in the cached size succeed; the next one does not
            List<NfsStatus> statuses = r.statuses();
            assertThat(statuses).hasSize(3 + fit);
            assertThat(statuses.subList(0, 2 + fit)).containsOnly(NfsStatus.OK);
            assertThat(statuses.get(2 + fit)).isEqualTo(NfsStatus.REP_TOO_BIG_TO_CACHE);
        }
        // the kept reply answers a retransmission (RFC 8881 2.10.6.1.3)
        CompoundResult again = attack.cachedReads(0, file, READS_PER_COMPOUND, MIB);
        assertThat(again.statuses()).isEqualTo(replies.get(0).statuses());
        assertThat(SessionAttacks.bytes(again.body(OP_READ, READ4resok.class).data)).isEqualTo(data);
        assertThat(heapAfter - heapBefore).isLessThan(HUMONGOUS_FACTOR * DEFAULT_REPLY_CACHE_MEMORY / 4 + 16L * MIB);
        normalClientReads(normal, file, data);
    }

    @Test
    void sessionsOfManyClientsFillingEverySlotStayWithinTheReplyCacheMemory() throws IOException {
        byte[] data = SessionAttacks.exportFile(server, "one-mebibyte", MIB);
        Nfs41Session normal = Nfs41Session.create(connect(), "normal");
        byte[] file = lookup(normal, "one-mebibyte");
        long heapBefore = SessionAttacks.heapAfterGc(server);
        long rssBefore = SessionAttacks.rss(server);

        NfsConnection c = connect();
        long granted = 0;
        int sessions = 40;
        try {
            granted = fillSessions(c, file, sessions);
        } catch (IOException e) {
            SessionAttacks.awaitExit(server);
            assertThat(server.isAlive()).as("server alive after %s\n%s", e, server.output()).isTrue();
        }

        assertThat(server.isAlive()).as("server alive after the attack\n%s", server.output()).isTrue();
        long heapAfter = SessionAttacks.heapAfterGc(server);
        long rssAfter = SessionAttacks.rss(server);
        double reserved = SessionAttacks.gauge(server, "tcnfs_reply_cache_reserved_bytes");
        System.out.printf("[reply cache, %d sessions] %s granted in all, %s reserved; heap %s -> %s, RSS %s -> %s%n",
                sessions, mib(granted), mib((long) reserved), mib(heapBefore), mib(heapAfter), mib(rssBefore),
                mib(rssAfter));
        assertThat(granted).isLessThanOrEqualTo(DEFAULT_REPLY_CACHE_MEMORY);
        assertThat(reserved).isBetween((double) granted / 2, (double) DEFAULT_REPLY_CACHE_MEMORY);
        assertThat(heapAfter - heapBefore).isLessThan(HUMONGOUS_FACTOR * DEFAULT_REPLY_CACHE_MEMORY + 16L * MIB);
        normalClientReads(normal, file, data);
        // a client that comes after the attack still gets a session and its share of the cache
        Nfs41Session late = Nfs41Session.create(connect(), "late");
        assertThat(late.foreChannel().ca_maxrequests).isPositive();
        byte[] head = Arrays.copyOf(data, 4096);
        CompoundResult r = late.execute(new CompoundBuilder().putfh(file)
                .read(CompoundBuilder.anonymousStateid(), 0, head.length)).orThrow();
        assertThat(SessionAttacks.bytes(r.body(OP_READ, READ4resok.class).data)).isEqualTo(head);
    }

    /** {@code sessions} sessions of new clients, each slot filled with a reply as large as may be cached. */
    private long fillSessions(NfsConnection c, byte[] file, int sessions) throws IOException {
        long granted = 0;
        for (int i = 0; i < sessions; i++) {
            AttackSession attack = attackSession(c, 64);
            int cached = attack.fore().ca_maxresponsesize_cached;
            granted += (long) attack.slots() * cached;
            // one READ as large as the cached size allows (the reply's headers need about 200 bytes)
            int count = Math.max(1, Math.min(MIB, cached - 512));
            for (int slot = 0; slot < attack.slots(); slot++) {
                CompoundResult r = attack.cachedReads(slot, file, 1, count);
                assertThat(r.status()).as("slot %d of session %d: %s", slot, i, r).isEqualTo(NfsStatus.OK);
            }
        }
        return granted;
    }
}
