package org.tcnfs.nfs4.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reply cache bound across sessions (RFC 8881 18.36.4: the server may grant less than asked). */
class ReplyCacheBudgetTest {
    private static final int MIB = 1024 * 1024;
    private static final int ASKED_CACHED = 16 * MIB;

    private static ChannelAttributes asked(int cached, int slots) {
        return new ChannelAttributes(0, MIB, 16 * MIB + 65536, cached, 64, slots);
    }

    @Test
    void cachedReplySizeIsGrantedNoLargerThanTheCap() {
        ReplyCacheBudget budget = new ReplyCacheBudget(new SessionLimits(16, 16, 64 * 1024, 64L * MIB, 16));
        ReplyCacheBudget.Grant g = budget.reserve(asked(ASKED_CACHED, 8), 0);
        assertThat(g.foreChannel().maxResponseSizeCached()).isEqualTo(64 * 1024);
        assertThat(g.foreChannel().maxRequests()).isEqualTo(8);
        assertThat(g.reservedBytes()).isEqualTo(Math.max(8L * 64 * 1024, ReplyCacheBudget.guaranteedShare(
                new SessionLimits(16, 16, 64 * 1024, 64L * MIB, 16))));
    }

    @Test
    void smallAskIsGrantedAsAskedAndKeepsTheMinimumSlotSize() {
        ReplyCacheBudget budget = new ReplyCacheBudget(SessionLimits.DEFAULTS);
        ReplyCacheBudget.Grant g = budget.reserve(asked(0, 8), 0);
        assertThat(g.foreChannel().maxResponseSizeCached()).isZero();
        assertThat(g.slotBytes()).isEqualTo(SessionLimits.MIN_SLOT_BYTES);
    }

    @Test
    void sessionsUpToTheLimitTogetherStayWithinTheBudgetAndEachGetsASlot() {
        SessionLimits limits = new SessionLimits(64, 64, 1088 * 1024, 16L * MIB, 16);
        ReplyCacheBudget budget = new ReplyCacheBudget(limits);
        List<ReplyCacheBudget.Grant> grants = new ArrayList<>();
        for (int i = 0; i < limits.maxSessions(); i++) {
            ReplyCacheBudget.Grant g = budget.reserve(asked(ASKED_CACHED, 64), i);
            assertThat(g.foreChannel().maxRequests()).isPositive();
            assertThat(g.foreChannel().maxResponseSizeCached())
                    .isGreaterThanOrEqualTo((int) ReplyCacheBudget.guaranteedShare(limits));
            assertThat((long) g.foreChannel().maxRequests() * g.slotBytes()).isLessThanOrEqualTo(g.reservedBytes());
            grants.add(g);
        }
        assertThat(budget.reservedBytes()).isLessThanOrEqualTo(limits.replyCacheBytes());
        assertThat(grants.get(0).reservedBytes()).isLessThanOrEqualTo(limits.replyCacheBytes() / 4);
    }

    @Test
    void aDestroyedSessionGivesItsReservationBack() {
        ReplyCacheBudget budget = new ReplyCacheBudget(new SessionLimits(4, 4, 1088 * 1024, 8L * MIB, 16));
        ReplyCacheBudget.Grant g = budget.reserve(asked(ASKED_CACHED, 64), 0);
        assertThat(budget.reservedBytes()).isEqualTo(g.reservedBytes());
        budget.release(g.reservedBytes());
        assertThat(budget.reservedBytes()).isZero();
    }

    /**
     * Eight clients of the vectorized client at once, each asking eight slots of 64 MiB cached replies: with the
     * default limits every one gets a slot of max-cached-reply (the first ones took three each, and the sixth
     * to eighth got one 16 KiB slot, so their 1,024-file calls went out as 40 compounds).
     */
    @Test
    void eightSessionsAskingManyLargeSlotsEachGetOneOfTheFullSize() {
        SessionLimits limits = SessionLimits.DEFAULTS;
        ReplyCacheBudget budget = new ReplyCacheBudget(limits);
        for (int i = 0; i < 9; i++) {
            ReplyCacheBudget.Grant g = budget.reserve(asked(64 * MIB, 8), i);
            assertThat(g.foreChannel().maxResponseSizeCached()).as("session %d", i)
                    .isEqualTo(limits.maxCachedReplyBytes());
            assertThat(g.foreChannel().maxRequests()).as("session %d", i).isPositive();
        }
        assertThat(budget.reservedBytes()).isLessThanOrEqualTo(limits.replyCacheBytes());
    }

    @Test
    void aLoneSessionStillGetsSeveralLargeSlots() {
        ReplyCacheBudget budget = new ReplyCacheBudget(SessionLimits.DEFAULTS);
        ReplyCacheBudget.Grant g = budget.reserve(asked(64 * MIB, 8), 0);
        assertThat(g.foreChannel().maxRequests()).isEqualTo(3);
    }
}
