package org.tcnfs.server.fs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ChangeTrackerTest {

    @Test
    void anUntouchedObjectReportsItsCtime() {
        assertThat(new ChangeTracker().change(1, 1000)).isEqualTo(1000);
    }

    @Test
    void modificationsWithinOneTickStillRaiseTheValue() {
        ChangeTracker tracker = new ChangeTracker();
        long before = tracker.change(1, 1000);
        tracker.modified(1, 1000);
        long first = tracker.change(1, 1000);
        tracker.modified(1, 1000);
        long second = tracker.change(1, 1000);
        assertThat(first).isGreaterThan(before);
        assertThat(second).isGreaterThan(first);
    }

    @Test
    void aLaterCtimeTakesOverAndDropsTheEntry() {
        ChangeTracker tracker = new ChangeTracker();
        tracker.modified(1, 1000);
        tracker.modified(1, 1000);
        assertThat(tracker.change(1, 5000)).isEqualTo(5000);
        assertThat(tracker.change(1, 1000)).as("entry dropped").isEqualTo(1000);
    }

    @Test
    void objectsAreTrackedSeparately() {
        ChangeTracker tracker = new ChangeTracker();
        tracker.modified(1, 1000);
        assertThat(tracker.change(2, 1000)).isEqualTo(1000);
    }
}
