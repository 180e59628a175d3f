package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.it.hostile.SessionAttacks.SMALL_HEAP;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_CREATE_SESSION;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_EXCHANGE_ID;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READ;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.it.ServerProcess;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4resok;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4resok;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.READ4resok;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * Issue 14 item 6: DESTROY_CLIENTID of a client that still holds opens under an unexpired lease is
 * NFS4ERR_CLIENTID_BUSY (RFC 8881 18.50.3), and the client keeps its state; before, the server answered
 * NFS4_OK and dropped the opens.
 */
class DestroyClientIdBusyIT {
    private static final byte[] OWNER = "destroy-busy-client".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] VERIFIER = {1, 2, 3, 4, 5, 6, 7, 8};

    private ServerProcess server;

    @BeforeEach
    void startServer() throws IOException {
        server = ServerProcess.start(SMALL_HEAP);
    }

    @AfterEach
    void stopServer() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    /** EXCHANGE_ID of the fixed owner, then CREATE_SESSION with the sequence it names: the session id. */
    private static byte[] session(NfsConnection c) throws IOException {
        EXCHANGE_ID4resok ex = SessionAttacks.exchangeId(c, OWNER, VERIFIER).orThrow()
                .body(OP_EXCHANGE_ID, EXCHANGE_ID4resok.class);
        return SessionAttacks.createSession(c, ex.eir_clientid, ex.eir_sequenceid, 4, 64 * 1024).orThrow()
                .body(OP_CREATE_SESSION, CREATE_SESSION4resok.class).csr_sessionid.value;
    }

    private static CompoundResult send(NfsConnection c, CompoundBuilder b) throws IOException {
        return new CompoundResult(b.build(), c.compound(b.build()));
    }

    @Test
    void destroyClientIdOfAClientHoldingAnOpenIsClientIdBusyAndTheOpenStays() throws IOException {
        byte[] data = SessionAttacks.exportFile(server, "held-open", 4096);
        try (NfsConnection c = server.connect(); NfsConnection other = server.connect()) {
            byte[] first = session(c);
            long clientId = SessionAttacks.exchangeId(c, OWNER, VERIFIER).orThrow()
                    .body(OP_EXCHANGE_ID, EXCHANGE_ID4resok.class).eir_clientid;
            assertThat(send(c, new CompoundBuilder().sequence(first, 1, 0, 3).reclaimComplete()).status())
                    .isEqualTo(NfsStatus.OK);
            CompoundResult opened = send(c, new CompoundBuilder().sequence(first, 2, 0, 3).putrootfh()
                    .openExisting(clientId, "owner".getBytes(StandardCharsets.US_ASCII), "held-open",
                            OPEN4args.OPEN4_SHARE_ACCESS_READ).getfh()).orThrow();
            stateid4 open = opened.body(OP_OPEN, OPEN4resok.class).stateid;
            byte[] file = opened.fileHandle();
            assertThat(send(c, new CompoundBuilder().destroySession(first)).status()).isEqualTo(NfsStatus.OK);

            CompoundResult destroyed = send(other, new CompoundBuilder().destroyClientId(clientId));

            assertThat(destroyed.status()).isEqualTo(NfsStatus.CLIENTID_BUSY);
            // the client comes back with a new session, and its open still reads
            byte[] second = session(c);
            CompoundResult read = send(c, new CompoundBuilder().sequence(second, 1, 0, 3).putfh(file)
                    .read(open, 0, data.length));
            assertThat(read.status()).isEqualTo(NfsStatus.OK);
            assertThat(SessionAttacks.bytes(read.body(OP_READ, READ4resok.class).data)).isEqualTo(data);
            // once the open is closed, DESTROY_CLIENTID (after DESTROY_SESSION) succeeds
            assertThat(send(c, new CompoundBuilder().sequence(second, 2, 0, 3).putfh(file).close(open)).status())
                    .isEqualTo(NfsStatus.OK);
            assertThat(send(c, new CompoundBuilder().destroySession(second)).status()).isEqualTo(NfsStatus.OK);
            assertThat(send(other, new CompoundBuilder().destroyClientId(clientId)).status()).isEqualTo(NfsStatus.OK);
        }
    }
}
