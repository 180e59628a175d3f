package org.tcnfs.nfs4.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The NFSv4.0 owners one client keeps with their last reply are bounded (RFC 7530 9.1.7). */
class ClientStateOwnerBoundTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-26T00:00:00Z"), ZoneOffset.UTC);

    private static StateOwner owner(ClientState cs, String name) {
        return new StateOwner(cs.clientId, name.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void ownersWithoutStateBeyondTheBoundAreForgottenLeastRecentlyUsedFirst() throws Exception {
        ClientState cs = new ClientState(NfsClient.confirmedNfs40(7), 8, key -> { });
        OwnerSequence first = cs.openSequence(owner(cs, "open-0"), CLOCK);
        for (int i = 1; i < 100; i++) {
            cs.openSequence(owner(cs, "open-" + i), CLOCK);
            cs.lockSequence(owner(cs, "lock-" + i), CLOCK);
            assertThat(cs.ownerCount()).isLessThanOrEqualTo(8);
        }
        // the newest owner is still the one it was; the first was forgotten and comes back new
        assertThat(cs.lockSequence(owner(cs, "lock-99"), CLOCK)).isSameAs(cs.lockSequence(owner(cs, "lock-99"), CLOCK));
        assertThat(cs.openSequence(owner(cs, "open-0"), CLOCK)).isNotSameAs(first);
    }
}
