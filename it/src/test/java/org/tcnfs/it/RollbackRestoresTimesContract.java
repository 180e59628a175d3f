package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_TIME_MODIFY;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.nfstime4;

/**
 * A rolled-back transaction, and the recovery of one interrupted by a crash, put back the modification
 * and access times of the directories whose entries it changed and the times of the files it removed or
 * replaced (issue 13 item 4; README "What a rollback restores"), through the wire against the real server
 * process. The change times (ctime, the change attribute) move: POSIX has no way to set them. Subclasses
 * choose the file system the server's directories live on.
 */
abstract class RollbackRestoresTimesContract extends SharedServerTest {
    private static final FileTime OLD_MTIME = FileTime.from(Instant.parse("2020-01-02T03:04:05.123456789Z"));
    private static final FileTime OLD_ATIME = FileTime.from(Instant.parse("2021-06-07T08:09:10.987654321Z"));

    private ItSession session;
    private Path d;
    private Path sub;
    private byte[] dFh;

    @Override
    abstract Path workDirectory() throws IOException;

    @BeforeEach
    void makeAgedTree(TestInfo test) throws IOException {
        String name = test.getTestMethod().orElseThrow().getName();
        d = Files.createDirectories(server.exportDir().resolve(name));
        sub = Files.createDirectories(d.resolve("sub"));
        Files.write(d.resolve("x"), new byte[] {1, 2, 3});
        Files.write(d.resolve("y"), new byte[] {4});
        Files.write(sub.resolve("t"), new byte[] {5});
        for (Path p : new Path[] {d.resolve("x"), d.resolve("y"), sub.resolve("t"), sub, d}) {
            Files.getFileAttributeView(p, BasicFileAttributeView.class).setTimes(OLD_MTIME, OLD_ATIME, null);
        }
        connect();
        dFh = session.nfs().lookup(session.nfs().rootFh(), name);
    }

    @AfterEach
    void disconnect() throws IOException {
        if (session != null) {
            session.close();
            session = null;
        }
    }

    private void connect() throws IOException {
        session = ItSession.open(server, "rollback-times");
    }

    /** REMOVE x, CREATE a directory, RENAME y over sub/t; then {@code failing}, if any. */
    private CompoundBuilder changes(byte[] subFh) {
        return new CompoundBuilder().putfh(dFh).remove("x")
                .putfh(dFh).mkdir("made")
                .putfh(dFh).savefh().putfh(subFh).rename("y", "t");
    }

    private static BasicFileAttributes times(Path p) throws IOException {
        return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    }

    private void assertTimesOfBefore() throws IOException {
        assertThat(Files.exists(d.resolve("made"))).as("the created directory is gone").isFalse();
        assertThat(times(d).lastModifiedTime()).as("mtime of the directory").isEqualTo(OLD_MTIME);
        assertThat(times(sub).lastModifiedTime()).as("mtime of the rename's target directory").isEqualTo(OLD_MTIME);
        assertThat(times(d.resolve("x")).lastAccessTime()).as("atime of the removed-then-restored file")
                .isEqualTo(OLD_ATIME);
        assertThat(times(d.resolve("x")).lastModifiedTime()).isEqualTo(OLD_MTIME);
        assertThat(times(sub.resolve("t")).lastAccessTime()).as("atime of the replaced-then-restored file")
                .isEqualTo(OLD_ATIME);
        nfstime4 seen = session.nfs().getattr(dFh, FATTR4_TIME_MODIFY).timeModify();
        assertThat(Instant.ofEpochSecond(seen.seconds, seen.nseconds)).as("time_modify of the directory by GETATTR")
                .isEqualTo(OLD_MTIME.toInstant());
        assertThat(Files.readAllBytes(d.resolve("x"))).containsExactly(1, 2, 3);
        assertThat(Files.readAllBytes(sub.resolve("t"))).containsExactly(5);
    }

    @Test
    void rollbackRestoresParentMtimesAndTheAtimeOfRestoredFiles() throws IOException {
        byte[] subFh = session.nfs().lookup(dFh, "sub");
        CompoundResult r = session.session().executeTransaction(changes(subFh).putfh(dFh).lookup("missing"));

        assertThat(r.status()).as("%s", r).isEqualTo(NfsStatus.NOENT);
        assertTimesOfBefore();
    }

    @Test
    void crashRecoveryRestoresParentMtimesAndTheAtimeOfRestoredFiles() throws IOException {
        byte[] subFh = session.nfs().lookup(dFh, "sub");
        CompoundBuilder c = changes(subFh).putfh(dFh).lookup("y");
        disconnect();
        // SEQUENCE is operation 0: the crash comes after the RENAME (operation 8) ran
        server.setJvmArgs("-Dtcnfs.crash-point=after-op-8");
        server.restart();
        connect();
        try {
            session.session().executeTransaction(c);
        } catch (IOException expected) {
            // the server halted at the crash point
        }
        assertThat(server.awaitExit(Duration.ofSeconds(30))).as("exit status of the crash point").isEqualTo(137);
        session = null;
        server.setJvmArgs();
        server.relaunch();
        connect();

        assertTimesOfBefore();
    }
}
