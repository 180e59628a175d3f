package org.tcnfs.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.proto.RecoveryRecord;
import org.tcnfs.proto.RecoveryRecords;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.backup.BackupStore;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.ObjectRef;
import org.tcnfs.txn.plan.OperationTable;
import org.tcnfs.txn.plan.OperationTable.Descriptor;
import org.tcnfs.txn.undo.UndoExecutor;

/**
 * One place per operation (issue 13, item 6), the undo half: every kind of {@link Mutation} an operation's
 * descriptor names is prepared by {@link UndoPreparer} into undo steps of exactly the kinds the descriptor
 * names, those steps survive the recovery record's encoding ({@code ProtoMapping}), and {@link UndoExecutor}
 * executes them so that the tree is as before. A descriptor that names a kind of change without an undo
 * preparation, a record mapping or an undo execution fails here (the dispatchers throw on an unknown kind),
 * and so does a kind without a sample below.
 */
class OperationUndoCoverageTest {
    private static final String EXPORT = "exp";

    @TempDir
    Path base;

    /** One instance of a kind of mutation and the change its operation makes to the tree. */
    private record Sample(Mutation mutation, Change change) {
    }

    private interface Change {
        void apply(Path root) throws IOException;
    }

    private static ObjectPath path(String... components) {
        return ObjectPath.of(EXPORT, components);
    }

    /** A sample of each kind of mutation, at operation 0, on a tree with d/x and d/y. */
    private static Optional<Sample> sampleOf(Class<? extends Mutation> kind) {
        ObjectRef x = ObjectRef.unchanged(path("d", "x"));
        Sample s;
        if (kind == Mutation.Write.class) {
            s = new Sample(new Mutation.Write(0, x, 2, 4), root -> {
                try (var ch = java.nio.channels.FileChannel.open(root.resolve("d/x"),
                        java.nio.file.StandardOpenOption.WRITE)) {
                    ch.write(java.nio.ByteBuffer.wrap(new byte[] {9, 9, 9, 9}), 2);
                }
            });
        } else if (kind == Mutation.SizeChange.class) {
            s = new Sample(new Mutation.SizeChange(0, x, 3, Mutation.SizeChange.Cause.SETATTR), root -> {
                try (var ch = java.nio.channels.FileChannel.open(root.resolve("d/x"),
                        java.nio.file.StandardOpenOption.WRITE)) {
                    ch.truncate(3);
                }
            });
        } else if (kind == Mutation.AttributeChange.class) {
            s = new Sample(new Mutation.AttributeChange(0, x, List.of(33)), root -> Files.setPosixFilePermissions(
                    root.resolve("d/x"), PosixFilePermissions.fromString("rwx------")));
        } else if (kind == Mutation.Creation.class) {
            s = new Sample(new Mutation.Creation(0, ObjectRef.created(path("d", "new")), FileType.REGULAR,
                    Mutation.Creation.How.CREATE), root -> Files.write(root.resolve("d/new"), new byte[] {1}));
        } else if (kind == Mutation.Removal.class) {
            s = new Sample(new Mutation.Removal(0, x), root -> Files.delete(root.resolve("d/x")));
        } else if (kind == Mutation.Rename.class) {
            s = new Sample(new Mutation.Rename(0, x, ObjectRef.unchanged(path("d", "y"))),
                    root -> Files.move(root.resolve("d/x"), root.resolve("d/y"), StandardCopyOption.REPLACE_EXISTING,
                            StandardCopyOption.ATOMIC_MOVE));
        } else if (kind == Mutation.HardLink.class) {
            s = new Sample(new Mutation.HardLink(0, x, ObjectRef.created(path("d", "link"))),
                    root -> Files.createLink(root.resolve("d/link"), root.resolve("d/x")));
        } else {
            return Optional.empty();
        }
        return Optional.of(s);
    }

    /** Names, contents, modes and link counts under {@code root}, except the backup area. */
    private static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> t = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                String rel = root.relativize(p).toString();
                if (rel.startsWith(".tcnfs")) {
                    continue;
                }
                String mode = PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
                String what = Files.isDirectory(p) ? "dir"
                        : java.util.Arrays.toString(Files.readAllBytes(p)) + " links "
                                + Files.getAttribute(p, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
                t.put(rel, what + " " + mode);
            }
        }
        return t;
    }

    @Test
    void everyKindOfChangeADescriptorNamesIsPreparedRecordedAndUndoneIntoTheStepsItNames() throws IOException {
        int round = 0;
        for (Descriptor d : OperationTable.all()) {
            for (Class<? extends Mutation> kind : d.mutations()) {
                Optional<Sample> sample = sampleOf(kind);
                assertThat(sample).as("%s names %s: add a sample of it to this test", d.name(), kind.getSimpleName())
                        .isPresent();
                Path root = Files.createDirectories(base.resolve("r" + round++).resolve("export"));
                Files.createDirectories(root.resolve("d"));
                Files.write(root.resolve("d/x"), new byte[] {0, 1, 2, 3, 4, 5, 6, 7});
                Files.write(root.resolve("d/y"), new byte[] {7, 7});
                Map<String, String> before = tree(root);
                BackupStore store = BackupStore.open(root.resolve(".tcnfs").resolve("txn"));
                UndoPreparer preparer = new UndoPreparer(root, store.forTransaction("1"), () -> false);

                List<UndoStep> steps = new ArrayList<>(preparer.stepsFor(sample.get().mutation(),
                        ref -> Optional.of(ref.path())));
                preparer.swapBefore(0);
                assertThat(steps).as("%s: the undo steps of %s", d.name(), kind.getSimpleName()).isNotEmpty();
                for (UndoStep step : steps) {
                    assertThat(d.undoSteps()).as("%s: %s is prepared into %s, which its descriptor does not name",
                            d.name(), kind.getSimpleName(), step.getClass().getSimpleName()).contains(step.getClass());
                }
                sample.get().change().apply(root);

                RecoveryRecord.Builder b = RecoveryRecord.builder(1, EXPORT, Instant.now())
                        .backupDirectory(root.relativize(store.forTransaction("1").directory()).toString())
                        .opCount(1);
                steps.forEach(b::step);
                RecoveryRecord record = RecoveryRecords.decode(RecoveryRecords.encode(b.build()));
                assertThat(record.steps()).as("%s: the steps through the record's encoding", d.name())
                        .isEqualTo(steps);
                new UndoExecutor(root, store, CrashPoints.NONE, "mid-undo-").undo(record, r -> { });
                assertThat(tree(root)).as("%s: the tree after the undo of %s", d.name(), kind.getSimpleName())
                        .isEqualTo(before);
            }
        }
    }
}
