package org.tcnfs.jmh.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SourceTreeTest {
    @Test
    void sameSeedGivesSameTreeAndOtherSeedAnother() {
        SourceTree a = SourceTree.generate(7, 50, 500, 20, 15 * 1024);
        assertThat(SourceTree.generate(7, 50, 500, 20, 15 * 1024)).isEqualTo(a);
        assertThat(SourceTree.generate(8, 50, 500, 20, 15 * 1024)).isNotEqualTo(a);
    }

    @Test
    void treeHasTheAskedShapeWithParentsFirstAndUniquePaths() {
        SourceTree t = SourceTree.generate(42, 200, 2000, 100, 15 * 1024);
        assertThat(t.dirs()).hasSize(200);
        assertThat(t.files()).hasSize(2000);
        assertThat(t.symlinks()).hasSize(100);
        Set<String> seen = new HashSet<>();
        for (String d : t.dirs()) {
            int slash = d.lastIndexOf('/');
            if (slash > 0) {
                assertThat(seen).as("parent of " + d).contains(d.substring(0, slash));
            }
            assertThat(SourceTree.depth(d)).isLessThanOrEqualTo(SourceTree.MAX_DEPTH);
            seen.add(d);
        }
        for (SourceTree.FileSpec f : t.files()) {
            assertThat(seen).contains(f.path().substring(0, f.path().lastIndexOf('/')));
            assertThat(f.size()).isBetween(64, 16 * 15 * 1024);
        }
        assertThat(t.files().stream().map(SourceTree.FileSpec::path).distinct().count()).isEqualTo(2000);
    }

    @Test
    void meanFileSizeIsNearTheAskedMean() {
        SourceTree t = SourceTree.generate(42, 100, 4000, 0, 15 * 1024);
        double mean = (double) t.bytes() / t.files().size();
        assertThat(mean).isBetween(12.0 * 1024, 18.0 * 1024);
    }

    @Test
    void symlinksPointAtFilesOfTheTreeRelativeToTheirDirectory() {
        SourceTree t = SourceTree.generate(3, 30, 100, 10, 4096);
        Set<String> files = new HashSet<>(t.files().stream().map(SourceTree.FileSpec::path).toList());
        for (FsSession.Link l : t.symlinks()) {
            int up = SourceTree.depth(l.path()) - 1;
            assertThat(l.target()).startsWith("../".repeat(up));
            assertThat(files).contains(l.target().substring(3 * up));
        }
    }

    @Test
    void directoriesDeepestFirstPutChildrenBeforeParents() {
        List<String> order = SourceTree.generate(5, 80, 0, 0, 1024).dirsDeepestFirst();
        for (int i = 0; i < order.size(); i++) {
            for (int j = i + 1; j < order.size(); j++) {
                assertThat(order.get(i)).doesNotStartWith(order.get(j) + "/x").isNotEqualTo(order.get(j));
                assertThat(order.get(j).startsWith(order.get(i) + "/")).as(order.get(j) + " after its parent").isFalse();
            }
        }
    }

    @Test
    void batchesSplitIntoChunksOfAtMostTheSize() {
        assertThat(Suite.batches(List.of(1, 2, 3, 4, 5), 2)).containsExactly(List.of(1, 2), List.of(3, 4), List.of(5));
        assertThat(Suite.batches(List.of(), 3)).isEmpty();
    }
}
