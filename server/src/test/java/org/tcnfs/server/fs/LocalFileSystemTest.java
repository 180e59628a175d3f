package org.tcnfs.server.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.AccessRight;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.FsStat;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.ReadResult;
import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.vfs.TimeChange;
import org.tcnfs.nfs4.vfs.WriteResult;
import org.tcnfs.nfs4.vfs.WriteStability;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.Nfh;

class LocalFileSystemTest extends LocalFsTestBase {

    @Test
    void rootHandleHasSixteenBytesAndIsRecognized() throws IOException {
        assertThat(root().length()).isEqualTo(16);
        assertThat(fs.recognizes(root())).isTrue();
        assertThat(fs.getattr(root()).type()).isEqualTo(FileType.DIRECTORY);
        assertThat(fs.getattr(root()).fileId()).isEqualTo(Files.getAttribute(export, "unix:ino"));
        Stat stat = fs.getattr(root());
        assertThat(fs.mountedOnFileId(root(), stat)).isEqualTo(stat.fileId());
        assertThat(fs.fileSystemId(root())).isEqualTo(fs.fileSystemId(createFile(root(), "f")));
    }

    @Test
    void foreignBytesAreNotRecognized() throws IOException {
        assertThat(fs.recognizes(Inode.of(new byte[8]))).isFalse();
        assertThat(fs.recognizes(Inode.of(Nfh.random().toBytes()))).isFalse();
    }

    @Test
    void handlesOfAnotherExportInTheSameTableAreNotOurs() throws IOException {
        Path other = Files.createDirectory(tmp.resolve("other"));
        try (LocalFileSystem second = LocalFileSystem.open("other", other, table)) {
            Inode theirs = second.create(second.getRootInode(), "f", OWNER, 0644);
            assertThat(fs.recognizes(theirs)).isFalse();
            assertThat(second.recognizes(theirs)).isTrue();
            assertStatus(NfsStatus.STALE, () -> fs.getattr(theirs));
            assertStatus(NfsStatus.XDEV, () -> fs.link(theirs, root(), "stolen"));
            assertThat(second.getRootInode()).isNotEqualTo(root());
        }
    }

    @Test
    void handlesSurviveARestart() throws IOException {
        Inode rootBefore = root();
        Inode dir = mkdir(root(), "dir");
        Inode file = createFile(dir, "file");
        writeString(file, 0, "persistent");
        restart();
        assertThat(root()).isEqualTo(rootBefore);
        assertThat(fs.lookup(root(), "dir")).isEqualTo(dir);
        assertThat(fs.lookup(dir, "file")).isEqualTo(file);
        assertThat(readString(file, 0, 100)).isEqualTo("persistent");
        assertThat(fs.parentOf(dir)).isEqualTo(rootBefore);
    }

    @Test
    void objectsMadeOutOfBandGetHandlesThatSurviveARestart() throws IOException {
        Files.createDirectories(export.resolve("a/b"));
        Files.writeString(export.resolve("a/b/c"), "out of band");
        Inode a = fs.lookup(root(), "a");
        Inode b = fs.lookup(a, "b");
        Inode c = fs.lookup(b, "c");
        restart();
        assertThat(fs.lookup(fs.lookup(fs.lookup(root(), "a"), "b"), "c")).isEqualTo(c);
        assertThat(readString(c, 0, 100)).isEqualTo("out of band");
    }

    @Test
    void lookupWithADirectoryCheckShowsTheCheckTheDirectoryAndFindsWhatPlainLookupFinds() throws IOException {
        Inode dir = mkdir(root(), "dir");
        Inode file = createFile(dir, "f");
        List<Stat> checked = new ArrayList<>();

        Inode found = fs.lookup(dir, "f", checked::add);

        assertThat(found).isEqualTo(file).isEqualTo(fs.lookup(dir, "f"));
        assertThat(checked).singleElement().satisfies(stat -> {
            assertThat(stat.type()).isEqualTo(FileType.DIRECTORY);
            assertThat(stat.fileId()).isEqualTo(fs.getattr(dir).fileId());
        });
    }

    @Test
    void lookupRefusedByTheDirectoryCheckFailsWithItsStatus() throws IOException {
        Inode dir = mkdir(root(), "dir");
        createFile(dir, "f");

        assertStatus(NfsStatus.ACCESS, () -> fs.lookup(dir, "f", stat -> {
            throw new org.tcnfs.nfs4.status.AccessException("search: permission denied");
        }));
    }

