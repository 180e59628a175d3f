package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.Nfs41Session.SpanningTransaction;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.OPEN4args;

/**
 * Which directory locks OPEN with create takes (issue 16, goal 1: the driver's shared-files workload): an OPEN
 * UNCHECKED4 of a name that exists changes no directory entry, so it read-locks the directory, and compounds
 * that open different existing files of one directory, plain or transactional, do not wait for each other;
 * an OPEN that creates the name still write-locks the directory and excludes its readers until it commits.
 *
 * <p>A transaction that spans compounds holds its locks between its compounds, and a single compound never
 * waits for one (it gets NFS4ERR_DELAY at once), so each test holds one transaction open at a known point and
 * sees, without timing, whether another compound conflicts with it.
 */
class SharedDirectoryLockingIT extends SharedServerTest {
    private ItSession holder;
    private ItSession plain;
    private ItSession txnClient;
    private byte[] dir;
    private String dirName;

    @BeforeEach
    void connect(TestInfo test) throws IOException {
        holder = ItSession.open(server, "holder");
        plain = ItSession.open(server, "plain");
        txnClient = ItSession.open(server, "txn");
        dirName = test.getTestMethod().orElseThrow().getName();
        dir = holder.nfs().mkdir(holder.nfs().rootFh(), dirName);
        for (String name : new String[] {"s1", "s2", "s3"}) {
            holder.nfs().createFile(dir, name, text("old " + name));
        }
    }

    @AfterEach
    void disconnect() throws IOException {
        holder.close();
        plain.close();
        txnClient.close();
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** What the driver's writers send per file: OPEN UNCHECKED4 with size 0 (create or truncate), WRITE, CLOSE. */
    private static CompoundBuilder openTruncateWrite(Nfs41Session session, byte[] in, String name, String data) {
        return new CompoundBuilder().putfh(in)
                .openCreate(session.clientId(), ("o-" + name).getBytes(StandardCharsets.UTF_8), name,
                        OPEN4args.OPEN4_SHARE_ACCESS_BOTH, Attrs.builder().size(0).mode(0644).build())
                .write(CompoundBuilder.currentStateid(), 0, text(data))
                .close(CompoundBuilder.currentStateid());
    }

    private static SpanningTransaction begin(Nfs41Session session) throws IOException {
        SpanningTransaction txn = session.beginTransaction(0);
        assertThat(NfsStatus.of(txn.beginStatus())).isEqualTo(NfsStatus.OK);
        return txn;
    }

    private String local(String name) throws IOException {
        return Files.readString(server.exportDir().resolve(dirName).resolve(name));
    }

    @Test
    void plainAndTransactionalOpensOfExistingSharedFilesDoNotWaitForTheDirectoryLockOfAnOpenTransaction()
            throws IOException {
        SpanningTransaction txn = begin(holder.session());
        assertThat(txn.execute(openTruncateWrite(holder.session(), dir, "s1", "held")).status())
                .isEqualTo(NfsStatus.OK);

        // both would get NFS4ERR_DELAY if the transaction held the directory for writing
        CompoundResult plainOpen = plain.nfs().run(openTruncateWrite(plain.session(), dir, "s2", "plain"));
        CompoundResult txnOpen = txnClient.session().executeTransaction(
                openTruncateWrite(txnClient.session(), dir, "s3", "transactional"));

        assertThat(plainOpen.status()).as("plain OPEN of an existing file").isEqualTo(NfsStatus.OK);
        assertThat(txnOpen.status()).as("transactional OPEN of an existing file").isEqualTo(NfsStatus.OK);
        // the file the transaction holds is still its own
        assertThat(plain.nfs().run(openTruncateWrite(plain.session(), dir, "s1", "intruder")).status())
                .isEqualTo(NfsStatus.DELAY);
        assertThat(NfsStatus.of(txn.commit())).isEqualTo(NfsStatus.OK);
        assertThat(local("s1")).isEqualTo("held");
        assertThat(local("s2")).isEqualTo("plain");
        assertThat(local("s3")).isEqualTo("transactional");
    }

    @Test
    void openOfAnExistingNameStillExcludesCompoundsThatChangeTheDirectory() throws IOException {
        SpanningTransaction txn = begin(holder.session());
        assertThat(txn.execute(openTruncateWrite(holder.session(), dir, "s1", "held")).status())
                .isEqualTo(NfsStatus.OK);

        assertThat(plain.nfs().run(openTruncateWrite(plain.session(), dir, "new", "x")).status())
                .as("OPEN that creates a name").isEqualTo(NfsStatus.DELAY);
        assertThat(plain.nfs().run(new CompoundBuilder().putfh(dir).remove("s2")).status())
                .as("REMOVE").isEqualTo(NfsStatus.DELAY);
        assertThat(plain.nfs().run(new CompoundBuilder().putfh(dir).readdir(8192)).status())
                .as("READDIR shares the directory").isEqualTo(NfsStatus.OK);

        assertThat(NfsStatus.of(txn.commit())).isEqualTo(NfsStatus.OK);
        assertThat(plain.nfs().readdirNames(dir)).containsExactlyInAnyOrder("s1", "s2", "s3");
    }

    @Test
    void openThatCreatesTheNameStillExcludesReadersOfTheDirectory() throws IOException {
        SpanningTransaction txn = begin(holder.session());
        assertThat(txn.execute(openTruncateWrite(holder.session(), dir, "fresh", "new")).status())
                .isEqualTo(NfsStatus.OK);

        assertThat(plain.nfs().run(new CompoundBuilder().putfh(dir).readdir(8192)).status())
                .as("plain READDIR while the name is being created").isEqualTo(NfsStatus.DELAY);
        assertThat(plain.nfs().run(new CompoundBuilder().putfh(dir).lookup("fresh").getfh()).status())
                .as("plain LOOKUP of the new name").isEqualTo(NfsStatus.DELAY);
        assertThat(txnClient.session().executeTransaction(
                openTruncateWrite(txnClient.session(), dir, "s2", "waits")).status())
                .as("transactional OPEN of an existing file of that directory").isEqualTo(NfsStatus.DELAY);

        assertThat(NfsStatus.of(txn.commit())).isEqualTo(NfsStatus.OK);
        assertThat(plain.nfs().readdirNames(dir)).containsExactlyInAnyOrder("s1", "s2", "s3", "fresh");
        assertThat(local("fresh")).isEqualTo("new");
    }
}
