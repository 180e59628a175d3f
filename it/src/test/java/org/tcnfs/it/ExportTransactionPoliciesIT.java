package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.client.rpc.RawReply;
import org.tcnfs.client.rpc.RpcAcceptStatus;
import org.tcnfs.nfs4.status.NfsStatus;

/**
 * The per-export {@code txn=} policy of an exports file (DESIGN.md, "How a client asks for a transaction"):
 * {@code request} runs a compound as a transaction when the client sets the flag, {@code always} runs every
 * compound that changes something as one (for unmodified clients), {@code never} refuses the flag with
 * NFS4ERR_NOTSUPP. On a server with an exports file a transactional compound starts at a handle of its
 * export (PUTFH); PUTROOTFH there reaches the pseudo root, which no transaction can span.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExportTransactionPoliciesIT {
    private Path request;
    private Path always;
    private Path never;
    private ServerProcess server;
    private NfsConnection connection;
    private Nfs41Session session;

    @BeforeAll
    void start() throws IOException {
        Path work = Paths.get(System.getProperty("tcnfs.it.work", System.getProperty("java.io.tmpdir")));
        Files.createDirectories(work);
        Path base = Files.createTempDirectory(work, "policies-");
        request = Files.createDirectory(base.resolve("request"));
        always = Files.createDirectory(base.resolve("always"));
        never = Files.createDirectory(base.resolve("never"));
        Path exports = base.resolve("exports");
        Files.writeString(exports, request + " 127.0.0.1(rw,no_root_squash,txn=request)\n"
                + always + " 127.0.0.1(rw,no_root_squash,txn=always)\n"
                + never + " 127.0.0.1(rw,no_root_squash,txn=never)\n", StandardCharsets.UTF_8);
        server = ServerProcess.start("--exports", exports.toString());
        connection = server.connect();
        session = Nfs41Session.create(connection, "policies-it");
    }

    @AfterAll
    void stop() throws IOException {
        session.close();
        connection.close();
        server.close();
    }

    /** The handle of an exported directory, looked up from the pseudo root by its path. */
    private byte[] handleOf(Path export) throws IOException {
        CompoundBuilder c = new CompoundBuilder().putrootfh();
        for (Path name : export) {
            c.lookup(name.toString());
        }
        return session.execute(c.getfh()).orThrow().fileHandle();
    }

    private static CompoundBuilder mkdirThenFail(byte[] dir, String name) {
        return new CompoundBuilder().putfh(dir).mkdir(name).putfh(dir).remove("missing");
    }

    @Test
    void theTransactionFlagIsAcceptedWithAnExportsFile() throws IOException {
        RawReply flagged = connection.callRaw(NfsConnection.PROC_COMPOUND_TXN, new byte[0]);

        assertThat(flagged.acceptStatus()).isNotEqualTo(RpcAcceptStatus.PROC_UNAVAIL);
    }

    @Test
    void requestPolicyRollsBackAFlaggedCompoundAndLeavesAPlainOneAsItRan() throws IOException {
        byte[] dir = handleOf(request);

        CompoundResult flagged = session.executeTransaction(mkdirThenFail(dir, "flagged"));
        CompoundResult plain = session.execute(mkdirThenFail(dir, "plain"));

        assertThat(flagged.status()).isEqualTo(NfsStatus.NOENT);
        assertThat(plain.status()).isEqualTo(NfsStatus.NOENT);
        assertThat(request.resolve("flagged")).doesNotExist();
        assertThat(request.resolve("plain")).isDirectory();
    }

    @Test
    void alwaysPolicyRollsBackAPlainCompoundThatFails() throws IOException {
        byte[] dir = handleOf(always);

        CompoundResult failed = session.execute(mkdirThenFail(dir, "undone"));
        CompoundResult ok = session.execute(new CompoundBuilder().putfh(dir).mkdir("kept"));

        assertThat(failed.status()).isEqualTo(NfsStatus.NOENT);
        assertThat(always.resolve("undone")).doesNotExist();
        assertThat(ok.status()).isEqualTo(NfsStatus.OK);
        assertThat(always.resolve("kept")).isDirectory();
    }

    @Test
    void neverPolicyRefusesTheFlagAndChangesNothing() throws IOException {
        byte[] dir = handleOf(never);

        CompoundResult flagged = session.executeTransaction(new CompoundBuilder().putfh(dir).mkdir("refused"));

        assertThat(flagged.status()).isEqualTo(NfsStatus.NOTSUPP);
        assertThat(never.resolve("refused")).doesNotExist();
    }

    @Test
    void neverPolicyRefusesTheFlagAlsoOnACompoundThatOnlyReads() throws IOException {
        byte[] dir = handleOf(never);

        CompoundResult flagged = session.executeTransaction(new CompoundBuilder().putfh(dir).getattr());

        assertThat(flagged.status()).isEqualTo(NfsStatus.NOTSUPP);
    }

    @Test
    void aTransactionStartingAtThePseudoRootIsRefused() throws IOException {
        CompoundBuilder c = new CompoundBuilder().putrootfh();
        for (Path name : request) {
            c.lookup(name.toString());
        }
        CompoundResult r = session.executeTransaction(c.mkdir("via-root"));

        assertThat(r.status()).isEqualTo(NfsStatus.NOTSUPP);
        assertThat(request.resolve("via-root")).doesNotExist();
    }
}