    @Test
    void lookupWithADirectoryCheckKeepsTheErrorsOfPlainLookup() throws IOException {
        Inode file = createFile(root(), "f");

        assertStatus(NfsStatus.NOTDIR, () -> fs.lookup(file, "x", stat -> { }));
        assertStatus(NfsStatus.NOENT, () -> fs.lookup(root(), "missing", stat -> { }));
        assertStatus(NfsStatus.NOENT, () -> fs.lookup(root(), LocalFileSystem.RESERVED_NAME, stat -> { }));
        assertStatus(NfsStatus.STALE, () -> fs.lookup(Inode.of(Nfh.random().toBytes()), "f", stat -> { }));
    }

    @Test
    void lookupOfAMissingNameIsNoEnt() {
        assertStatus(NfsStatus.NOENT, () -> fs.lookup(root(), "missing"));
    }

    @Test
    void lookupInAFileIsNotDir() throws IOException {
        Inode file = createFile(root(), "f");
        assertStatus(NfsStatus.NOTDIR, () -> fs.lookup(file, "x"));
    }

    @Test
    void createMakesAnEmptyFileWithExactlyTheRequestedModeAndOwner() throws IOException {
        Inode file = fs.create(root(), "f", OWNER, 04777);
        Stat stat = fs.getattr(file);
        assertThat(stat.type()).isEqualTo(FileType.REGULAR);
        assertThat(stat.size()).isZero();
        assertThat(stat.mode()).isEqualTo(04777);
        assertThat(stat.uid()).isEqualTo(1234);
        assertThat(stat.gid()).isEqualTo(5678);
        assertThat(stat.nlink()).isEqualTo(1);
        assertThat(stat.fileId()).isEqualTo(Files.getAttribute(export.resolve("f"), "unix:ino"));
        assertThat(fs.lookup(root(), "f")).isEqualTo(file);
    }

    @Test
    void createOfATakenNameIsExist() throws IOException {
        createFile(root(), "f");
        mkdir(root(), "d");
        assertStatus(NfsStatus.EXIST, () -> createFile(root(), "f"));
        assertStatus(NfsStatus.EXIST, () -> createFile(root(), "d"));
        assertStatus(NfsStatus.EXIST, () -> mkdir(root(), "f"));
    }

    @Test
    void mkdirMakesADirectoryWithStickyAndSetGidBits() throws IOException {
        Inode dir = fs.mkdir(root(), "shared", OWNER, 03777);
        Stat stat = fs.getattr(dir);
        assertThat(stat.type()).isEqualTo(FileType.DIRECTORY);
        assertThat(stat.mode()).isEqualTo(03777);
        assertThat(stat.uid()).isEqualTo(1234);
        Inode inner = fs.mkdir(dir, "inner", new Credential(42, 43, new int[0]), 0755);
        Stat innerStat = fs.getattr(inner);
        assertThat(innerStat.gid()).as("set-gid directory passes its group").isEqualTo(5678);
        assertThat(innerStat.mode()).as("and its set-gid bit").isEqualTo(02755);
    }

    @Test
    void symlinkStoresItsTargetVerbatim() throws IOException {
        String target = "a//b/../c/";
        Inode link = fs.symlink(root(), "l", target, OWNER, 0777);
        assertThat(fs.readlink(link)).isEqualTo(target);
        Stat stat = fs.getattr(link);
        assertThat(stat.type()).isEqualTo(FileType.SYMLINK);
        assertThat(stat.size()).isEqualTo(target.length());
        assertThat(stat.uid()).isEqualTo(1234);
        assertThat(Files.readSymbolicLink(export.resolve("l")).toString()).isEqualTo(target);
    }

    @Test
    void readlinkOfAFileIsInval() throws IOException {
        Inode file = createFile(root(), "f");
        assertStatus(NfsStatus.INVAL, () -> fs.readlink(file));
    }

