package org.tcnfs.nfs4.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.status.ShareDeniedException;
import org.tcnfs.nfs4.vfs.Inode;

/** A rolled-back compound's open, share and lock state is put back exactly ({@link StateJournal}). */
class StateJournalTest {
    private static final Inode F = Inode.of(new byte[] {1});
    private static final ShareMode READ = new ShareMode(ShareMode.READ, 0);
    private static final ShareMode WRITE = new ShareMode(ShareMode.WRITE, 0);
    private static final ShareMode BOTH_DENY_WRITE = new ShareMode(3, ShareMode.WRITE);

    private final OpenStateTable table = new OpenStateTable(new StateIdGenerator(0x5eed, 1));
    private final NfsClient a = new NfsClient(1);
    private final NfsClient b = new NfsClient(2);

    private static byte[] owner(String name) {
        return name.getBytes(StandardCharsets.UTF_8);
    }

    private interface Work {
        void run() throws Exception;
    }

    /** Runs {@code work} as a compound that is then rolled back; returns the number of restore failures. */
    private int rolledBack(Work work) throws Exception {
        StateJournal journal = table.journal();
        try (OpenStateTable.JournalBinding bound = table.bind(journal)) {
            work.run();
        }
        return table.restore(journal);
    }

    private StateOwner lockOwner(NfsClient client, String name) {
        return new StateOwner(client.clientId(), owner(name));
    }

    private List<ByteRangeLock> locksOf(StateOwner owner) {
        return table.locksHeld(F).stream().filter(l -> l.owner().equals(owner)).toList();
    }

    @Test
    void openUpgradeWithDenyWriteIsUndoneByRollback() throws Exception {
        StateId open = table.open(a, owner("o"), F, READ, OpenStateTable.NOTHING);

        int failures = rolledBack(() -> table.open(a, owner("o"), F, BOTH_DENY_WRITE, OpenStateTable.NOTHING));

        assertThat(failures).isZero();
        assertThat(table.open(b, owner("o"), F, WRITE, OpenStateTable.NOTHING)).as("another client opens for writing")
                .isNotNull();
        assertThat(table.test(a, open)).as("the stateid of before, seqid 1, is current again")
                .isEqualTo(org.tcnfs.nfs4.status.NfsStatus.OK);
    }

    @Test
    void downgradeIsUndoneByRollback() throws Exception {
        table.open(a, owner("o"), F, READ, OpenStateTable.NOTHING);
        StateId both = table.open(a, owner("o"), F, BOTH_DENY_WRITE, OpenStateTable.NOTHING);

        assertThat(rolledBack(() -> table.downgrade(a, both, F, READ))).isZero();

        assertThat(table.test(a, both)).isEqualTo(org.tcnfs.nfs4.status.NfsStatus.OK);
        assertThatThrownBy(() -> table.open(b, owner("o"), F, WRITE, OpenStateTable.NOTHING))
                .as("deny WRITE is back").isInstanceOf(ShareDeniedException.class);
    }

    @Test
    void lockOverRangesHeldBeforeIsUndoneToTheLocksHeldBefore() throws Exception {
        StateId open = table.open(a, owner("o"), F, new ShareMode(3, 0), OpenStateTable.NOTHING);
        StateId lock = ((LockResult.Granted) table.lockNewOwner(a, open, owner("l"), F, LockType.WRITE,
                new ByteRange(0, 99))).stateId();
        lock = ((LockResult.Granted) table.lockExistingOwner(a, lock, F, LockType.WRITE, new ByteRange(200, 299)))
                .stateId();
        StateId before = lock;
        List<ByteRangeLock> held = locksOf(lockOwner(a, "l"));

        // a READ lock over [50, 250] splits both WRITE locks and merges into one READ lock; then a hole
        assertThat(rolledBack(() -> {
            StateId l = ((LockResult.Granted) table.lockExistingOwner(a, before, F, LockType.READ,
                    new ByteRange(50, 250))).stateId();
            table.unlock(a, l, F, new ByteRange(60, 70));
        })).isZero();

        assertThat(locksOf(lockOwner(a, "l"))).isEqualTo(held);
        assertThat(table.testLock(b, owner("x"), F, LockType.READ, new ByteRange(10, 10))).isPresent();
        assertThat(table.testLock(b, owner("x"), F, LockType.READ, new ByteRange(250, 250))).isPresent();
        assertThat(table.test(a, before)).isEqualTo(org.tcnfs.nfs4.status.NfsStatus.OK);
    }

