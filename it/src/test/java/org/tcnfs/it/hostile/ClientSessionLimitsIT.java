package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.it.hostile.SessionAttacks.SMALL_HEAP;
import static org.tcnfs.it.hostile.SessionAttacks.mib;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_CREATE_SESSION;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_EXCHANGE_ID;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SETCLIENTID;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs40Client;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.it.ServerProcess;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4resok;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4resok;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * Issue 14 item 3: clients and sessions beyond the configured limits are refused, not stored, and
 * unconfirmed client records are no way around the limit. EXCHANGE_ID past {@code max-clients} is
 * NFS4ERR_DELAY (RFC 8881 allows it neither NFS4ERR_NOSPC nor NFS4ERR_RESOURCE), SETCLIENTID is
 * NFS4ERR_RESOURCE (RFC 7530 16.33.5 lists it), CREATE_SESSION past {@code max-sessions} is NFS4ERR_NOSPC
 * (RFC 8881 18.36); an unconfirmed record (no state) makes room for a new one. NFSv4.0 open owners without
 * state are bounded per client ({@code max-owners}). The server runs with a 256 MiB heap that exits on
 * OutOfMemoryError; a normal client works afterwards.
 */
class ClientSessionLimitsIT extends SessionAttackTest {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A confirmed client with one small session: EXCHANGE_ID, CREATE_SESSION. */
    private CompoundResult confirmedClient(NfsConnection c) throws IOException {
        EXCHANGE_ID4resok ex = SessionAttacks.exchangeId(c, "confirmed").orThrow()
                .body(OP_EXCHANGE_ID, EXCHANGE_ID4resok.class);
        return SessionAttacks.createSession(c, ex.eir_clientid, ex.eir_sequenceid, 1, 4096);
    }

    private void normalClientWorks() throws IOException {
        try (NfsConnection c = server.connect()) {
            Nfs41Session s = Nfs41Session.create(c, "normal");
            assertThat(s.execute(new CompoundBuilder().putrootfh().getfh()).status()).isEqualTo(NfsStatus.OK);
            s.close();
        }
    }

    @Test
    void floodOfUnconfirmedClientsKeepsTheClientTableAtItsLimitAndANewClientStillGetsIn() throws IOException {
        // max-clients is 16,384 by default now (client-memory bounds the records); 1,024 keeps the flood above it
        server = ServerProcess.start(SMALL_HEAP, "--max-clients", "1024");
        NfsConnection c = connect();
        long heapBefore = SessionAttacks.heapAfterGc(server);
        int flood = 5000;
        for (int i = 0; i < flood; i++) {
            assertThat(SessionAttacks.exchangeId(c, "flood").status()).isEqualTo(NfsStatus.OK);
        }
        long heapAfter = SessionAttacks.heapAfterGc(server);
        double records = SessionAttacks.gauge(server, "tcnfs_client_records");
        System.out.printf("[client limit] %d EXCHANGE_IDs: %.0f client records kept; heap %s -> %s%n", flood, records,
                mib(heapBefore), mib(heapAfter));
        assertThat(records).as("client records kept (max-clients 1024)").isBetween(1.0, 1024.0);
        normalClientWorks();
    }

    @Test
    void confirmedClientsBeyondTheLimitAreRefusedWithDelayUntilOneLeaves() throws IOException {
        server = ServerProcess.start(SMALL_HEAP, "--max-clients", "8");
        NfsConnection c = connect();
        List<CREATE_SESSION4resok> sessions = new ArrayList<>();
        List<Long> clients = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            EXCHANGE_ID4resok ex = SessionAttacks.exchangeId(c, "confirmed").orThrow()
                    .body(OP_EXCHANGE_ID, EXCHANGE_ID4resok.class);
            sessions.add(SessionAttacks.createSession(c, ex.eir_clientid, ex.eir_sequenceid, 1, 4096).orThrow()
                    .body(OP_CREATE_SESSION, CREATE_SESSION4resok.class));
            clients.add(ex.eir_clientid);
        }