    @Test
    void mknodMakesFifosSocketsAndDevices() throws IOException {
        Inode fifo = fs.mknod(root(), "fifo", FileType.FIFO, 0, 0, OWNER, 0640);
        Inode socket = fs.mknod(root(), "socket", FileType.SOCKET, 0, 0, OWNER, 0600);
        Inode chr = fs.mknod(root(), "null", FileType.CHAR, 1, 3, OWNER, 0666);
        Inode blk = fs.mknod(root(), "blk", FileType.BLOCK, 259, 70000, OWNER, 0660);
        assertThat(fs.getattr(fifo).type()).isEqualTo(FileType.FIFO);
        assertThat(fs.getattr(fifo).mode()).isEqualTo(0640);
        assertThat(fs.getattr(socket).type()).isEqualTo(FileType.SOCKET);
        Stat chrStat = fs.getattr(chr);
        assertThat(chrStat.type()).isEqualTo(FileType.CHAR);
        assertThat(chrStat.rdevMajor()).isEqualTo(1);
        assertThat(chrStat.rdevMinor()).isEqualTo(3);
        Stat blkStat = fs.getattr(blk);
        assertThat(blkStat.type()).isEqualTo(FileType.BLOCK);
        assertThat(blkStat.rdevMajor()).isEqualTo(259);
        assertThat(blkStat.rdevMinor()).isEqualTo(70000);
        assertThat(Files.getAttribute(export.resolve("null"), "unix:rdev", LinkOption.NOFOLLOW_LINKS))
                .isEqualTo(0x103L);
    }

    @Test
    void mknodOfARegularFileOrDirectoryIsBadType() {
        assertStatus(NfsStatus.BADTYPE, () -> fs.mknod(root(), "x", FileType.REGULAR, 0, 0, OWNER, 0644));
        assertStatus(NfsStatus.BADTYPE, () -> fs.mknod(root(), "x", FileType.DIRECTORY, 0, 0, OWNER, 0755));
        assertThat(Files.exists(export.resolve("x"), LinkOption.NOFOLLOW_LINKS)).isFalse();
    }

    @Test
    void writtenDataReadsBackWithEndOfFile() throws IOException {
        Inode file = createFile(root(), "f");
        byte[] data = "hello, world".getBytes(StandardCharsets.UTF_8);
        WriteResult written = fs.write(file, 0, ByteBuffer.wrap(data), WriteStability.UNSTABLE);
        assertThat(written).isEqualTo(new WriteResult(data.length, WriteStability.UNSTABLE));

        ByteBuffer head = ByteBuffer.allocate(5);
        assertThat(fs.read(file, 0, head)).isEqualTo(new ReadResult(5, false));
        assertThat(new String(head.array(), StandardCharsets.UTF_8)).isEqualTo("hello");
        ByteBuffer rest = ByteBuffer.allocate(100);
        assertThat(fs.read(file, 7, rest)).isEqualTo(new ReadResult(5, true));
        assertThat(fs.read(file, 1000, ByteBuffer.allocate(10))).isEqualTo(new ReadResult(0, true));
        assertThat(Files.readString(export.resolve("f"))).isEqualTo("hello, world");
    }

    @Test
    void stableWritesAndCommitAreAnsweredAsAsked() throws IOException {
        Inode file = createFile(root(), "f");
        assertThat(fs.write(file, 0, ByteBuffer.wrap(new byte[10]), WriteStability.DATA_SYNC).committed())
                .isEqualTo(WriteStability.DATA_SYNC);
        assertThat(fs.write(file, 10, ByteBuffer.wrap(new byte[10]), WriteStability.FILE_SYNC).committed())
                .isEqualTo(WriteStability.FILE_SYNC);
        fs.commit(file, 0, 0);
        assertThat(fs.getattr(file).size()).isEqualTo(20);
    }

    @Test
    void writeFarAwayMakesASparseFile() throws IOException {
        Inode file = createFile(root(), "sparse");
        writeString(file, 1L << 30, "x");
        Stat stat = fs.getattr(file);
        assertThat(stat.size()).isEqualTo((1L << 30) + 1);
        assertThat(stat.spaceUsed()).isLessThan(1L << 20);
        assertThat(readString(file, 1L << 30, 10)).isEqualTo("x");
    }

