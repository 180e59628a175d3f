package org.tcnfs.txn.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ObjectPathTest {

    @Test
    void pathsBuiltSeparatelyAreEqualAndHashAlike() {
        ObjectPath a = ObjectPath.of("e", "x", "y");
        ObjectPath b = ObjectPath.root("e").child("x").child("y");

        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(ObjectPath.of("f", "x", "y")).isNotEqualTo(ObjectPath.of("e", "x"));
        assertThat(a.components()).containsExactly("x", "y");
        assertThat(a.name()).contains("y");
        assertThat(a.parent()).contains(ObjectPath.of("e", "x"));
        assertThat(a.ancestors()).containsExactly(ObjectPath.root("e"), ObjectPath.of("e", "x"));
        assertThat(a).hasToString("e:/x/y");
        assertThat(ObjectPath.root("e")).hasToString("e:/");
        assertThat(ObjectPath.root("e").isRoot()).isTrue();
    }

    @Test
    void invalidNamesAndEmptyExportIdsAreRefused() {
        ObjectPath root = ObjectPath.root("e");

        for (String bad : new String[] {"", ".", "..", "a/b", "nul\0", "x".repeat(256)}) {
            assertThatThrownBy(() -> root.child(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> root.child(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ObjectPath.root("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void withinMeansSelfOrBeneath() {
        ObjectPath ab = ObjectPath.of("e", "a", "b");

        assertThat(ab.isWithin(ab)).isTrue();
        assertThat(ab.isWithin(ObjectPath.of("e", "a"))).isTrue();
        assertThat(ab.isWithin(ObjectPath.root("e"))).isTrue();
        assertThat(ab.isWithin(ObjectPath.of("e", "a", "b", "c"))).isFalse();
        assertThat(ab.isWithin(ObjectPath.of("e", "b"))).isFalse();
        assertThat(ab.isWithin(ObjectPath.of("f", "a"))).isFalse();
    }

    @Test
    void rebaseReplacesThePrefix() {
        ObjectPath file = ObjectPath.of("e", "a", "b", "f");

        assertThat(file.rebase(ObjectPath.of("e", "a"), ObjectPath.of("e", "x", "y")))
                .isEqualTo(ObjectPath.of("e", "x", "y", "b", "f"));
        assertThat(file.rebase(file, ObjectPath.of("e", "g"))).isEqualTo(ObjectPath.of("e", "g"));
        assertThatThrownBy(() -> file.rebase(ObjectPath.of("e", "b"), ObjectPath.root("e")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void orderIsByExportThenComponentByComponentWithAncestorsFirst() {
        List<ObjectPath> paths = new ArrayList<>(List.of(ObjectPath.of("e", "b"), ObjectPath.of("e", "a", "z"),
                ObjectPath.of("d", "z"), ObjectPath.root("e"), ObjectPath.of("e", "a"), ObjectPath.of("e", "a b")));
        paths.sort(null);

        assertThat(paths).containsExactly(ObjectPath.of("d", "z"), ObjectPath.root("e"), ObjectPath.of("e", "a"),
                ObjectPath.of("e", "a", "z"), ObjectPath.of("e", "a b"), ObjectPath.of("e", "b"));
    }

    @Test
    void treeSortAgreesWithCompareToOnRandomPaths() {
        String[] names = {"a", "b", "ab", "B", "é"};
        for (long seed = 1; seed <= 200; seed++) {
            Random random = new Random(seed);
            List<ObjectPath> paths = new ArrayList<>();
            int count = random.nextInt(30);
            for (int i = 0; i < count; i++) {
                ObjectPath p = ObjectPath.root(random.nextBoolean() ? "e" : "f");
                int depth = random.nextInt(5);
                for (int d = 0; d < depth; d++) {
                    p = p.child(names[random.nextInt(names.length)]);
                }
                paths.add(p);
            }

            assertThat(ObjectPath.sorted(paths)).as("seed %d", seed).containsExactlyElementsOf(new TreeSet<>(paths));
        }
    }

    @Test
    void aVeryDeepChainSortsQuickly() {
        List<ObjectPath> chain = new ArrayList<>();
        ObjectPath p = ObjectPath.root("e");
        for (int i = 0; i < 4096; i++) {
            p = p.child("d" + i);
            chain.add(0, p);
        }

        long start = System.nanoTime();
        List<ObjectPath> sorted = ObjectPath.sorted(chain);
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertThat(sorted.get(0).depth()).isEqualTo(1);
        assertThat(sorted.get(4095)).isSameAs(p);
        assertThat(millis).isLessThan(1000);
    }
}
