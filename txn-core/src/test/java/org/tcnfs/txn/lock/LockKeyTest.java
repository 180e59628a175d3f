package org.tcnfs.txn.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LockKeyTest {

    private static LockKey path(String relative) {
        return LockKey.parse("e", relative);
    }

    @Test
    void keysSortByExportThenPathComponentsWithParentsFirst() {
        List<LockKey> expected = List.of(
                LockKey.root("d"),
                LockKey.ofObject("d", 7),
                path(""),
                path("a"),
                path("a/b"),
                path("a/b/c"),
                path("a/z"),
                path("ab"),
                path("b"),
                LockKey.ofObject("e", 1),
                LockKey.ofObject("e", 2),
                LockKey.ofObject("e", -1),
                LockKey.root("f"));
        List<LockKey> shuffled = new ArrayList<>(expected);
        Collections.shuffle(shuffled, new Random(1));
        Collections.sort(shuffled);
        assertThat(shuffled).containsExactlyElementsOf(expected);
    }

    @Test
    void objectKeysSortAfterEveryPathOfTheirExportByUnsignedFileId() {
        assertThat(LockKey.ofObject("e", 0)).isGreaterThan(path("zzz/zzz"));
        assertThat(LockKey.ofObject("e", Long.MIN_VALUE)).isGreaterThan(LockKey.ofObject("e", Long.MAX_VALUE));
        assertThat(LockKey.ofObject("e", 5)).isLessThan(LockKey.root("f"));
    }

    @Test
    void namesSortByUtf8BytesNotByUtf16Units() {
        String replacement = "\uFFFD";                  // EF BF BD
        String emoji = new String(Character.toChars(0x1F600)); // F0 9F 98 80, UTF-16 D83D DE00
        assertThat(replacement.compareTo(emoji)).isPositive();
        assertThat(LockKey.ofPath("e", replacement)).isLessThan(LockKey.ofPath("e", emoji));
        assertThat(LockKey.ofPath("e", "z")).isLessThan(LockKey.ofPath("e", "\u00e9"));
        assertThat(LockKey.ofPath(emoji, "a")).isGreaterThan(LockKey.ofPath(replacement, "a"));
    }

    @Test
    void nameOrderEqualsUnsignedUtf8ByteOrderForRandomNames() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        int[] alphabet = {'a', 'b', 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfffd, 0xffff, 0x10000, 0x1f600, 0x10ffff};
        for (int i = 0; i < 20_000; i++) {
            String a = randomName(random, alphabet);
            String b = randomName(random, alphabet);
            int expected = Integer.signum(Arrays.compareUnsigned(
                    a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
            assertThat(Integer.signum(LockKey.compareUtf8(a, b)))
                    .as("seed %d: %s vs %s", seed, a, b)
                    .isEqualTo(expected);
        }
    }

    private static String randomName(Random random, int[] alphabet) {
        StringBuilder name = new StringBuilder();
        int length = 1 + random.nextInt(4);
        for (int i = 0; i < length; i++) {
            name.appendCodePoint(alphabet[random.nextInt(alphabet.length)]);
        }
        return name.toString();
    }

    @Test
    void ancestorsRunFromTheRootToTheParent() {
        assertThat(path("a/b/c").ancestors()).containsExactly(path(""), path("a"), path("a/b"));
        assertThat(path("a/b/c").parent()).contains(path("a/b"));
        assertThat(path("a").isAncestorOf(path("a/b/c"))).isTrue();
        assertThat(path("").isAncestorOf(path("a"))).isTrue();
        assertThat(path("a").isAncestorOf(path("a"))).isFalse();
        assertThat(path("a").isAncestorOf(path("ab"))).isFalse();
        assertThat(path("a").isAncestorOf(LockKey.parse("f", "a/b"))).isFalse();
    }

    @Test
    void rootAndObjectKeysHaveNoAncestors() {
        assertThat(path("").ancestors()).isEmpty();
        assertThat(path("").parent()).isEmpty();
        assertThat(path("").isRoot()).isTrue();
        LockKey inode = LockKey.ofObject("e", 42);
        assertThat(inode.ancestors()).isEmpty();
        assertThat(inode.parent()).isEmpty();
        assertThat(inode.isObject()).isTrue();
        assertThat(path("").isAncestorOf(inode)).isFalse();
        assertThatThrownBy(() -> inode.child("x")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void childAppendsOneName() {
        assertThat(path("a").child("b")).isEqualTo(path("a/b")).isEqualTo(LockKey.ofPath("e", "a", "b"));
        assertThat(path("a/b").depth()).isEqualTo(2);
    }

    @Test
    void parseIgnoresLeadingTrailingAndRepeatedSlashes() {
        assertThat(path("/a//b/")).isEqualTo(LockKey.ofPath("e", List.of("a", "b")));
        assertThat(path("/")).isEqualTo(LockKey.root("e"));
    }

    @Test
    void invalidNamesAndExportsAreRejected() {
        for (String bad : List.of("", ".", "..", "a/b", "a\0b")) {
            assertThatThrownBy(() -> LockKey.ofPath("e", bad))
                    .as("name %s", bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> path("a/../b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LockKey.root("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LockKey("e", LockKey.Kind.OBJECT, List.of("a"), 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LockKey("e", LockKey.Kind.PATH, List.of("a"), 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void componentsAreCopiedAndImmutable() {
        List<String> names = new ArrayList<>(List.of("a", "b"));
        LockKey key = LockKey.ofPath("e", names);
        names.add("c");
        assertThat(key.components()).containsExactly("a", "b");
        assertThatThrownBy(() -> key.components().add("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void orderIsConsistentWithEquals() {
        assertThat(path("a/b")).isEqualTo(LockKey.ofPath("e", "a", "b"));
        assertThat(path("a/b")).hasSameHashCodeAs(LockKey.ofPath("e", "a", "b"));
        assertThat(path("a/b").compareTo(LockKey.ofPath("e", "a", "b"))).isZero();
        assertThat(LockKey.ofObject("e", 3)).isEqualTo(LockKey.ofObject("e", 3)).isNotEqualTo(LockKey.ofObject("e", 4));
        assertThat(LockKey.ofObject("e", 3).compareTo(LockKey.ofObject("e", 4))).isNegative();
    }

    @Test
    void toStringShowsExportAndPathOrInode() {
        assertThat(path("a/b")).hasToString("e:/a/b");
        assertThat(LockKey.ofObject("e", -1)).hasToString("inode:e/18446744073709551615");
    }

    @Test
    void aParentOrAncestorIsEqualToAndHashesAsTheKeyOfItsNames() {
        LockKey parent = path("a/b/c").parent().orElseThrow();
        assertThat(parent).isEqualTo(path("a/b")).hasSameHashCodeAs(path("a/b"));
        assertThat(parent.components()).containsExactly("a", "b");
        assertThat(parent.parent().orElseThrow().parent()).contains(LockKey.root("e"));
        assertThat(path("a/b/c").ancestors().get(2)).isEqualTo(parent).hasSameHashCodeAs(parent);
        assertThat(parent).isNotEqualTo(LockKey.ofPath("f", "a", "b")).isNotEqualTo(LockKey.ofObject("e", 0));
        assertThat(LockKey.ofObject("e", 7)).isEqualTo(LockKey.ofObject("e", 7)).isNotEqualTo(LockKey.ofObject("e", 8));
    }
}