    @Test
    void dataOperationsOnADirectoryAreIsDirAndOnOtherObjectsInval() throws IOException {
        Inode dir = mkdir(root(), "d");
        Inode link = fs.symlink(root(), "l", "d", OWNER, 0777);
        assertStatus(NfsStatus.ISDIR, () -> fs.read(dir, 0, ByteBuffer.allocate(1)));
        assertStatus(NfsStatus.ISDIR, () -> writeString(dir, 0, "x"));
        assertStatus(NfsStatus.ISDIR, () -> fs.commit(dir, 0, 0));
        assertStatus(NfsStatus.INVAL, () -> fs.read(link, 0, ByteBuffer.allocate(1)));
        assertStatus(NfsStatus.INVAL, () -> writeString(link, 0, "x"));
        assertStatus(NfsStatus.INVAL, () -> fs.read(createFile(root(), "f"), -1, ByteBuffer.allocate(1)));
    }

    @Test
    void setattrChangesSizeModeOwnerAndTimesWithNanoseconds() throws IOException {
        Inode file = createFile(root(), "f");
        writeString(file, 0, "0123456789");
        fs.setattr(file, SetAttributes.NONE.withSize(4L));
        assertThat(readString(file, 0, 100)).isEqualTo("0123");
        fs.setattr(file, SetAttributes.NONE.withSize(8L));
        assertThat(fs.getattr(file).size()).isEqualTo(8);

        fs.setattr(file, SetAttributes.NONE.withOwner(77, 88));
        fs.setattr(file, SetAttributes.NONE.withMode(06711));
        Stat stat = fs.getattr(file);
        assertThat(stat.uid()).isEqualTo(77);
        assertThat(stat.gid()).isEqualTo(88);
        assertThat(stat.mode()).isEqualTo(06711);

        Instant atime = Instant.ofEpochSecond(1_000_000_000L, 123_456_789);
        Instant mtime = Instant.ofEpochSecond(1_500_000_000L, 987_654_321);
        fs.setattr(file, SetAttributes.NONE.withTimes(TimeChange.at(atime), TimeChange.at(mtime)));
        stat = fs.getattr(file);
        assertThat(stat.atime()).isEqualTo(atime);
        assertThat(stat.mtime()).isEqualTo(mtime);
        assertThat(Files.getLastModifiedTime(export.resolve("f")).toInstant()).isEqualTo(mtime);

        Instant before = Instant.now().minusSeconds(5);
        fs.setattr(file, SetAttributes.NONE.withTimes(null, TimeChange.serverTime()));
        stat = fs.getattr(file);
        assertThat(stat.mtime()).isAfter(before);
        assertThat(stat.atime()).as("atime left alone").isEqualTo(atime);
    }

    @Test
    void setattrOfASymlinkChangesTheLinkNotItsTarget() throws IOException {
        Inode target = createFile(root(), "target");
        fs.setattr(target, SetAttributes.NONE.withMode(0600));
        Instant targetTime = Instant.ofEpochSecond(1_000_000_000L);
        fs.setattr(target, SetAttributes.NONE.withTimes(TimeChange.at(targetTime), TimeChange.at(targetTime)));
        Inode link = fs.symlink(root(), "link", "target", OWNER, 0777);
        Instant linkTime = Instant.ofEpochSecond(1_200_000_000L, 5);
        fs.setattr(link, new SetAttributes(0644, 99, 98, null, TimeChange.at(linkTime), TimeChange.at(linkTime)));
        Stat linkStat = fs.getattr(link);
        assertThat(linkStat.mtime()).isEqualTo(linkTime);
        assertThat(linkStat.uid()).isEqualTo(99);
        Stat targetStat = fs.getattr(target);
        assertThat(targetStat.mtime()).isEqualTo(targetTime);
        assertThat(targetStat.mode()).isEqualTo(0600);
        assertThat(targetStat.uid()).isEqualTo(1234);
        assertStatus(NfsStatus.INVAL, () -> fs.setattr(link, SetAttributes.NONE.withSize(0L)));
        assertStatus(NfsStatus.INVAL, () -> fs.setattr(root(), SetAttributes.NONE.withSize(0L)));
    }

    @Test
    void getattrReportsNanosecondTimesAndSpace() throws IOException {
        Inode file = createFile(root(), "f");
        writeString(file, 0, "x".repeat(10_000));
        Files.setLastModifiedTime(export.resolve("f"), FileTime.from(Instant.ofEpochSecond(1_600_000_000L, 1)));
        Stat stat = fs.getattr(file);
        assertThat(stat.mtime()).isEqualTo(Instant.ofEpochSecond(1_600_000_000L, 1));
        assertThat(stat.size()).isEqualTo(10_000);
        assertThat(stat.spaceUsed()).isGreaterThanOrEqualTo(8192);
        assertThat(stat.ctime()).isAfter(Instant.now().minusSeconds(60));
        assertThat(stat.btime()).isNotNull().isBeforeOrEqualTo(stat.ctime());
    }

