package org.tcnfs.nfs4.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.vfs.Inode;

/**
 * The queue of blocked lockers of a file (RFC 7530 9.4): a denied blocking LOCK keeps its owner's place for
 * a lease, and a released lock goes to the first waiter, not to a locker that came later.
 */
class BlockedLockQueueTest {
    private static final Inode F = Inode.of(new byte[] {1});
    private static final ShareMode BOTH = new ShareMode(3, 0);
    private static final ByteRange ALL = new ByteRange(0, ByteRange.MAX);
    private static final Duration LEASE = Duration.ofSeconds(90);
    private static final LockWait BLOCKING = LockWait.blocking(LEASE);

    private final MutableClock now = new MutableClock();
    private final OpenStateTable table = new OpenStateTable(new StateIdGenerator(0x5eed, 1), now);
    private final NfsClient client = new NfsClient(1);

    private static byte[] owner(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private StateId open(String owner) throws Exception {
        return table.open(client, owner(owner), F, BOTH, OpenStateTable.NOTHING);
    }

    private LockResult lock(StateId open, String lockOwner, LockWait wait) throws Exception {
        return table.lockNewOwner(client, open, owner(lockOwner), F, LockType.WRITE, ALL, wait);
    }

    @Test
    void releasedLockGoesToTheFirstBlockedLockerNotToALaterOne() throws Exception {
        StateId holder = ((LockResult.Granted) lock(open("o1"), "l1", LockWait.NONE)).stateId();
        StateId second = open("o2");
        StateId third = open("o3");
        assertThat(lock(second, "l2", BLOCKING)).isInstanceOf(LockResult.Denied.class);

        table.unlock(client, holder, F, ALL);

        LockResult butting = lock(third, "l3", BLOCKING);
        assertThat(butting).isInstanceOf(LockResult.Denied.class);
        assertThat(((LockResult.Denied) butting).conflict().owner().owner()).isEqualTo(owner("l2"));
        assertThat(lock(second, "l2", BLOCKING)).isInstanceOf(LockResult.Granted.class);
    }

    @Test
    void nonBlockingRequestThatIsDeniedIsNotQueued() throws Exception {
        StateId holder = ((LockResult.Granted) lock(open("o1"), "l1", LockWait.NONE)).stateId();
        StateId second = open("o2");
        assertThat(lock(second, "l2", LockWait.NONE)).isInstanceOf(LockResult.Denied.class);

        table.unlock(client, holder, F, ALL);

        assertThat(lock(open("o3"), "l3", LockWait.NONE)).isInstanceOf(LockResult.Granted.class);
    }

    @Test
    void blockedLockerThatDoesNotAskAgainWithinALeaseLosesItsPlace() throws Exception {
        StateId holder = ((LockResult.Granted) lock(open("o1"), "l1", LockWait.NONE)).stateId();
        assertThat(lock(open("o2"), "l2", BLOCKING)).isInstanceOf(LockResult.Denied.class);
        now.advance(LEASE.plusMillis(1));

        table.unlock(client, holder, F, ALL);

        assertThat(lock(open("o3"), "l3", BLOCKING)).isInstanceOf(LockResult.Granted.class);
    }

    @Test
    void askingAgainRenewsTheBlockedLockersPlace() throws Exception {
        StateId holder = ((LockResult.Granted) lock(open("o1"), "l1", LockWait.NONE)).stateId();
        StateId second = open("o2");
        assertThat(lock(second, "l2", BLOCKING)).isInstanceOf(LockResult.Denied.class);
        now.advance(LEASE.minusMillis(5_000));
        assertThat(lock(second, "l2", BLOCKING)).isInstanceOf(LockResult.Denied.class);
        now.advance(LEASE.minusMillis(5_000));

        table.unlock(client, holder, F, ALL);

        assertThat(lock(open("o3"), "l3", BLOCKING)).isInstanceOf(LockResult.Denied.class);
        assertThat(lock(second, "l2", BLOCKING)).isInstanceOf(LockResult.Granted.class);
    }

    @Test
    void waiterHoldsUpOnlyLocksThatConflictWithWhatItWants() throws Exception {
        ByteRange first = new ByteRange(0, 9);
        StateId holder = ((LockResult.Granted) table.lockNewOwner(client, open("o1"), owner("l1"), F,
                LockType.WRITE, first, LockWait.NONE)).stateId();
        assertThat(table.lockNewOwner(client, open("o2"), owner("l2"), F, LockType.WRITE, first, BLOCKING))
                .isInstanceOf(LockResult.Denied.class);
        table.unlock(client, holder, F, first);

        assertThat(table.lockNewOwner(client, open("o3"), owner("l3"), F, LockType.WRITE,
                new ByteRange(100, 199), LockWait.NONE)).isInstanceOf(LockResult.Granted.class);
        assertThat(table.lockNewOwner(client, open("o4"), owner("l4"), F, LockType.READ,
                new ByteRange(5, 5), LockWait.NONE)).isInstanceOf(LockResult.Denied.class);
    }
}
