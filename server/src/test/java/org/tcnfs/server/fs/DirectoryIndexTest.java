package org.tcnfs.server.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class DirectoryIndexTest {

    @Test
    void cookiesAreIncreasingUniqueAndAboveTheReservedOnes() throws IOException {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            names.add("n" + i);
        }
        DirectoryIndex index = DirectoryIndex.of(names);
        assertThat(index.size()).isEqualTo(5000);
        HashSet<String> seen = new HashSet<>();
        for (int i = 0; i < index.size(); i++) {
            assertThat(index.cookie(i)).isGreaterThanOrEqualTo(256);
            if (i > 0) {
                assertThat(index.cookie(i)).isGreaterThan(index.cookie(i - 1));
            }
            seen.add(index.name(i));
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(names);
    }

    @Test
    void aNamesCookieDoesNotDependOnItsNeighbours() throws IOException {
        DirectoryIndex small = DirectoryIndex.of(List.of("a", "b"));
        DirectoryIndex large = DirectoryIndex.of(List.of("x", "b", "y", "a", "z"));
        assertThat(cookieOf(small, "a")).isEqualTo(cookieOf(large, "a"));
        assertThat(cookieOf(small, "b")).isEqualTo(cookieOf(large, "b"));
    }

    @Test
    void resumingAfterACookieStartsAtTheNextName() throws IOException {
        DirectoryIndex index = DirectoryIndex.of(List.of("a", "b", "c", "d"));
        assertThat(index.indexAfter(0)).isZero();
        for (int i = 0; i < 4; i++) {
            assertThat(index.indexAfter(index.cookie(i))).isEqualTo(i + 1);
        }
        assertThat(index.indexAfter(Long.MAX_VALUE)).isEqualTo(4);
    }

    private static long cookieOf(DirectoryIndex index, String name) {
        for (int i = 0; i < index.size(); i++) {
            if (index.name(i).equals(name)) {
                return index.cookie(i);
            }
        }
        throw new AssertionError(name);
    }
}