    @Test
    void changeDiffersAfterEveryWriteEvenWithinOneClockTick() throws IOException {
        Inode file = createFile(root(), "f");
        List<Long> seen = new ArrayList<>();
        seen.add(fs.getattr(file).change());
        for (int i = 0; i < 20; i++) {
            writeString(file, 0, "x");
            seen.add(fs.getattr(file).change());
        }
        fs.setattr(file, SetAttributes.NONE.withMode(0600));
        seen.add(fs.getattr(file).change());
        assertThat(seen).doesNotHaveDuplicates().isSorted();
    }

    @Test
    void directoryChangeDiffersAfterEachNamespaceOperation() throws IOException {
        Inode dir = mkdir(root(), "d");
        List<Long> seen = new ArrayList<>();
        seen.add(fs.getattr(dir).change());
        createFile(dir, "a");
        seen.add(fs.getattr(dir).change());
        fs.rename(dir, "a", dir, "b");
        seen.add(fs.getattr(dir).change());
        fs.link(fs.lookup(dir, "b"), dir, "c");
        seen.add(fs.getattr(dir).change());
        fs.remove(dir, "b");
        seen.add(fs.getattr(dir).change());
        mkdir(dir, "sub");
        seen.add(fs.getattr(dir).change());
        assertThat(seen).doesNotHaveDuplicates().isSorted();
    }

    @Test
    void hardLinksShareOneHandleAndRemovingOneNameKeepsIt() throws IOException {
        Inode dir = mkdir(root(), "d");
        Inode file = createFile(root(), "a");
        writeString(file, 0, "shared");
        fs.link(file, dir, "b");
        assertThat(fs.lookup(dir, "b")).isEqualTo(file);
        assertThat(fs.getattr(file).nlink()).isEqualTo(2);

        fs.remove(root(), "a");
        assertThat(fs.getattr(file).nlink()).isEqualTo(1);
        assertThat(readString(file, 0, 100)).isEqualTo("shared");
        restart();
        assertThat(readString(file, 0, 100)).isEqualTo("shared");
        assertThat(fs.lookup(dir, "b")).isEqualTo(file);

        fs.remove(dir, "b");
        assertStatus(NfsStatus.STALE, () -> fs.getattr(file));
    }

    @Test
    void aHardLinkMadeOutOfBandJoinsTheKnownHandle() throws IOException {
        Inode file = createFile(root(), "a");
        Files.createLink(export.resolve("b"), export.resolve("a"));
        assertThat(fs.lookup(root(), "b")).isEqualTo(file);
        Files.delete(export.resolve("a"));
        assertThat(fs.getattr(file).nlink()).isEqualTo(1);
    }

    @Test
    void linkRefusesDirectoriesAndTakenNames() throws IOException {
        Inode dir = mkdir(root(), "d");
        Inode file = createFile(root(), "f");
        createFile(root(), "g");
        assertStatus(NfsStatus.ISDIR, () -> fs.link(dir, root(), "d2"));
        assertStatus(NfsStatus.EXIST, () -> fs.link(file, root(), "g"));
        assertStatus(NfsStatus.NOTDIR, () -> fs.link(file, file, "x"));
    }

    @Test
    void removeTakesFilesAndEmptyDirectoriesOnly() throws IOException {
        Inode dir = mkdir(root(), "d");
        Inode file = createFile(dir, "f");
        assertStatus(NfsStatus.NOTEMPTY, () -> fs.remove(root(), "d"));
        fs.remove(dir, "f");
        assertStatus(NfsStatus.STALE, () -> fs.getattr(file));
        fs.remove(root(), "d");
        assertStatus(NfsStatus.STALE, () -> fs.getattr(dir));
        assertStatus(NfsStatus.NOENT, () -> fs.remove(root(), "d"));
        assertThat(Files.exists(export.resolve("d"))).isFalse();
    }