    @Test
    void closeIsUndoneWithTheLocksOpenedThroughIt() throws Exception {
        StateId open = table.open(a, owner("o"), F, BOTH_DENY_WRITE, OpenStateTable.NOTHING);
        StateId lock = ((LockResult.Granted) table.lockNewOwner(a, open, owner("l"), F, LockType.WRITE,
                new ByteRange(0, 9))).stateId();

        assertThat(rolledBack(() -> table.close(a, open, F))).isZero();

        assertThat(table.test(a, open)).isEqualTo(org.tcnfs.nfs4.status.NfsStatus.OK);
        assertThat(table.test(a, lock)).isEqualTo(org.tcnfs.nfs4.status.NfsStatus.OK);
        assertThat(table.isOpen(F)).isTrue();
        assertThat(table.testLock(b, owner("x"), F, LockType.READ, new ByteRange(5, 5))).isPresent();
        assertThatThrownBy(() -> table.open(b, owner("o"), F, WRITE, OpenStateTable.NOTHING))
                .isInstanceOf(ShareDeniedException.class);
    }

    @Test
    void openAndLockCreatedByTheCompoundAreReleasedForNfs40Clients() throws Exception {
        NfsClient c40 = NfsClient.confirmedNfs40(0x40);
        StateId[] made = new StateId[2];

        assertThat(rolledBack(() -> {
            made[0] = table.open(c40, owner("o"), F, BOTH_DENY_WRITE, OpenStateTable.NOTHING);
            made[0] = table.confirmOpen(c40, made[0], F);
            made[1] = ((LockResult.Granted) table.lockNewOwner(c40, made[0], owner("l"), F, LockType.WRITE,
                    new ByteRange(0, 9))).stateId();
        })).isZero();

        assertThat(table.isOpen(F)).isFalse();
        assertThat(table.holdsState(c40)).isFalse();
        assertThat(table.testLock(b, owner("x"), F, LockType.WRITE, new ByteRange(0, 9))).isEmpty();
        assertThat(table.open(b, owner("o"), F, WRITE, OpenStateTable.NOTHING)).isNotNull();
    }

    @Test
    void aConflictingLockTakenMeanwhileIsCountedAndTheRestIsRestored() throws Exception {
        StateId open = table.open(a, owner("o"), F, new ShareMode(3, 0), OpenStateTable.NOTHING);
        StateId lock = ((LockResult.Granted) table.lockNewOwner(a, open, owner("l"), F, LockType.WRITE,
                new ByteRange(0, 9))).stateId();
        StateId openB = table.open(b, owner("o"), F, new ShareMode(3, 0), OpenStateTable.NOTHING);

        int failures = rolledBack(() -> {
            table.unlock(a, lock, F, new ByteRange(0, 9));
            // another client's compound (no journal of ours) takes the range meanwhile
            Thread t = new Thread(() -> {
                try {
                    table.lockNewOwner(b, openB, owner("l"), F, LockType.WRITE, new ByteRange(0, 9));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            t.start();
            t.join();
        });

        assertThat(failures).isEqualTo(1);
        assertThat(table.test(a, open)).isEqualTo(org.tcnfs.nfs4.status.NfsStatus.OK);
    }

    @Test
    void aClientWhoseStateWasReleasedDuringTheCompoundHasNothingToRestoreAndThatIsNoFailure() throws Exception {
        table.open(a, owner("o"), F, READ, OpenStateTable.NOTHING);
        StateId both = table.open(a, owner("o"), F, BOTH_DENY_WRITE, OpenStateTable.NOTHING);

        // the lease of client a runs out while the compound runs (on its thread: the release is journaled too)
        int failures = rolledBack(() -> {
            table.downgrade(a, both, F, READ);
            table.releaseClient(a);
        });

        assertThat(failures).isZero();
        assertThat(table.holdsState(a)).isFalse();
        assertThat(table.open(b, owner("o"), F, WRITE, OpenStateTable.NOTHING)).as("nothing of a denies b")
                .isNotNull();
    }

    @Test
    void changesOutsideTheBindingAreNotRecorded() throws Exception {
        StateJournal journal = table.journal();
        table.open(a, owner("o"), F, READ, OpenStateTable.NOTHING);

        assertThat(journal.isEmpty()).isTrue();
        assertThat(table.restore(journal)).isZero();
        assertThat(table.isOpen(F)).isTrue();
    }
}
