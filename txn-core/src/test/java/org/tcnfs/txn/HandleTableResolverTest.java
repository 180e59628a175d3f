package org.tcnfs.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.txn.handles.HandleBatch;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.Nfh;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.ResolvedPath;

class HandleTableResolverTest {
    @TempDir
    Path state;

    private HandleTable table;
    private Nfh root;
    private Nfh dir;
    private Nfh file;
    private Nfh otherRoot;

    @BeforeEach
    void tableWithATree() {
        table = HandleTable.open(state);
        try (HandleBatch batch = table.write()) {
            root = batch.ensureRoot("/", 1, 100, 0);
            dir = batch.register(root, "a", FileType.DIRECTORY, 1, 101, 0);
            file = batch.register(dir, "b", FileType.REGULAR, 1, 102, 0);
            otherRoot = batch.ensureRoot("/other", 2, 200, 0);
            batch.commit();
        }
    }

    @AfterEach
    void close() {
        table.close();
    }

    private static Inode inode(Nfh handle) {
        return Inode.of(handle.toBytes());
    }

    @Test
    void handlesResolveToTheirPathsInTheExport() throws IOException {
        HandleTableResolver resolver = new HandleTableResolver(table, "/");

        assertThat(resolver.resolve(inode(root))).isEqualTo(ObjectPath.root("/"));
        assertThat(resolver.resolve(inode(dir))).isEqualTo(ObjectPath.of("/", "a"));
        assertThat(resolver.resolve(inode(file))).isEqualTo(ObjectPath.of("/", "a", "b"));
        assertThat(resolver.root()).isEqualTo(ObjectPath.root("/"));
    }

    @Test
    void unknownMalformedAndForeignHandlesAreUnresolvable() throws IOException {
        HandleTableResolver resolver = new HandleTableResolver(table, "/");

        assertThat(resolver.resolve(inode(Nfh.random()))).isInstanceOf(ResolvedPath.Unresolvable.class);
        assertThat(resolver.resolve(Inode.of(new byte[] {1, 2, 3}))).isInstanceOf(ResolvedPath.Unresolvable.class);
        assertThat(resolver.resolve(inode(otherRoot))).isInstanceOf(ResolvedPath.Unresolvable.class);
    }

    @Test
    void identifyWalksTheTableAndKnowsNoMissingName() throws IOException {
        HandleTableResolver resolver = new HandleTableResolver(table, "/");

        assertThat(resolver.identify(ObjectPath.of("/", "a", "b"))).contains(inode(file));
        assertThat(resolver.identify(ObjectPath.of("/", "a", "missing"))).isEmpty();
        assertThat(resolver.identify(ObjectPath.of("/", "missing", "b"))).isEmpty();
    }

    @Test
    void identifyGivenTheParentsHandleLooksTheNameUpThereAndAnswersAsTheWalkFromTheRoot() throws IOException {
        HandleTableResolver resolver = new HandleTableResolver(table, "/");
        ObjectPath b = ObjectPath.of("/", "a", "b");

        assertThat(resolver.identify(b, inode(dir))).contains(inode(file)).isEqualTo(resolver.identify(b));
        assertThat(resolver.identify(ObjectPath.of("/", "a", "missing"), inode(dir))).isEmpty();
        assertThat(resolver.identify(ObjectPath.of("/", "a"), inode(root))).contains(inode(dir));
        assertThat(resolver.identify(ObjectPath.root("/"), null)).contains(inode(root));
        // the hint is where the name is looked up: a handle of another directory finds nothing there
        assertThat(resolver.identify(b, inode(root))).isEmpty();

        assertThat(table.late().unlinkLater(dir, "b", file)).isTrue();
        assertThat(resolver.removalPending(b, inode(dir))).isTrue().isEqualTo(resolver.removalPending(b));
        assertThat(resolver.removalPending(ObjectPath.of("/", "a"), inode(root))).isFalse();
    }

    @Test
    void aNameWhoseRowRemovalIsStillQueuedIsPendingRemovalUntilTheFlush() throws IOException {
        HandleTableResolver resolver = new HandleTableResolver(table, "/");
        assertThat(resolver.removalPending(ObjectPath.of("/", "a", "b"))).isFalse();

        assertThat(table.late().unlinkLater(dir, "b", file)).isTrue();
        assertThat(resolver.removalPending(ObjectPath.of("/", "a", "b"))).as("queued, row still in the table").isTrue();
        assertThat(resolver.removalPending(ObjectPath.of("/", "a"))).isFalse();
        table.late().flush();
        assertThat(resolver.removalPending(ObjectPath.of("/", "a", "b"))).as("row removed").isFalse();
        assertThat(resolver.identify(ObjectPath.of("/", "a", "b"))).isEmpty();
    }

    @Test
    void aHandleWhoseEveryNameWaitsForRemovalIsUnresolvableAsOnceItsRowIsGone() throws IOException {
        HandleTableResolver resolver = new HandleTableResolver(table, "/");
        assertThat(resolver.resolve(inode(file))).isEqualTo(ObjectPath.of("/", "a", "b"));

        assertThat(table.late().unlinkLater(dir, "b", file)).isTrue();
        assertThat(resolver.resolve(inode(file))).as("b's row queued for removal, still in the table")
                .isInstanceOf(ResolvedPath.Unresolvable.class);
        assertThat(resolver.resolve(inode(dir))).isEqualTo(ObjectPath.of("/", "a"));
        table.late().flush();
        assertThat(resolver.resolve(inode(file))).as("row removed").isInstanceOf(ResolvedPath.Unresolvable.class);
    }
}
