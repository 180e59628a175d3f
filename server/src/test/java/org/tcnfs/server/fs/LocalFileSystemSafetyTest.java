package org.tcnfs.server.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.DirEntry;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.txn.handles.Nfh;

/** Names, handles and symbolic links that must not lead the server astray. */
class LocalFileSystemSafetyTest extends LocalFsTestBase {

    @Test
    void improperNamesAreRefusedWithTheirStatus() throws IOException {
        Inode dir = mkdir(root(), "d");
        record Case(String name, NfsStatus status) { }
        List<Case> cases = List.of(new Case("", NfsStatus.INVAL), new Case(".", NfsStatus.BADNAME),
                new Case("..", NfsStatus.BADNAME), new Case("a/b", NfsStatus.BADCHAR),
                new Case("/", NfsStatus.BADCHAR), new Case("a\0b", NfsStatus.BADCHAR),
                new Case("x".repeat(256), NfsStatus.NAMETOOLONG), new Case("é".repeat(128), NfsStatus.NAMETOOLONG),
                new Case("bad\uD800", NfsStatus.INVAL));
        for (Case c : cases) {
            assertStatus(c.status(), () -> fs.lookup(dir, c.name()));
            assertStatus(c.status(), () -> createFile(dir, c.name()));
            assertStatus(c.status(), () -> mkdir(dir, c.name()));
            assertStatus(c.status(), () -> fs.symlink(dir, c.name(), "t", OWNER, 0777));
            assertStatus(c.status(), () -> fs.remove(dir, c.name()));
            assertStatus(c.status(), () -> fs.rename(root(), "d", dir, c.name()));
            assertStatus(c.status(), () -> fs.link(dir, dir, c.name()));
        }
        try (var stream = Files.list(export.resolve("d"))) {
            assertThat(stream.count()).isZero();
        }
        Inode longest = createFile(dir, "x".repeat(255));
        assertThat(fs.lookup(dir, "x".repeat(255))).isEqualTo(longest);
    }

    @Test
    void improperSymlinkTargetsAreRefused() {
        assertStatus(NfsStatus.INVAL, () -> fs.symlink(root(), "l", "", OWNER, 0777));
        assertStatus(NfsStatus.BADCHAR, () -> fs.symlink(root(), "l", "a\0b", OWNER, 0777));
        assertStatus(NfsStatus.NAMETOOLONG, () -> fs.symlink(root(), "l", "a".repeat(4096), OWNER, 0777));
        assertThat(Files.exists(export.resolve("l"), LinkOption.NOFOLLOW_LINKS)).isFalse();
    }

    @Test
    void handlesOfTheWrongLengthAreBadHandle() {
        Inode shorter = Inode.of(new byte[15]);
        Inode longer = Inode.of(new byte[17]);
        Inode empty = Inode.of(new byte[0]);
        for (Inode bad : List.of(shorter, longer, empty)) {
            assertStatus(NfsStatus.BADHANDLE, () -> fs.getattr(bad));
            assertStatus(NfsStatus.BADHANDLE, () -> fs.lookup(bad, "x"));
            assertStatus(NfsStatus.BADHANDLE, () -> fs.read(bad, 0, ByteBuffer.allocate(1)));
            assertStatus(NfsStatus.BADHANDLE, () -> fs.rename(bad, "a", root(), "b"));
        }
    }

    @Test
    void unknownHandlesAreStale() {
        Inode unknown = Inode.of(Nfh.random().toBytes());
        assertStatus(NfsStatus.STALE, () -> fs.getattr(unknown));
        assertStatus(NfsStatus.STALE, () -> fs.lookup(unknown, "x"));
        assertStatus(NfsStatus.STALE, () -> fs.list(unknown, new byte[8], 0, 10));
        assertStatus(NfsStatus.STALE, () -> fs.setattr(unknown, SetAttributes.NONE.withMode(0777)));
    }

