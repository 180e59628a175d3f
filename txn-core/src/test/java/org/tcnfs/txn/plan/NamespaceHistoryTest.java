package org.tcnfs.txn.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Path translation through a compound's name-space changes, against a plain event-by-event replay. */
class NamespaceHistoryTest {
    private static final String EXPORT = "exp";
    private static final String[] NAMES = {"a", "b", "c"};

    private static ObjectPath path(String... components) {
        return ObjectPath.of(EXPORT, components);
    }

    @Test
    void renamedDirectoryMapsItsContentsBothWays() {
        NamespaceHistory history = new NamespaceHistory();
        history.renamed(path("a"), path("x", "b"));

        assertThat(history.originOf(path("x", "b", "f"), 1)).contains(path("a", "f"));
        assertThat(history.originOf(path("x", "b", "f"), 0)).contains(path("x", "b", "f"));
        assertThat(history.originOf(path("a", "f"), 1)).isEmpty();
        assertThat(history.forward(path("a", "f"))).isEqualTo(path("x", "b", "f"));
        assertThat(history.forward(path("ab"))).isEqualTo(path("ab"));
    }

    @Test
    void chainedRenamesAreFollowedInOrder() {
        NamespaceHistory history = new NamespaceHistory();
        history.renamed(path("a"), path("b"));
        history.renamed(path("b"), path("c"));
        history.renamed(path("c", "f"), path("g"));

        assertThat(history.forward(path("a", "f"))).isEqualTo(path("g"));
        assertThat(history.forward(path("a", "h"))).isEqualTo(path("c", "h"));
        assertThat(history.originOf(path("g"), 3)).contains(path("a", "f"));
        assertThat(history.originOf(path("c", "h"), 3)).contains(path("a", "h"));
        assertThat(history.originOf(path("b", "h"), 3)).isEmpty();
    }

    @Test
    void createdRemovedAndAliasedNamesHaveTheirOwnOrigins() {
        NamespaceHistory history = new NamespaceHistory();
        history.created(path("d"));
        history.removed(path("f"));
        history.aliased(path("l"), Optional.of(path("orig")));

        assertThat(history.originOf(path("d", "x"), 3)).isEmpty();
        assertThat(history.originOf(path("f"), 3)).isEmpty();
        assertThat(history.originOf(path("f"), 1)).contains(path("f"));
        assertThat(history.originOf(path("l"), 3)).contains(path("orig"));
        assertThat(history.originOf(path("other"), 3)).contains(path("other"));
    }

    @Test
    void indexedTranslationAgreesWithAPlainReplayOnRandomHistories() {
        for (long seed = 1; seed <= 300; seed++) {
            Random random = new Random(seed);
            NamespaceHistory history = new NamespaceHistory();
            List<Object[]> replay = new ArrayList<>();
            int count = 1 + random.nextInt(12);
            for (int e = 0; e < count; e++) {
                ObjectPath p = randomPath(random);
                switch (random.nextInt(4)) {
                    case 0 -> {
                        history.created(p);
                        replay.add(new Object[] {"created", p});
                    }
                    case 1 -> {
                        history.removed(p);
                        replay.add(new Object[] {"removed", p});
                    }
                    case 2 -> {
                        ObjectPath to = randomPath(random);
                        if (!to.equals(p)) {
                            history.renamed(p, to);
                            replay.add(new Object[] {"renamed", p, to});
                        }
                    }
                    default -> {
                        Optional<ObjectPath> origin = random.nextBoolean() ? Optional.of(randomPath(random))
                                : Optional.empty();
                        history.aliased(p, origin);
                        replay.add(new Object[] {"aliased", p, origin});
                    }
                }
            }
            for (int probe = 0; probe < 20; probe++) {
                ObjectPath p = randomPath(random);
                int time = random.nextInt(replay.size() + 1);
                assertThat(history.originOf(p, time)).as("seed %d: origin of %s at %d", seed, p, time)
                        .isEqualTo(plainOrigin(replay, p, time));
                assertThat(history.forward(p)).as("seed %d: forward of %s", seed, p)
                        .isEqualTo(plainForward(replay, p));
            }
        }
    }

    private static ObjectPath randomPath(Random random) {
        int depth = random.nextInt(4);
        ObjectPath p = ObjectPath.root(EXPORT);
        for (int i = 0; i < depth; i++) {
            p = p.child(NAMES[random.nextInt(NAMES.length)]);
        }
        return p;
    }

    @SuppressWarnings("unchecked")
    private static Optional<ObjectPath> plainOrigin(List<Object[]> replay, ObjectPath path, int time) {
        ObjectPath p = path;
        for (int i = time - 1; i >= 0; i--) {
            Object[] event = replay.get(i);
            switch ((String) event[0]) {
                case "created", "removed" -> {
                    if (p.isWithin((ObjectPath) event[1])) {
                        return Optional.empty();
                    }
                }
                case "renamed" -> {
                    ObjectPath from = (ObjectPath) event[1];
                    ObjectPath to = (ObjectPath) event[2];
                    if (p.isWithin(to)) {
                        p = p.rebase(to, from);
                    } else if (p.isWithin(from)) {
                        return Optional.empty();
                    }
                }
                default -> {
                    if (p.equals(event[1])) {
                        return (Optional<ObjectPath>) event[2];
                    }
                }
            }
        }
        return Optional.of(p);
    }

    private static ObjectPath plainForward(List<Object[]> replay, ObjectPath original) {
        ObjectPath p = original;
        for (Object[] event : replay) {
            if (event[0].equals("renamed") && p.isWithin((ObjectPath) event[1])) {
                p = p.rebase((ObjectPath) event[1], (ObjectPath) event[2]);
            }
        }
        return p;
    }
}