    @Test
    void removedFileIsStaleEvenWithAnOpenChannel() throws IOException {
        Inode file = createFile(root(), "f");
        writeString(file, 0, "data");
        fs.remove(root(), "f");
        assertStatus(NfsStatus.STALE, () -> fs.read(file, 0, ByteBuffer.allocate(10)));
        assertStatus(NfsStatus.STALE, () -> writeString(file, 0, "more"));
    }

    @Test
    void renameKeepsTheHandle() throws IOException {
        Inode dir = mkdir(root(), "d");
        Inode file = createFile(root(), "a");
        fs.rename(root(), "a", dir, "b");
        assertThat(fs.lookup(dir, "b")).isEqualTo(file);
        assertStatus(NfsStatus.NOENT, () -> fs.lookup(root(), "a"));
        assertThat(fs.getattr(file).type()).isEqualTo(FileType.REGULAR);
        assertThat(Files.exists(export.resolve("d/b"))).isTrue();
    }

    @Test
    void renamingADirectoryKeepsDescendantHandlesWorking() throws IOException {
        Inode a = mkdir(root(), "a");
        Inode b = mkdir(a, "b");
        Inode c = createFile(b, "c");
        writeString(c, 0, "deep");
        Inode elsewhere = mkdir(root(), "elsewhere");
        fs.rename(root(), "a", elsewhere, "moved");
        assertThat(readString(c, 0, 10)).isEqualTo("deep");
        writeString(c, 4, "er");
        assertThat(Files.readString(export.resolve("elsewhere/moved/b/c"))).isEqualTo("deeper");
        assertThat(fs.parentOf(b)).isEqualTo(a);
        assertThat(fs.parentOf(a)).isEqualTo(elsewhere);
        assertThat(fs.lookup(fs.lookup(fs.lookup(elsewhere, "moved"), "b"), "c")).isEqualTo(c);
        restart();
        assertThat(readString(c, 0, 10)).isEqualTo("deeper");
    }

    @Test
    void renameOverAFileReplacesItAndItsHandleGoesStale() throws IOException {
        Inode x = createFile(root(), "x");
        Inode y = createFile(root(), "y");
        writeString(x, 0, "x wins");
        fs.rename(root(), "x", root(), "y");
        assertThat(fs.lookup(root(), "y")).isEqualTo(x);
        assertStatus(NfsStatus.STALE, () -> fs.getattr(y));
        assertThat(Files.readString(export.resolve("y"))).isEqualTo("x wins");
    }

    @Test
    void renameOverAHardLinkedFileKeepsTheReplacedHandleAlive() throws IOException {
        Inode x = createFile(root(), "x");
        Inode y = createFile(root(), "y");
        fs.link(y, root(), "y2");
        fs.rename(root(), "x", root(), "y");
        assertThat(fs.lookup(root(), "y")).isEqualTo(x);
        assertThat(fs.getattr(y).nlink()).isEqualTo(1);
        assertThat(fs.lookup(root(), "y2")).isEqualTo(y);
    }

    @Test
    void renameFollowsPosixForDirectories() throws IOException {
        Inode src = mkdir(root(), "src");
        createFile(src, "inside");
        Inode empty = mkdir(root(), "empty");
        Inode full = mkdir(root(), "full");
        createFile(full, "x");
        createFile(root(), "file");
        assertStatus(NfsStatus.EXIST, () -> fs.rename(root(), "src", root(), "full"));
        assertStatus(NfsStatus.EXIST, () -> fs.rename(root(), "src", root(), "file"));
        assertStatus(NfsStatus.EXIST, () -> fs.rename(root(), "file", root(), "empty"));
        assertStatus(NfsStatus.INVAL, () -> fs.rename(root(), "src", src, "loop"));
        fs.rename(root(), "src", root(), "empty");
        assertThat(fs.lookup(root(), "empty")).isEqualTo(src);
        assertStatus(NfsStatus.STALE, () -> fs.getattr(empty));
        assertThat(fs.getattr(full).type()).isEqualTo(FileType.DIRECTORY);
        assertStatus(NfsStatus.NOENT, () -> fs.rename(root(), "nothing", root(), "x"));
    }