    @Test
    void aFileDeletedOutOfBandIsStale() throws IOException {
        Inode file = createFile(root(), "f");
        writeString(file, 0, "cached channel");
        Files.delete(export.resolve("f"));
        assertStatus(NfsStatus.STALE, () -> fs.getattr(file));
        assertStatus(NfsStatus.STALE, () -> fs.read(file, 0, ByteBuffer.allocate(10)));
        assertStatus(NfsStatus.STALE, () -> writeString(file, 0, "x"));
        assertStatus(NfsStatus.NOENT, () -> fs.lookup(root(), "f"));
    }

    @Test
    void aFileReplacedOutOfBandIsStaleAndTheNewOneGetsAnotherHandle() throws IOException {
        Inode file = createFile(root(), "f");
        Path path = export.resolve("f");
        Path replacement = Files.writeString(tmp.resolve("replacement"), "new");
        Files.move(replacement, path, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertStatus(NfsStatus.STALE, () -> fs.getattr(file));
        Inode now = fs.lookup(root(), "f");
        assertThat(now).isNotEqualTo(file);
        assertThat(readString(now, 0, 10)).isEqualTo("new");
        assertStatus(NfsStatus.STALE, () -> fs.getattr(file));
    }

    @Test
    void aDirectoryReplacedOutOfBandByASymlinkToTheRootIsStale() throws IOException {
        Inode dir = mkdir(root(), "d");
        Inode inside = createFile(dir, "passwd");
        deleteTree(export.resolve("d"));
        Files.createSymbolicLink(export.resolve("d"), Path.of("/etc"));
        assertStatus(NfsStatus.STALE, () -> fs.getattr(dir));
        assertStatus(NfsStatus.STALE, () -> fs.lookup(dir, "passwd"));
        assertStatus(NfsStatus.STALE, () -> fs.getattr(inside));
        assertStatus(NfsStatus.STALE, () -> fs.list(dir, new byte[8], 0, 100));
        assertStatus(NfsStatus.STALE, () -> createFile(dir, "planted"));
        Inode link = fs.lookup(root(), "d");
        assertThat(fs.getattr(link).type()).isEqualTo(FileType.SYMLINK);
        assertStatus(NfsStatus.NOTDIR, () -> fs.lookup(link, "passwd"));
        assertThat(Files.exists(Path.of("/etc/planted"))).isFalse();
    }

    @Test
    void lookupThroughASymlinkToTheRootNeverLeavesTheExport() throws IOException {
        Inode link = fs.symlink(root(), "escape", "/", OWNER, 0777);
        assertStatus(NfsStatus.NOTDIR, () -> fs.lookup(link, "etc"));
        assertStatus(NfsStatus.NOTDIR, () -> fs.list(link, new byte[8], 0, 10));
        assertStatus(NfsStatus.NOTDIR, () -> createFile(link, "x"));
        assertStatus(NfsStatus.NOTDIR, () -> fs.parentOf(link));
        Inode relative = fs.symlink(root(), "up", "../../../../..", OWNER, 0777);
        assertStatus(NfsStatus.NOTDIR, () -> fs.lookup(relative, "etc"));
        assertThat(fs.readlink(link)).isEqualTo("/");
    }

    @Test
    void aSymlinkPlantedOnTheWayToAKnownObjectMakesItStale() throws IOException {
        Inode a = mkdir(root(), "a");
        Inode b = mkdir(a, "b");
        Inode file = createFile(b, "f");
        writeString(file, 0, "inside");
        // move the directory out of the export (same inodes) and leave a symlink to it in its place
        Path outside = tmp.resolve("outside");
        Files.move(export.resolve("a"), outside);
        Files.createSymbolicLink(export.resolve("a"), outside);
        assertStatus(NfsStatus.STALE, () -> fs.getattr(a));
        assertStatus(NfsStatus.STALE, () -> fs.getattr(b));
        assertStatus(NfsStatus.STALE, () -> fs.getattr(file));
        assertStatus(NfsStatus.STALE, () -> fs.read(file, 0, ByteBuffer.allocate(10)));
        assertStatus(NfsStatus.STALE, () -> createFile(b, "planted"));
        assertThat(Files.exists(outside.resolve("b/planted"))).isFalse();
    }

    @Test
    void theReservedNameIsInvisibleAndUntouchable() throws IOException {
        Path reserved = fs.reservedDirectory();
        assertThat(reserved).isEqualTo(export.resolve(LocalFileSystem.RESERVED_NAME));
        assertThat(Files.isDirectory(reserved, LinkOption.NOFOLLOW_LINKS)).isTrue();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(reserved))).isEqualTo("rwx------");
        assertThat(fs.reservedDirectory()).isEqualTo(reserved);
        Files.writeString(reserved.resolve("backup"), "secret");
        Inode file = createFile(root(), "f");

