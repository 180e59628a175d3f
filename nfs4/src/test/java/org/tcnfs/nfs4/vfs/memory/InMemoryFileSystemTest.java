package org.tcnfs.nfs4.vfs.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.status.NfsAssertions.assertStatus;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.DirEntry;
import org.tcnfs.nfs4.vfs.DirectoryListing;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.ReadResult;
import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.vfs.TimeChange;
import org.tcnfs.nfs4.vfs.WriteStability;

class InMemoryFileSystemTest {
    private static final Credential ALICE = new Credential(1000, 100, new int[] {5});
    private static final byte[] ZERO_VERIFIER = new byte[8];

    private final InMemoryFileSystem fs = new InMemoryFileSystem();
    private final Inode root = fs.getRootInode();

    private void write(Inode file, long offset, String text) throws IOException {
        fs.write(file, offset, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), WriteStability.UNSTABLE);
    }

    private String readAll(Inode file) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(1 << 16);
        fs.read(file, 0, buf);
        buf.flip();
        return StandardCharsets.UTF_8.decode(buf).toString();
    }

    @Test
    void rootIsADirectoryOwnedByRootWithoutParent() throws IOException {
        Stat stat = fs.getattr(root);
        assertThat(stat.type()).isEqualTo(FileType.DIRECTORY);
        assertThat(stat.uid()).isZero();
        assertThat(stat.mode()).isEqualTo(0755);
        assertThat(stat.nlink()).isEqualTo(2);
        assertThat(root.length()).isEqualTo(16);
        assertStatus(() -> fs.parentOf(root), NfsStatus.NOENT);
    }

    @Test
    void createdFileIsOwnedByTheCredentialAndFoundByLookup() throws IOException {
        Inode file = fs.create(root, "a", ALICE, 0640);
        assertThat(fs.lookup(root, "a")).isEqualTo(file);
        Stat stat = fs.getattr(file);
        assertThat(stat.type()).isEqualTo(FileType.REGULAR);
        assertThat(stat.uid()).isEqualTo(1000);
        assertThat(stat.gid()).isEqualTo(100);
        assertThat(stat.mode()).isEqualTo(0640);
        assertThat(stat.nlink()).isEqualTo(1);
        assertThat(stat.size()).isZero();
    }

    @Test
    void createOfTakenNameIsExist() throws IOException {
        fs.create(root, "a", ALICE, 0644);
        assertStatus(() -> fs.create(root, "a", ALICE, 0644), NfsStatus.EXIST);
        assertStatus(() -> fs.mkdir(root, "a", ALICE, 0755), NfsStatus.EXIST);
    }

    @Test
    void lookupOfMissingNameIsNoEntAndInFileIsNotDir() throws IOException {
        Inode file = fs.create(root, "f", ALICE, 0644);
        assertStatus(() -> fs.lookup(root, "missing"), NfsStatus.NOENT);
        assertStatus(() -> fs.lookup(file, "x"), NfsStatus.NOTDIR);
        assertStatus(() -> fs.create(file, "x", ALICE, 0644), NfsStatus.NOTDIR);
    }

    @Test
    void writeThenReadReturnsTheDataAndEof() throws IOException {
        Inode file = fs.create(root, "f", ALICE, 0644);
        write(file, 0, "hello");
        write(file, 10, "world");
        Stat stat = fs.getattr(file);
        assertThat(stat.size()).isEqualTo(15);
        ByteBuffer buf = ByteBuffer.allocate(7);
        ReadResult first = fs.read(file, 0, buf);
        assertThat(first.count()).isEqualTo(7);
        assertThat(first.eof()).isFalse();
        assertThat(new String(buf.array(), 0, 5, StandardCharsets.UTF_8)).isEqualTo("hello");
        assertThat(buf.array()[5]).isZero();
        ByteBuffer rest = ByteBuffer.allocate(100);
        ReadResult second = fs.read(file, 7, rest);
        assertThat(second.count()).isEqualTo(8);
        assertThat(second.eof()).isTrue();
        assertThat(fs.read(file, 100, ByteBuffer.allocate(4))).isEqualTo(new ReadResult(0, true));
    }

    @Test
    void readAndWriteOfDirectoryIsIsDirAndOfSymlinkIsInval() throws IOException {
        Inode link = fs.symlink(root, "l", "target", ALICE, 0777);
        assertStatus(() -> fs.read(root, 0, ByteBuffer.allocate(1)), NfsStatus.ISDIR);
        assertStatus(() -> write(root, 0, "x"), NfsStatus.ISDIR);
        assertStatus(() -> fs.read(link, 0, ByteBuffer.allocate(1)), NfsStatus.INVAL);
    }

    @Test
    void truncateShrinksAndExtendsWithZeros() throws IOException {
        Inode file = fs.create(root, "f", ALICE, 0644);
        write(file, 0, "abcdef");
        fs.setattr(file, SetAttributes.NONE.withSize(2L));
        fs.setattr(file, SetAttributes.NONE.withSize(4L));
        assertThat(readAll(file)).isEqualTo("ab\0\0");
        assertStatus(() -> fs.setattr(root, SetAttributes.NONE.withSize(0L)), NfsStatus.INVAL);
    }

    @Test
    void everyModificationChangesTheChangeAttribute() throws IOException {
        Inode file = fs.create(root, "f", ALICE, 0644);
        long c0 = fs.getattr(file).change();
        write(file, 0, "x");
        long c1 = fs.getattr(file).change();
        fs.setattr(file, SetAttributes.NONE.withMode(0600));
        long c2 = fs.getattr(file).change();
        fs.link(file, root, "g");
        long c3 = fs.getattr(file).change();
        fs.rename(root, "g", root, "h");
        long c4 = fs.getattr(file).change();
        assertThat(List.of(c0, c1, c2, c3, c4)).doesNotHaveDuplicates().isSorted();

        long d0 = fs.getattr(root).change();
        fs.mkdir(root, "d", ALICE, 0755);
        long d1 = fs.getattr(root).change();
        fs.remove(root, "d");
        long d2 = fs.getattr(root).change();
        assertThat(List.of(d0, d1, d2)).doesNotHaveDuplicates().isSorted();
    }

    @Test
    void setattrChangesModeOwnerAndTimes() throws IOException {
        Instant fixed = Instant.parse("2020-01-02T03:04:05Z");
        InMemoryFileSystem timed = new InMemoryFileSystem(Clock.fixed(fixed, ZoneOffset.UTC));
        Inode file = timed.create(timed.getRootInode(), "f", ALICE, 0644);
        Instant past = Instant.parse("2001-01-01T00:00:00Z");
        timed.setattr(file, new SetAttributes(04755, 7, 8, null, TimeChange.at(past), TimeChange.serverTime()));
        Stat stat = timed.getattr(file);
        assertThat(stat.mode()).isEqualTo(04755);
        assertThat(stat.uid()).isEqualTo(7);
        assertThat(stat.gid()).isEqualTo(8);
        assertThat(stat.atime()).isEqualTo(past);
        assertThat(stat.mtime()).isEqualTo(fixed);
        assertThat(stat.ctime()).isEqualTo(fixed);
    }

    @Test
    void mkdirCountsLinksOfParentAndChild() throws IOException {
        Inode dir = fs.mkdir(root, "d", ALICE, 0755);
        assertThat(fs.getattr(dir).nlink()).isEqualTo(2);
        assertThat(fs.getattr(root).nlink()).isEqualTo(3);
        assertThat(fs.parentOf(dir)).isEqualTo(root);
        fs.remove(root, "d");
        assertThat(fs.getattr(root).nlink()).isEqualTo(2);
    }

    @Test
    void removedObjectsHandleIsStaleButStillRecognized() throws IOException {
        Inode file = fs.create(root, "f", ALICE, 0644);
        fs.remove(root, "f");
        assertThat(fs.recognizes(file)).isTrue();
        assertStatus(() -> fs.getattr(file), NfsStatus.STALE);
        assertStatus(() -> fs.lookup(root, "f"), NfsStatus.NOENT);
    }

    @Test
    void foreignHandlesAreNotRecognizedAndWrongLengthIsBadHandle() throws IOException {
        Inode foreign = new InMemoryFileSystem().getRootInode();
        assertThat(fs.recognizes(foreign)).isFalse();
        assertStatus(() -> fs.getattr(foreign), NfsStatus.STALE);
        assertStatus(() -> fs.getattr(Inode.of(new byte[5])), NfsStatus.BADHANDLE);
    }

    @Test
    void removeOfMissingNameIsNoEntAndOfFullDirectoryIsNotEmpty() throws IOException {
        Inode dir = fs.mkdir(root, "d", ALICE, 0755);
        fs.create(dir, "f", ALICE, 0644);
        assertStatus(() -> fs.remove(root, "missing"), NfsStatus.NOENT);
        assertStatus(() -> fs.remove(root, "d"), NfsStatus.NOTEMPTY);
        assertThat(fs.lookup(root, "d")).isEqualTo(dir);
    }

    @Test
    void hardLinksShareTheObjectAndCountLinks() throws IOException {
        Inode file = fs.create(root, "a", ALICE, 0644);
        Inode dir = fs.mkdir(root, "d", ALICE, 0755);
        fs.link(file, dir, "b");
        assertThat(fs.lookup(dir, "b")).isEqualTo(file);
        assertThat(fs.getattr(file).nlink()).isEqualTo(2);
        fs.remove(root, "a");
        assertThat(fs.getattr(file).nlink()).isEqualTo(1);
        write(file, 0, "still here");
        assertThat(readAll(fs.lookup(dir, "b"))).isEqualTo("still here");
    }

    @Test
    void linkOfDirectoryIsIsDirOfTakenNameIsExistAndOfForeignHandleIsXDev() throws IOException {
        Inode file = fs.create(root, "a", ALICE, 0644);
        Inode dir = fs.mkdir(root, "d", ALICE, 0755);
        assertStatus(() -> fs.link(dir, root, "e"), NfsStatus.ISDIR);
        assertStatus(() -> fs.link(file, root, "d"), NfsStatus.EXIST);
        Inode foreign = new InMemoryFileSystem().getRootInode();
        assertStatus(() -> fs.link(foreign, root, "x"), NfsStatus.XDEV);
    }

    @Test
    void symlinkKeepsTargetVerbatim() throws IOException {
        Inode link = fs.symlink(root, "l", "../../etc/passwd", ALICE, 0777);
        assertThat(fs.readlink(link)).isEqualTo("../../etc/passwd");
        assertThat(fs.getattr(link).type()).isEqualTo(FileType.SYMLINK);
        assertThat(fs.getattr(link).size()).isEqualTo(16);
        assertStatus(() -> fs.readlink(root), NfsStatus.INVAL);
    }

    @Test
    void mknodMakesDevicesFifosAndSocketsButNotFiles() throws IOException {
        Inode blk = fs.mknod(root, "b", FileType.BLOCK, 8, 1, ALICE, 0660);
        Inode chr = fs.mknod(root, "c", FileType.CHAR, 1, 3, ALICE, 0666);
        Inode fifo = fs.mknod(root, "p", FileType.FIFO, 9, 9, ALICE, 0644);
        Inode sock = fs.mknod(root, "s", FileType.SOCKET, 0, 0, ALICE, 0755);
        assertThat(fs.getattr(blk).type()).isEqualTo(FileType.BLOCK);
        assertThat(fs.getattr(blk).rdevMajor()).isEqualTo(8);
        assertThat(fs.getattr(blk).rdevMinor()).isEqualTo(1);
        assertThat(fs.getattr(chr).type()).isEqualTo(FileType.CHAR);
        assertThat(fs.getattr(fifo).type()).isEqualTo(FileType.FIFO);
        assertThat(fs.getattr(fifo).rdevMajor()).isZero();
        assertThat(fs.getattr(sock).type()).isEqualTo(FileType.SOCKET);
        assertStatus(() -> fs.mknod(root, "r", FileType.REGULAR, 0, 0, ALICE, 0644), NfsStatus.BADTYPE);
        assertStatus(() -> fs.mknod(root, "r", FileType.DIRECTORY, 0, 0, ALICE, 0644), NfsStatus.BADTYPE);
    }

    @Test
    void renameMovesAndReplacesFiles() throws IOException {
        Inode a = fs.create(root, "a", ALICE, 0644);
        Inode b = fs.create(root, "b", ALICE, 0644);
        Inode dir = fs.mkdir(root, "d", ALICE, 0755);
        fs.rename(root, "a", root, "b");
        assertThat(fs.lookup(root, "b")).isEqualTo(a);
        assertStatus(() -> fs.lookup(root, "a"), NfsStatus.NOENT);
        assertStatus(() -> fs.getattr(b), NfsStatus.STALE);
        fs.rename(root, "b", dir, "c");
        assertThat(fs.lookup(dir, "c")).isEqualTo(a);
    }

    @Test
    void renameOfDirectoryMovesLinkCountsAndParent() throws IOException {
        Inode d1 = fs.mkdir(root, "d1", ALICE, 0755);
        Inode d2 = fs.mkdir(root, "d2", ALICE, 0755);
        Inode sub = fs.mkdir(d1, "sub", ALICE, 0755);
        fs.rename(d1, "sub", d2, "moved");
        assertThat(fs.parentOf(sub)).isEqualTo(d2);
        assertThat(fs.getattr(d1).nlink()).isEqualTo(2);
        assertThat(fs.getattr(d2).nlink()).isEqualTo(3);
    }

    @Test
    void renameOverEmptyDirectoryReplacesIt() throws IOException {
        Inode d1 = fs.mkdir(root, "d1", ALICE, 0755);
        Inode d2 = fs.mkdir(root, "d2", ALICE, 0755);
        fs.rename(root, "d1", root, "d2");
        assertThat(fs.lookup(root, "d2")).isEqualTo(d1);
        assertStatus(() -> fs.getattr(d2), NfsStatus.STALE);
        assertThat(fs.getattr(root).nlink()).isEqualTo(3);
    }

    @Test
    void renameRefusesTypeMismatchNonEmptyTargetAndMissingSource() throws IOException {
        fs.create(root, "f", ALICE, 0644);
        fs.mkdir(root, "d", ALICE, 0755);
        Inode full = fs.mkdir(root, "full", ALICE, 0755);
        fs.create(full, "x", ALICE, 0644);
        fs.mkdir(root, "e", ALICE, 0755);
        assertStatus(() -> fs.rename(root, "f", root, "d"), NfsStatus.EXIST);
        assertStatus(() -> fs.rename(root, "d", root, "f"), NfsStatus.EXIST);
        assertStatus(() -> fs.rename(root, "e", root, "full"), NfsStatus.EXIST);
        assertStatus(() -> fs.rename(root, "missing", root, "g"), NfsStatus.NOENT);
        assertThat(fs.lookup(full, "x")).isNotNull();
        assertThat(fs.lookup(root, "f")).isNotNull();
    }

    @Test
    void renameOfDirectoryIntoItselfIsInval() throws IOException {
        Inode d = fs.mkdir(root, "d", ALICE, 0755);
        Inode sub = fs.mkdir(d, "sub", ALICE, 0755);
        assertStatus(() -> fs.rename(root, "d", sub, "x"), NfsStatus.INVAL);
        assertStatus(() -> fs.rename(root, "d", d, "x"), NfsStatus.INVAL);
        assertThat(fs.lookup(root, "d")).isEqualTo(d);
    }

    @Test
    void renameOntoAnotherLinkOfTheSameObjectChangesNothing() throws IOException {
        Inode file = fs.create(root, "a", ALICE, 0644);
        fs.link(file, root, "b");
        long change = fs.getattr(root).change();
        fs.rename(root, "a", root, "b");
        assertThat(fs.lookup(root, "a")).isEqualTo(file);
        assertThat(fs.lookup(root, "b")).isEqualTo(file);
        assertThat(fs.getattr(file).nlink()).isEqualTo(2);
        assertThat(fs.getattr(root).change()).isEqualTo(change);
    }

    @Test
    void listingPagesWithStableCookiesAndSkipsRemovedEntries() throws IOException {
        for (int i = 0; i < 10; i++) {
            fs.create(root, "f" + i, ALICE, 0644);
        }
        DirectoryListing first = fs.list(root, ZERO_VERIFIER, 0, 4);
        assertThat(first.entries()).hasSize(4);
        assertThat(first.complete()).isFalse();
        assertThat(first.entries()).allSatisfy(e -> assertThat(e.cookie()).isGreaterThanOrEqualTo(3));
        long lastCookie = first.entries().get(3).cookie();
        fs.remove(root, first.entries().get(3).name());
        fs.remove(root, "f5");
        DirectoryListing rest = fs.list(root, first.verifier(), lastCookie, 100);
        assertThat(rest.complete()).isTrue();
        List<String> names = new ArrayList<>();
        first.entries().forEach(e -> names.add(e.name()));
        rest.entries().forEach(e -> names.add(e.name()));
        assertThat(names).hasSize(4 + 5).doesNotHaveDuplicates().doesNotContain("f5");
        assertThat(rest.entries()).extracting(DirEntry::cookie).isSorted();
    }

    @Test
    void listingWithForeignVerifierIsNotSameAndWithUnknownCookieIsBadCookie() throws IOException {
        fs.create(root, "a", ALICE, 0644);
        DirectoryListing listing = fs.list(root, ZERO_VERIFIER, 0, 10);
        long cookie = listing.entries().get(0).cookie();
        byte[] other = listing.verifier();
        other[0] ^= 1;
        assertStatus(() -> fs.list(root, other, cookie, 10), NfsStatus.NOT_SAME);
        assertStatus(() -> fs.list(root, listing.verifier(), 1_000_000, 10), NfsStatus.BAD_COOKIE);
        assertStatus(() -> fs.list(root, listing.verifier(), 1, 10), NfsStatus.BAD_COOKIE);
        Inode file = fs.lookup(root, "a");
        assertStatus(() -> fs.list(file, ZERO_VERIFIER, 0, 10), NfsStatus.NOTDIR);
    }

    @Test
    void emptyDirectoryListsNothingAndIsComplete() throws IOException {
        DirectoryListing listing = fs.list(root, ZERO_VERIFIER, 0, 10);
        assertThat(listing.entries()).isEmpty();
        assertThat(listing.complete()).isTrue();
    }

    @Test
    void fsStatReportsUsedSpace() throws IOException {
        long before = fs.getFsStat(root).freeBytes();
        Inode file = fs.create(root, "f", ALICE, 0644);
        fs.write(file, 0, ByteBuffer.allocate(100_000), WriteStability.FILE_SYNC);
        assertThat(fs.getFsStat(root).freeBytes()).isLessThan(before);
    }

    @Test
    void concurrentCreatesAllSucceedWithDistinctHandles() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Inode>> futures = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                String name = "n" + i;
                futures.add(pool.submit(() -> fs.create(root, name, ALICE, 0644)));
            }
            Set<Inode> handles = new HashSet<>();
            for (Future<Inode> f : futures) {
                handles.add(f.get());
            }
            assertThat(handles).hasSize(200);
            assertThat(fs.list(root, ZERO_VERIFIER, 0, 1000).entries()).hasSize(200);
        } finally {
            pool.shutdownNow();
        }
    }
}