    @Test
    void renameOntoAnotherNameOfTheSameFileChangesNothing() throws IOException {
        Inode file = createFile(root(), "a");
        fs.link(file, root(), "b");
        fs.rename(root(), "a", root(), "b");
        assertThat(Files.exists(export.resolve("a"))).isTrue();
        assertThat(fs.lookup(root(), "a")).isEqualTo(file);
        assertThat(fs.lookup(root(), "b")).isEqualTo(file);
        fs.rename(root(), "a", root(), "a");
        assertThat(fs.lookup(root(), "a")).isEqualTo(file);
    }

    @Test
    void parentOfTheRootIsNoEntAndOfAFileNotDir() throws IOException {
        Inode file = createFile(root(), "f");
        assertStatus(NfsStatus.NOENT, () -> fs.parentOf(root()));
        assertStatus(NfsStatus.NOTDIR, () -> fs.parentOf(file));
    }

    @Test
    void fsStatReportsCapacityAndFileSlots() throws IOException {
        FsStat stat = fs.getFsStat(root());
        assertThat(stat.totalBytes()).isPositive();
        assertThat(stat.freeBytes()).isBetween(0L, stat.totalBytes());
        assertThat(stat.availableBytes()).isBetween(0L, stat.freeBytes());
        assertThat(stat.totalFiles()).isPositive();
        assertThat(stat.freeFiles()).isBetween(0L, stat.totalFiles());
    }

    @Test
    void accessGrantsWhatIsAsked() throws IOException {
        assertThat(fs.access(root(), Set.of(AccessRight.READ, AccessRight.MODIFY)))
                .containsExactlyInAnyOrder(AccessRight.READ, AccessRight.MODIFY);
    }

    @Test
    void unicodeNamesRoundTrip() throws IOException {
        String name = "grüße-日本-" + "é".repeat(100);
        Inode file = createFile(root(), name);
        assertThat(Files.exists(export.resolve(name))).isTrue();
        assertThat(fs.lookup(root(), name)).isEqualTo(file);
        assertThat(fs.list(root(), new byte[8], 0, 10).entries()).extracting(e -> e.name()).containsExactly(name);
    }

    @Test
    void openFilesStayBoundedAndAreReleasedOnClose() throws Exception {
        fs.close();
        fs = LocalFileSystem.builder(EXPORT, export, table).maxOpenFiles(8).build();
        long before = openDescriptorsInExport();
        List<Inode> files = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            Inode file = createFile(root(), "f" + i);
            writeString(file, 0, "content " + i);
            files.add(file);
        }
        for (int i = 0; i < files.size(); i++) {
            assertThat(readString(files.get(i), 0, 100)).isEqualTo("content " + i);
        }
        assertThat(openDescriptorsInExport()).isLessThanOrEqualTo(before + 8);
        fs.close();
        assertThat(openDescriptorsInExport()).isLessThanOrEqualTo(before);
        fs = LocalFileSystem.open(EXPORT, export, table);
    }

    @Test
    void concurrentWritersAndReadersOfManyFilesSeeTheirOwnData() throws Exception {
        fs.close();
        fs = LocalFileSystem.builder(EXPORT, export, table).maxOpenFiles(4).build();
        Inode dir = mkdir(root(), "work");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> tasks = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                tasks.add(pool.submit(() -> {
                    for (int i = 0; i < 40; i++) {
                        Inode file = createFile(dir, "t" + thread + "-" + i);
                        String text = "thread " + thread + " file " + i;
                        writeString(file, 0, text);
                        assertThat(readString(file, 0, 100)).isEqualTo(text);
                        assertThat(fs.lookup(dir, "t" + thread + "-" + i)).isEqualTo(file);
                    }
                    return null;
                }));
            }
            for (Future<?> task : tasks) {
                task.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        try (var stream = Files.list(export.resolve("work"))) {
            assertThat(stream.count()).isEqualTo(320);
        }
    }

    @Test
    void theHandleTableBelongsToTheCaller() throws IOException {
        fs.close();
        assertThat(table.root(EXPORT)).isPresent();
        fs = LocalFileSystem.open(EXPORT, export, table);
    }

    @Test
    void aRootThatIsNotADirectoryIsRefused() throws IOException {
        Path file = Files.writeString(tmp.resolve("plain"), "x");
        assertStatus(NfsStatus.NOTDIR, () -> LocalFileSystem.open("plain", file, table));
        try (HandleTable other = HandleTable.open(tmp.resolve("other-state"))) {
            assertThat(other.root("plain")).isEmpty();
        }
    }

}
