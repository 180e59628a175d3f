package org.tcnfs.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.vector.VLink;
import org.tcnfs.client.vector.VMkdir;
import org.tcnfs.client.vector.VRemove;
import org.tcnfs.client.vector.VRename;
import org.tcnfs.client.vector.VSetattr;
import org.tcnfs.client.vector.VSymlink;
import org.tcnfs.client.vector.VWrite;

/** Failed items and local errors in the words of people, not of Java records (issue 17). */
class LabelsTest {
    @Test
    void everyKindOfItemIsItsOperationAndPathsWithModesInOctal() {
        byte[] none = new byte[0];
        assertThat(Labels.of(new VMkdir("home/alice", 0700))).isEqualTo("mkdir /home/alice (mode 700)");
        assertThat(Labels.of(VWrite.create("etc/motd", none))).isEqualTo("write /etc/motd");
        assertThat(Labels.of(VWrite.append("etc/passwd", none))).isEqualTo("append to /etc/passwd");
        assertThat(Labels.of(new VRename("a", "b/c"))).isEqualTo("rename /a to /b/c");
        assertThat(Labels.of(new VRemove("old"))).isEqualTo("remove /old");
        assertThat(Labels.of(new VSymlink("l", "../t"))).isEqualTo("symlink /l -> ../t");
        assertThat(Labels.of(new VLink("a", "b"))).isEqualTo("link /a as /b");
        assertThat(Labels.of(VSetattr.mode("etc/shadow", 0640))).isEqualTo("chmod 640 /etc/shadow");
        assertThat(Labels.of(VSetattr.size("log", 0))).isEqualTo("truncate /log to 0 bytes");
    }

    @Test
    void statusesPeopleMeetAreInPlainWordsWithTheirRfcName() {
        assertThat(Labels.of(org.tcnfs.nfs4.status.NfsStatus.NOENT)).isEqualTo("no such file or directory (NFS4ERR_NOENT)");
        assertThat(Labels.of(org.tcnfs.nfs4.status.NfsStatus.BADXDR)).isEqualTo("NFS4ERR_BADXDR");
    }

    @Test
    void localErrorsSayTheCauseNotThePathAgain() {
        assertThat(LocalErrors.cause(new NoSuchFileException("a.c"))).isEqualTo("no such file or directory");
        assertThat(LocalErrors.cause(new AccessDeniedException("a.c"))).isEqualTo("permission denied");
    }
}
