package org.tcnfs.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Crash points that are not armed, or armed elsewhere, never halt (halting is tested out of process). */
class CrashPointsTest {

    @Test
    void noneIsArmedAtNothingAndReachesEverythingSafely() {
        assertThat(CrashPoints.NONE.armed()).isEmpty();
        CrashPoints.NONE.reach("after-commit");
        CrashPoints.NONE.reach("mid-undo-", 1);
    }

    @Test
    void atArmsTheStrippedName() {
        assertThat(CrashPoints.at("  before-commit \n").armed()).contains("before-commit");
        assertThatThrownBy(() -> CrashPoints.at(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void reachingAnotherPointThanTheArmedOneReturns() {
        CrashPoints armed = CrashPoints.at("mid-undo-2");
        armed.reach("mid-undo-");
        armed.reach("mid-undo-1");
        armed.reach("mid-undo-", 1);
        armed.reach("mid-undo-", 12);
        armed.reach("mid-recovery-", 2);
        armed.reach("mid-", 2);
        CrashPoints.at("before-op-1").reach("before-op-", 11);
        CrashPoints.at("before-op-11").reach("before-op-", 1);
        assertThat(armed.armed()).contains("mid-undo-2");
    }

    @Test
    void systemPropertyArmsAPointAndBlankMeansNone() {
        String old = System.getProperty(CrashPoints.PROPERTY);
        try {
            System.clearProperty(CrashPoints.PROPERTY);
            assertThat(CrashPoints.fromSystemProperties()).isSameAs(CrashPoints.NONE);
            System.setProperty(CrashPoints.PROPERTY, "   ");
            assertThat(CrashPoints.fromSystemProperties()).isSameAs(CrashPoints.NONE);
            System.setProperty(CrashPoints.PROPERTY, "unit-test-point-never-reached");
            assertThat(CrashPoints.fromSystemProperties().armed()).contains("unit-test-point-never-reached");
        } finally {
            if (old == null) {
                System.clearProperty(CrashPoints.PROPERTY);
            } else {
                System.setProperty(CrashPoints.PROPERTY, old);
            }
        }
    }
}
