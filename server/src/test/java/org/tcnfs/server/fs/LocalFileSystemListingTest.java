package org.tcnfs.server.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.DirEntry;
import org.tcnfs.nfs4.vfs.DirectoryListing;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.Stat;

class LocalFileSystemListingTest extends LocalFsTestBase {
    private static final byte[] ZEROS = new byte[8];

    @Test
    void tenThousandEntriesAreListedCompletelyAndOnce() throws IOException {
        Path big = Files.createDirectory(export.resolve("big"));
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String name = "entry-" + i;
            Files.createFile(big.resolve(name));
            expected.add(name);
        }
        Inode dir = fs.lookup(root(), "big");
        List<String> seen = new ArrayList<>();
        byte[] verifier = ZEROS;
        long cookie = 0;
        long previous = 2;
        int pages = 0;
        while (true) {
            DirectoryListing page = fs.list(dir, verifier, cookie, 97);
            pages++;
            for (DirEntry entry : page.entries()) {
                assertThat(entry.cookie()).isGreaterThan(previous);
                previous = entry.cookie();
                seen.add(entry.name());
            }
            if (page.complete()) {
                break;
            }
            assertThat(page.entries()).hasSize(97);
            verifier = page.verifier();
            cookie = page.entries().get(page.entries().size() - 1).cookie();
        }
        assertThat(seen).hasSize(10_000).doesNotHaveDuplicates();
        assertThat(new HashSet<>(seen)).isEqualTo(expected);
        assertThat(pages).isEqualTo(10_000 / 97 + 1);
    }

    @Test
    void removingListedEntriesBetweenPagesSkipsNothing() throws IOException {
        Inode dir = mkdir(root(), "d");
        for (int i = 0; i < 300; i++) {
            createFile(dir, "f" + i);
        }
        Set<String> seen = new HashSet<>();
        long cookie = 0;
        byte[] verifier = ZEROS;
        while (true) {
            DirectoryListing page = fs.list(dir, verifier, cookie, 25);
            for (DirEntry entry : page.entries()) {
                assertThat(seen.add(entry.name())).as(entry.name()).isTrue();
                fs.remove(dir, entry.name());
            }
            if (page.complete()) {
                break;
            }
            verifier = page.verifier();
            cookie = page.entries().get(page.entries().size() - 1).cookie();
        }
        assertThat(seen).hasSize(300);
        assertThat(fs.list(dir, ZEROS, 0, 10).entries()).isEmpty();
    }

    @Test
    void cookiesStayTheSameAcrossRestartsWhileTheDirectoryIsUnchanged() throws IOException {
        Inode dir = mkdir(root(), "d");
        for (int i = 0; i < 50; i++) {
            createFile(dir, "f" + i);
        }
        DirectoryListing first = fs.list(dir, ZEROS, 0, 1000);
        DirectoryListing half = fs.list(dir, first.verifier(), first.entries().get(24).cookie(), 1000);
        assertThat(half.entries()).isEqualTo(first.entries().subList(25, 50));
        restart();
        DirectoryListing again = fs.list(dir, first.verifier(), first.entries().get(24).cookie(), 1000);
        assertThat(again.entries()).extracting(DirEntry::name)
                .isEqualTo(first.entries().subList(25, 50).stream().map(DirEntry::name).toList());
        assertThat(again.entries()).extracting(DirEntry::cookie)
                .isEqualTo(first.entries().subList(25, 50).stream().map(DirEntry::cookie).toList());
        assertThat(again.verifier()).isEqualTo(first.verifier());
    }

    @Test
    void entriesCarryTheSameAttributesAsGetattr() throws IOException {
        Inode dir = mkdir(root(), "d");
        Inode file = createFile(dir, "file");
        writeString(file, 0, "abc");
        Inode sub = mkdir(dir, "sub");
        Inode link = fs.symlink(dir, "link", "file", OWNER, 0777);
        DirectoryListing listing = fs.list(dir, ZEROS, 0, 10);
        assertThat(listing.complete()).isTrue();
        assertThat(listing.entries()).hasSize(3);
        for (DirEntry entry : listing.entries()) {
            Inode inode = fs.lookup(dir, entry.name());
            Stat expected = fs.getattr(inode);
            assertThat(entry.stat()).as(entry.name()).isEqualTo(expected);
        }
        assertThat(fs.getattr(sub).type()).isEqualTo(FileType.DIRECTORY);
        assertThat(fs.getattr(link).type()).isEqualTo(FileType.SYMLINK);
    }

    @Test
    void aFreshListingOfAChangedDirectoryShowsTheChange() throws IOException {
        Inode dir = mkdir(root(), "d");
        createFile(dir, "a");
        assertThat(fs.list(dir, ZEROS, 0, 10).entries()).extracting(DirEntry::name).containsExactly("a");
        createFile(dir, "b");
        assertThat(fs.list(dir, ZEROS, 0, 10).entries()).extracting(DirEntry::name)
                .containsExactlyInAnyOrder("a", "b");
        fs.remove(dir, "a");
        assertThat(fs.list(dir, ZEROS, 0, 10).entries()).extracting(DirEntry::name).containsExactly("b");
    }

    @Test
    void aVerifierOfAnotherDirectoryIsNotSameAndZerosAreAccepted() throws IOException {
        Inode one = mkdir(root(), "one");
        Inode two = mkdir(root(), "two");
        for (int i = 0; i < 5; i++) {
            createFile(one, "f" + i);
        }
        DirectoryListing first = fs.list(one, ZEROS, 0, 2);
        byte[] otherVerifier = fs.list(two, ZEROS, 0, 2).verifier();
        assertThat(otherVerifier).isNotEqualTo(first.verifier());
        assertThat(first.verifier()).isNotEqualTo(ZEROS);
        long cookie = first.entries().get(1).cookie();
        assertStatus(NfsStatus.NOT_SAME, () -> fs.list(one, otherVerifier, cookie, 10));
        assertThat(fs.list(one, ZEROS, cookie, 10).entries()).hasSize(3);
        assertThat(fs.list(one, first.verifier(), cookie, 10).entries()).hasSize(3);
    }

    @Test
    void reservedAndNeverIssuedCookiesAreBadCookie() throws IOException {
        Inode dir = mkdir(root(), "d");
        assertStatus(NfsStatus.BAD_COOKIE, () -> fs.list(dir, ZEROS, 1, 10));
        assertStatus(NfsStatus.BAD_COOKIE, () -> fs.list(dir, ZEROS, 2, 10));
        assertStatus(NfsStatus.BAD_COOKIE, () -> fs.list(dir, ZEROS, 200, 10));
        assertStatus(NfsStatus.BAD_COOKIE, () -> fs.list(dir, ZEROS, -5, 10));
        assertStatus(NfsStatus.TOOSMALL, () -> fs.list(dir, ZEROS, 0, 0));
    }

    @Test
    void listingAFileIsNotDir() throws IOException {
        Inode file = createFile(root(), "f");
        assertStatus(NfsStatus.NOTDIR, () -> fs.list(file, ZEROS, 0, 10));
    }

    @Test
    void anEmptyDirectoryIsCompleteAtOnce() throws IOException {
        Inode dir = mkdir(root(), "d");
        DirectoryListing listing = fs.list(dir, ZEROS, 0, 10);
        assertThat(listing.entries()).isEmpty();
        assertThat(listing.complete()).isTrue();
    }
}
