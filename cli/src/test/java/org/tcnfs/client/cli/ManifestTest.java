package org.tcnfs.client.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.client.vector.VMkdir;
import org.tcnfs.client.vector.VRemove;
import org.tcnfs.client.vector.VRename;
import org.tcnfs.client.vector.VSetattr;
import org.tcnfs.client.vector.VWrite;
import org.tcnfs.client.vector.WriteFlag;

class ManifestTest {
    @TempDir
    Path dir;

    @Test
    void everyKindOfLineBecomesItsItemUnderTheBase() throws Exception {
        Files.writeString(dir.resolve("p.add"), "alice\n");
        Manifest m = Manifest.parse(List.of(
                "# comment", "",
                "append etc/passwd p.add",
                "text etc/motd hello   world",
                "mkdir home/alice 700",
                "rename a%20b c",
                "remove old",
                "chmod 600 etc/shadow",
                "truncate log 0"), "base", dir);

        assertThat(m.items()).hasSize(7);
        VWrite append = (VWrite) m.items().get(0);
        assertThat(append.path()).isEqualTo("base/etc/passwd");
        assertThat(append.flags()).contains(WriteFlag.APPEND);
        assertThat(new String(append.data(), StandardCharsets.UTF_8)).isEqualTo("alice\n");
        assertThat(new String(((VWrite) m.items().get(1)).data(), StandardCharsets.UTF_8)).isEqualTo("hello world\n");
        assertThat(m.items().get(2)).isEqualTo(new VMkdir("base/home/alice", 0700));
        assertThat(m.items().get(3)).isEqualTo(new VRename("base/a b", "base/c"));
        assertThat(m.items().get(4)).isEqualTo(new VRemove("base/old"));
        assertThat(m.items().get(5)).isEqualTo(VSetattr.mode("base/etc/shadow", 0600));
        assertThat(m.items().get(6)).isEqualTo(VSetattr.size("base/log", 0));
    }

    @Test
    void aWordStartingWithHashStartsACommentAndPercent23IsAHash() throws Exception {
        Manifest m = Manifest.parse(List.of(
                "mkdir home/alice 700                # mkdir REMOTE [MODE]",
                "text notes %23 not a comment   # but this is",
                "remove a#b"), "", dir);

        assertThat(m.items()).containsExactly(new VMkdir("home/alice", 0700),
                VWrite.create("notes", "# not a comment\n".getBytes(StandardCharsets.UTF_8)), new VRemove("a#b"));
    }

    @Test
    void unknownVerbIsAUsageErrorNamingTheLine() {
        assertThatThrownBy(() -> Manifest.parse(List.of("remove x", "frob y"), "", dir))
                .isInstanceOf(CliException.class).hasMessageContaining("line 2").hasMessageContaining("frob")
                .extracting(e -> ((CliException) e).exitCode()).isEqualTo(ExitCode.USAGE);
    }

    @Test
    void wrongArgumentCountIsAUsageError() {
        assertThatThrownBy(() -> Manifest.parse(List.of("rename onlyone"), "", dir))
                .isInstanceOf(CliException.class).hasMessageContaining("takes 2 arguments");
    }

    @Test
    void missingLocalFileIsALocalError() {
        assertThatThrownBy(() -> Manifest.parse(List.of("write x nowhere"), "", dir))
                .isInstanceOf(CliException.class)
                .extracting(e -> ((CliException) e).exitCode()).isEqualTo(ExitCode.LOCAL_IO);
    }

    @Test
    void dotDotInAPathIsRefused() {
        assertThatThrownBy(() -> Manifest.parse(List.of("remove ../etc/passwd"), "", dir))
                .isInstanceOf(CliException.class).hasMessageContaining("'..'");
    }
}
