package org.tcnfs.nfs4.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ReplyBudgetTest {
    private static final long MIB = 1 << 20;

    @Test
    void waitingRequestsAreTakenOnlyAsFarAsTheirReservedRepliesFitTheBudget() {
        ReplyBudget budget = new ReplyBudget(4 * MIB, MIB, Duration.ofSeconds(1));
        AtomicInteger ran = new AtomicInteger();

        for (int i = 0; i < 10; i++) {
            budget.whenBelow(ran::incrementAndGet);
        }

        assertThat(ran).hasValue(4);
        assertThat(budget.waitingCount()).isEqualTo(6);
        budget.unreserve();
        assertThat(ran).hasValue(5);
        for (int i = 0; i < 4; i++) {
            budget.unreserve();
        }
        assertThat(ran).hasValue(9);
        assertThat(budget.waitingCount()).isEqualTo(1);
    }

    @Test
    void requestsAreTakenUnderReservationsUntilTheBudgetIsFullThenWaitForOneToEnd() {
        ReplyBudget budget = new ReplyBudget(4 * MIB, MIB, Duration.ofSeconds(1));
        AtomicInteger ran = new AtomicInteger();

        for (int i = 0; i < 4; i++) {
            assertThat(budget.tryReserve()).as("request %d", i).isTrue();
        }
        assertThat(budget.tryReserve()).isFalse();
        budget.whenBelow(ran::incrementAndGet);
        assertThat(ran).hasValue(0);
        budget.unreserve();
        assertThat(ran).hasValue(1);
        assertThat(budget.tryReserve()).as("the woken request holds the freed room").isFalse();
    }

    @Test
    void aBudgetSmallerThanOneReplyStillTakesOneRequestAtATime() {
        ReplyBudget budget = new ReplyBudget(MIB / 2, MIB, Duration.ofSeconds(1));
        AtomicInteger ran = new AtomicInteger();

        budget.whenBelow(ran::incrementAndGet);
        budget.whenBelow(ran::incrementAndGet);

        assertThat(ran).hasValue(1);
        budget.unreserve();
        assertThat(ran).hasValue(2);
    }
}