        String name = LocalFileSystem.RESERVED_NAME;
        assertStatus(NfsStatus.NOENT, () -> fs.lookup(root(), name));
        assertStatus(NfsStatus.ACCESS, () -> createFile(root(), name));
        assertStatus(NfsStatus.ACCESS, () -> mkdir(root(), name));
        assertStatus(NfsStatus.ACCESS, () -> fs.symlink(root(), name, "x", OWNER, 0777));
        assertStatus(NfsStatus.ACCESS, () -> fs.mknod(root(), name, FileType.FIFO, 0, 0, OWNER, 0600));
        assertStatus(NfsStatus.ACCESS, () -> fs.link(file, root(), name));
        assertStatus(NfsStatus.ACCESS, () -> fs.rename(root(), "f", root(), name));
        assertStatus(NfsStatus.NOENT, () -> fs.rename(root(), name, root(), "stolen"));
        assertStatus(NfsStatus.NOENT, () -> fs.remove(root(), name));
        List<DirEntry> entries = fs.list(root(), new byte[8], 0, 100).entries();
        assertThat(entries).extracting(DirEntry::name).containsExactly("f");
        assertThat(Files.readString(reserved.resolve("backup"))).isEqualTo("secret");

        Inode dir = mkdir(root(), "sub");
        Inode notReservedHere = mkdir(dir, name);
        assertThat(fs.lookup(dir, name)).isEqualTo(notReservedHere);
    }

    @Test
    void theReservedNameIsRefusedEvenBeforeItExists() {
        assertStatus(NfsStatus.ACCESS, () -> mkdir(root(), LocalFileSystem.RESERVED_NAME));
        assertThat(Files.exists(export.resolve(LocalFileSystem.RESERVED_NAME))).isFalse();
    }

    @Test
    void anObjectRenamedOutOfBandIsFoundUnderItsNewNameWithANewHandle() throws IOException {
        Inode file = createFile(root(), "old");
        Files.move(export.resolve("old"), export.resolve("new"));
        assertStatus(NfsStatus.STALE, () -> fs.getattr(file));
        Inode found = fs.lookup(root(), "new");
        assertThat(fs.getattr(found).fileId()).isEqualTo(Files.getAttribute(export.resolve("new"), "unix:ino"));
    }

    @Test
    void aCreateOverAStaleNameRowGetsAFreshHandle() throws IOException {
        Inode first = createFile(root(), "f");
        Files.delete(export.resolve("f"));
        Inode second = createFile(root(), "f");
        assertThat(second).isNotEqualTo(first);
        assertThat(fs.lookup(root(), "f")).isEqualTo(second);
        assertStatus(NfsStatus.STALE, () -> fs.getattr(first));
    }

    @Test
    void aFileDeletedAndRecreatedOutOfBandIsANewObject() throws IOException, InterruptedException {
        Inode file = createFile(root(), "f");
        Files.delete(export.resolve("f"));
        Thread.sleep(20); // past the birth-time clock's tick, so the generation tells them apart
        Files.writeString(export.resolve("f"), "new");
        assertStatus(NfsStatus.STALE, () -> fs.getattr(file));
        Inode now = fs.lookup(root(), "f");
        assertThat(now).isNotEqualTo(file);
        assertThat(readString(now, 0, 10)).isEqualTo("new");
    }

    private static void deleteTree(Path path) throws IOException {
        try (var walk = Files.walk(path)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
