package org.tcnfs.nfs4.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.status.InvalException;

/** POSIX byte-range lock semantics of one file (RFC 8881 9.2): merge, split, upgrade, conflict. */
class ByteRangeLockSetTest {
    private static final long MAX = ByteRange.MAX;
    private static final StateOwner A = new StateOwner(1, "a".getBytes(StandardCharsets.UTF_8));
    private static final StateOwner B = new StateOwner(1, "b".getBytes(StandardCharsets.UTF_8));
    private static final StateOwner A_OF_OTHER_CLIENT = new StateOwner(2, "a".getBytes(StandardCharsets.UTF_8));

    private final ByteRangeLockSet set = new ByteRangeLockSet();

    private static ByteRange r(long first, long last) {
        return new ByteRange(first, last);
    }

    private static ByteRangeLock lock(StateOwner owner, LockType type, long first, long last) {
        return new ByteRangeLock(owner, type, r(first, last));
    }

    @Test
    void rangeOfLengthAllOnesReachesTheLargestOffset() throws Exception {
        ByteRange toEof = ByteRange.of(10, MAX);
        assertThat(toEof.last()).isEqualTo(MAX);
        assertThat(toEof.length()).isEqualTo(MAX);
        assertThat(ByteRange.of(0, MAX).length()).isEqualTo(MAX);
        assertThat(ByteRange.of(5, 10)).isEqualTo(r(5, 14));
        assertThat(ByteRange.of(5, 10).length()).isEqualTo(10);
    }

    @Test
    void rangeOfLengthZeroOrPastTheLargestOffsetIsInval() throws Exception {
        assertThatThrownBy(() -> ByteRange.of(0, 0)).isInstanceOf(InvalException.class);
        assertThatThrownBy(() -> ByteRange.of(100, 0xfffffffffffffffeL)).isInstanceOf(InvalException.class);
        assertThatThrownBy(() -> ByteRange.of(MAX, 2)).isInstanceOf(InvalException.class);
        // ending exactly at the largest offset is fine
        assertThat(ByteRange.of(MAX - 9, 10).last()).isEqualTo(MAX);
        assertThat(ByteRange.of(MAX, 1)).isEqualTo(r(MAX, MAX));
    }

    @Test
    void offsetsCompareUnsigned() {
        assertThat(r(0x8000000000000000L, MAX).overlaps(r(0, 0x8000000000000000L))).isTrue();
        assertThat(r(0x8000000000000001L, MAX).overlaps(r(0, 0x8000000000000000L))).isFalse();
    }

    @Test
    void overlappingWriteLocksOfDifferentOwnersConflict() {
        assertThat(set.lock(A, LockType.WRITE, r(0, 99))).isEmpty();
        assertThat(set.lock(B, LockType.READ, r(99, 200))).contains(lock(A, LockType.WRITE, 0, 99));
        assertThat(set.lock(B, LockType.WRITE, r(100, 200))).isEmpty();
        assertThat(set.conflict(A_OF_OTHER_CLIENT, LockType.READ, r(50, 50))).contains(lock(A, LockType.WRITE, 0, 99));
    }

    @Test
    void readLocksOfDifferentOwnersShareARange() {
        assertThat(set.lock(A, LockType.READ, r(0, 99))).isEmpty();
        assertThat(set.lock(B, LockType.READ, r(50, 150))).isEmpty();
        assertThat(set.conflict(A, LockType.WRITE, r(60, 60))).contains(lock(B, LockType.READ, 50, 150));
        assertThat(set.locks()).hasSize(2);
    }

    @Test
    void anOwnerNeverConflictsWithItself() {
        set.lock(A, LockType.WRITE, r(0, 99));
        assertThat(set.conflict(A, LockType.WRITE, r(0, MAX))).isEmpty();
    }