        assertThat(SessionAttacks.exchangeId(c, "ninth").status()).isEqualTo(NfsStatus.DELAY);
        CompoundResult refused = SessionAttacks.exchangeId(connect(), "normal");
        assertThat(refused.status()).isEqualTo(NfsStatus.DELAY);
        assertThat(SessionAttacks.gauge(server, "tcnfs_client_records")).isEqualTo(8.0);

        // one client leaves (DESTROY_SESSION, then DESTROY_CLIENTID alone, RFC 8881 18.50.3): a new one gets in
        CompoundBuilder destroy = new CompoundBuilder().destroySession(sessions.get(0).csr_sessionid.value);
        assertThat(c.compound(destroy.build()).status).isEqualTo(NfsStatus.OK.code());
        assertThat(c.compound(new CompoundBuilder().destroyClientId(clients.get(0)).build()).status)
                .isEqualTo(NfsStatus.OK.code());
        normalClientWorks();
    }

    @Test
    void sessionsBeyondTheLimitAreRefusedWithNoSpcAndNotStored() throws IOException {
        server = ServerProcess.start(SMALL_HEAP, "--max-sessions", "4");
        NfsConnection c = connect();
        List<CREATE_SESSION4resok> sessions = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sessions.add(confirmedClient(c).orThrow().body(OP_CREATE_SESSION, CREATE_SESSION4resok.class));
        }
        EXCHANGE_ID4resok fifth = SessionAttacks.exchangeId(c, "fifth").orThrow()
                .body(OP_EXCHANGE_ID, EXCHANGE_ID4resok.class);

        CompoundResult refused = SessionAttacks.createSession(c, fifth.eir_clientid, fifth.eir_sequenceid, 1, 4096);

        assertThat(refused.status()).isEqualTo(NfsStatus.NOSPC);
        assertThat(SessionAttacks.gauge(server, "tcnfs_sessions")).isEqualTo(4.0);
        // a session ends: the same CREATE_SESSION (its sequence was not used up) now succeeds
        CompoundBuilder destroy = new CompoundBuilder().destroySession(sessions.get(0).csr_sessionid.value);
        assertThat(c.compound(destroy.build()).status).isEqualTo(NfsStatus.OK.code());
        assertThat(SessionAttacks.createSession(c, fifth.eir_clientid, fifth.eir_sequenceid, 1, 4096).status())
                .isEqualTo(NfsStatus.OK);
    }

    @Test
    void setClientIdBeyondTheLimitIsResourceAndTheFloodOfUnconfirmedOnesIsNot() throws IOException {
        server = ServerProcess.start(SMALL_HEAP, "--max-clients", "8");
        NfsConnection c = connect();
        for (int i = 0; i < 1000; i++) {
            // unconfirmed NFSv4.0 records: the oldest makes room for the next
            assertThat(setClientId(c).status()).isEqualTo(NfsStatus.OK);
        }
        List<Nfs40Client> confirmed = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Nfs40Client client = Nfs40Client.create(c, "confirmed");
            // with an open: a confirmed client without state would be released to make room (RFC 8881 2.4.3)
            byte[] root = client.execute(new CompoundBuilder().putrootfh().getfh()).orThrow().fileHandle();
            client.openCreate(root, "held-" + i);
            confirmed.add(client);
        }

        CompoundResult refused = setClientId(c);

        assertThat(refused.status()).isEqualTo(NfsStatus.RESOURCE);
        assertThat(SessionAttacks.gauge(server, "tcnfs_client_records")).isEqualTo(8.0);
        assertThat(confirmed.get(0).renew().status()).isEqualTo(NfsStatus.OK);
    }

    private static CompoundResult setClientId(NfsConnection c) throws IOException {
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        byte[] verifier = new byte[8];
        RANDOM.nextBytes(verifier);
        CompoundBuilder b = new CompoundBuilder().minorVersion(0).tag("flood40")
                .setclientid(id, verifier, Nfs40Client.CB_PROGRAM, "tcp", "127.0.0.1.0.0");
        return new CompoundResult(b.build(), c.compound(b.build()));
    }

    @Test
    void nfs40OpenOwnersWithoutStateAreBoundedPerClient() throws IOException {
        server = ServerProcess.start(SMALL_HEAP, "--max-owners", "256");
        SessionAttacks.exportFile(server, "opened", 16);
        NfsConnection c = connect();
        Nfs40Client client = Nfs40Client.create(c, "owners");
        byte[] root = client.execute(new CompoundBuilder().putrootfh().getfh()).orThrow().fileHandle();
        long heapBefore = SessionAttacks.heapAfterGc(server);
        byte[] owner = new byte[1024];
        int flood = 5000;
        for (int i = 0; i < flood; i++) {
            // OPEN, OPEN_CONFIRM and CLOSE by a new open owner: it keeps no state, only its last reply
            RANDOM.nextBytes(owner);
            CompoundResult opened = client.execute(new CompoundBuilder().putfh(root).openNfs40(0, client.clientId(),
                    owner, "opened", OPEN4args.OPEN4_SHARE_ACCESS_READ, null).getfh()).orThrow();
            stateid4 open = opened.body(OP_OPEN, OPEN4resok.class).stateid;
            stateid4 confirmed = new stateid4(open.seqid + 1, open.other);
            client.execute(new CompoundBuilder().putfh(opened.fileHandle()).openConfirm(open, 1)
                    .close(2, confirmed)).orThrow();
        }
        long heapAfter = SessionAttacks.heapAfterGc(server);
        System.out.printf("[owner limit] %d NFSv4.0 open owners of 1 KiB opened and closed: heap %s -> %s%n", flood,
                mib(heapBefore), mib(heapAfter));
        // 5,000 owners of 1 KiB kept would be over 5 MiB; 256 are a few hundred KiB, and the NFSv4.0 duplicate
        // request cache keeps the last 1,024 changing replies (OPEN, OPEN_CONFIRM+CLOSE: under 1 MiB)
        assertThat(heapAfter - heapBefore).isLessThan(3L * SessionAttacks.MIB);
        Nfs40Client.Opened f = client.openCreate(root, "after-the-flood");
        assertThat(client.close(f).status()).isEqualTo(NfsStatus.OK);
    }

    @Test
    void nfs40OpenOwnersHoldingStateBeyondTheBoundAreRefusedWithResource() throws IOException {
        server = ServerProcess.start(SMALL_HEAP, "--max-owners", "64");
        SessionAttacks.exportFile(server, "opened", 16);
        NfsConnection c = connect();
        Nfs40Client client = Nfs40Client.create(c, "owners");
        byte[] root = client.execute(new CompoundBuilder().putrootfh().getfh()).orThrow().fileHandle();
        byte[] owner = new byte[64];
        NfsStatus last = NfsStatus.OK;
        int opened = 0;
        while (opened < 1000) {
            // OPEN by a new open owner, never confirmed: the open is state of that owner
            RANDOM.nextBytes(owner);
            last = client.execute(new CompoundBuilder().putfh(root).openNfs40(0, client.clientId(), owner, "opened",
                    OPEN4args.OPEN4_SHARE_ACCESS_READ, null)).status();
            if (last != NfsStatus.OK) {
                break;
            }
            opened++;
        }
        assertThat(last).isEqualTo(NfsStatus.RESOURCE);
        assertThat(opened).isBetween(60, 64);
        // another client is not affected
        Nfs40Client other = Nfs40Client.create(connect(), "other");
        Nfs40Client.Opened f = other.openCreate(root, "after-the-flood");
        assertThat(other.close(f).status()).isEqualTo(NfsStatus.OK);
    }
}