    @Test
    void adjacentAndOverlappingLocksOfOneOwnerAndTypeMerge() {
        set.lock(A, LockType.READ, r(0, 9));
        set.lock(A, LockType.READ, r(20, 29));
        set.lock(A, LockType.READ, r(10, 19));
        assertThat(set.locks()).containsExactly(lock(A, LockType.READ, 0, 29));
        set.lock(A, LockType.READ, r(25, 40));
        assertThat(set.locks()).containsExactly(lock(A, LockType.READ, 0, 40));
    }

    @Test
    void locksOfDifferentOwnersDoNotMerge() {
        set.lock(A, LockType.READ, r(0, 9));
        set.lock(B, LockType.READ, r(10, 19));
        assertThat(set.locks()).containsExactly(lock(A, LockType.READ, 0, 9), lock(B, LockType.READ, 10, 19));
    }

    @Test
    void aWriteLockInsideAReadLockUpgradesThatPartOnly() {
        set.lock(A, LockType.READ, r(0, 99));
        set.lock(A, LockType.WRITE, r(40, 59));
        assertThat(set.locks()).containsExactly(lock(A, LockType.READ, 0, 39), lock(A, LockType.WRITE, 40, 59),
                lock(A, LockType.READ, 60, 99));
        set.lock(A, LockType.READ, r(0, 99));
        assertThat(set.locks()).containsExactly(lock(A, LockType.READ, 0, 99));
    }

    @Test
    void anUpgradeBlockedByAnotherOwnerChangesNothing() {
        set.lock(A, LockType.READ, r(0, 99));
        set.lock(B, LockType.READ, r(50, 59));
        assertThat(set.lock(A, LockType.WRITE, r(0, 99))).contains(lock(B, LockType.READ, 50, 59));
        assertThat(set.locks()).containsExactly(lock(A, LockType.READ, 0, 99), lock(B, LockType.READ, 50, 59));
    }

    @Test
    void unlockingTheMiddleSplitsALock() {
        set.lock(A, LockType.WRITE, r(0, MAX));
        set.unlock(A, r(100, 199));
        assertThat(set.locks()).containsExactly(lock(A, LockType.WRITE, 0, 99), lock(A, LockType.WRITE, 200, MAX));
        assertThat(set.conflict(B, LockType.WRITE, r(100, 199))).isEmpty();
    }

    @Test
    void unlockingAcrossSeveralLocksTrimsThemAndLeavesOtherOwnersAlone() {
        set.lock(A, LockType.READ, r(0, 9));
        set.lock(A, LockType.WRITE, r(20, 29));
        set.lock(B, LockType.READ, r(40, 49));
        set.unlock(A, r(5, 45));
        assertThat(set.locks()).containsExactly(lock(A, LockType.READ, 0, 4), lock(B, LockType.READ, 40, 49));
        set.unlock(A, r(0, MAX));
        assertThat(set.holds(A)).isFalse();
        assertThat(set.holds(B)).isTrue();
    }

    @Test
    void unlockingWhatIsNotLockedChangesNothing() {
        set.lock(A, LockType.READ, r(10, 19));
        set.unlock(A, r(20, 29));
        set.unlock(B, r(0, MAX));
        assertThat(set.locks()).containsExactly(lock(A, LockType.READ, 10, 19));
    }

    @Test
    void removingAnOwnerReleasesAllItsLocks() {
        set.lock(A, LockType.READ, r(0, 9));
        set.lock(A, LockType.WRITE, r(20, 29));
        set.lock(B, LockType.READ, r(0, 9));
        set.removeOwner(A);
        assertThat(set.locks()).containsExactly(lock(B, LockType.READ, 0, 9));
        set.removeOwner(B);
        assertThat(set.isEmpty()).isTrue();
    }

    @Test
    void locksAtTheTopOfTheOffsetRangeMerge() {
        set.lock(A, LockType.WRITE, r(MAX - 9, MAX));
        set.lock(A, LockType.WRITE, r(MAX - 19, MAX - 10));
        assertThat(set.locks()).containsExactly(lock(A, LockType.WRITE, MAX - 19, MAX));
    }
}
