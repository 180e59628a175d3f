package org.tcnfs.nfs4.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.status.DelayException;
import org.tcnfs.nfs4.status.ExpiredException;
import org.tcnfs.nfs4.status.NoSpcException;
import org.tcnfs.nfs4.status.ResourceException;
import org.tcnfs.nfs4.status.StaleClientIdException;

/**
 * Clients and sessions beyond {@link SessionLimits} are refused, not stored; unconfirmed records make room
 * (RFC 8881 18.35, 18.36; RFC 7530 16.33).
 */
class ClientLimitsTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-26T00:00:00Z"), ZoneOffset.UTC);
    private static final SessionLimits LIMITS = new SessionLimits(4, 3, 64 * 1024, 1024 * 1024, 16);
    private final StateHandler state = StateHandler.builder(NfsLimits.DEFAULTS, CLOCK).sessionLimits(LIMITS)
            .reaperInterval(Duration.ofHours(1)).build();
    private int owners;

    @AfterEach
    void close() {
        state.close();
    }

    /** Three client records and three sessions per address. */
    private static final SessionLimits THREE_PER_ADDRESS = new SessionLimits(8, 8, 64 * 1024, 1024 * 1024, 16, 3, 3);
    private static final ClientCallback CALLBACK = new ClientCallback(0, "tcp", "127.0.0.1.0.0", 0);

    private static java.net.InetAddress address(int last) throws java.net.UnknownHostException {
        return java.net.InetAddress.getByName("127.0.0." + last);
    }

    /** A state handler with {@code limits} on {@code clock} whose reaper does not run during a test. */
    private static StateHandler handler(SessionLimits limits, java.time.Clock clock) {
        return StateHandler.builder(NfsLimits.DEFAULTS, clock).sessionLimits(limits).reaperInterval(Duration.ofHours(1))
                .build();
    }

    private ClientOwner owner() {
        return new ClientOwner(new OwnerId(("owner-" + owners++).getBytes(StandardCharsets.UTF_8)), new byte[8]);
    }

    private static ChannelAttributes channel(int slots) {
        return new ChannelAttributes(0, 65536, 65536, 16 * 1024 * 1024, 16, slots);
    }

    private NfsSession confirmedClient() throws Exception {
        ExchangeIdResult r = state.exchangeId(owner(), 0, ExchangeIdMode.CREATE);
        return state.createSession(new CreateSessionRequest(r.client().clientId(), r.sequenceId(), 0, channel(8),
                channel(1), 0), 0);
    }

    @Test
    void oneAddressFillingItsShareOfClientsAndSessionsLeavesRoomForAnother() throws Exception {
        SessionLimits limits = THREE_PER_ADDRESS;
        java.net.InetAddress a = address(1);
        java.net.InetAddress b = address(2);
        try (StateHandler s = handler(limits, CLOCK)) {
            ExchangeIdResult first = s.exchangeId(owner(), 0, ExchangeIdMode.CREATE, a);
            for (int i = 0; i < 20; i++) {
                s.exchangeId(owner(), 0, ExchangeIdMode.CREATE, a); // unconfirmed: each takes the oldest's place
            }
            assertThat(s.clientCount()).isEqualTo(3);
            assertThatThrownBy(() -> s.createSession(new CreateSessionRequest(first.client().clientId(),
                    first.sequenceId(), 0, channel(8), channel(1), 0), 0, a))
                    .isInstanceOf(StaleClientIdException.class);
            for (int i = 0; i < 3; i++) {
                ExchangeIdResult r = s.exchangeId(owner(), 0, ExchangeIdMode.CREATE, a);
                s.createSession(new CreateSessionRequest(r.client().clientId(), r.sequenceId(), 0, channel(8),
                        channel(1), 0), 0, a);
                if (i == 2) {
                    assertThatThrownBy(() -> s.createSession(new CreateSessionRequest(r.client().clientId(),
                            r.sequenceId() + 1, 0, channel(8), channel(1), 0), 0, a))
                            .isInstanceOf(NoSpcException.class);
                }
            }
            assertThatThrownBy(() -> s.exchangeId(owner(), 0, ExchangeIdMode.CREATE, a))
                    .isInstanceOf(DelayException.class);
            assertThatThrownBy(() -> s.setClientId(owner(), new ClientCallback(0, "tcp", "127.0.0.1.0.0", 0), 0, a))
                    .isInstanceOf(ResourceException.class);

            ExchangeIdResult other = s.exchangeId(owner(), 0, ExchangeIdMode.CREATE, b);
            s.createSession(new CreateSessionRequest(other.client().clientId(), other.sequenceId(), 0, channel(8),
                    channel(1), 0), 0, b);
            assertThat(s.sessionCount()).isEqualTo(4);
        }
    }

    /**
     * pynfs's NFSv4.0 run makes a client per test from one address: once 256 were confirmed, every SETCLIENTID
     * got NFS4ERR_RESOURCE, though the leases of most had lapsed long before (CID1 to CID5 failed).
     */
    @Test
    void confirmedClientsWhoseLeaseLapsedMakeRoomForNewOnesOfTheirAddress() throws Exception {
        SessionLimits limits = THREE_PER_ADDRESS;
        java.net.InetAddress a = address(1);
        MutableClock clock = new MutableClock();
        try (StateHandler s = handler(limits, clock)) {
            ClientCallback callback = CALLBACK;
            for (int i = 0; i < 3; i++) {
                SetClientIdResult.Accepted r = (SetClientIdResult.Accepted) s.setClientId(owner(), callback, 0, a);
                s.confirmClientId(r.clientId(), r.confirmVerifier(), 0);
                openSomething(s, r.clientId(), i); // with state: not released to make room while its lease runs
            }
            assertThatThrownBy(() -> s.setClientId(owner(), callback, 0, a)).isInstanceOf(ResourceException.class);

            clock.advance(NfsLimits.DEFAULTS.lease().plusSeconds(1));

            assertThat(s.setClientId(owner(), callback, 0, a)).isInstanceOf(SetClientIdResult.Accepted.class);
        }
    }

    @Test
    void unconfirmedRecordsAreForgottenAfterFifteenSecondsAndConfirmedOnesKeepTheirLease() throws Exception {
        MutableClock clock = new MutableClock();
        try (StateHandler s = handler(LIMITS, clock)) {
            ExchangeIdResult confirmed = s.exchangeId(owner(), 0, ExchangeIdMode.CREATE);
            s.createSession(new CreateSessionRequest(confirmed.client().clientId(), confirmed.sequenceId(), 0,
                    channel(8), channel(1), 0), 0);
            ExchangeIdResult unconfirmed = s.exchangeId(owner(), 0, ExchangeIdMode.CREATE);
            s.setClientId(owner(), new ClientCallback(0, "tcp", "127.0.0.1.0.0", 0), 0);
            assertThat(s.clientCount()).isEqualTo(3);

            clock.advance(Duration.ofMillis(ClientRegistry.UNCONFIRMED_MILLIS + 1));
            s.reapExpired();

            assertThat(s.clientCount()).isEqualTo(1);
            assertThatThrownBy(() -> s.createSession(new CreateSessionRequest(unconfirmed.client().clientId(),
                    unconfirmed.sequenceId(), 0, channel(8), channel(1), 0), 0))
                    .isInstanceOf(StaleClientIdException.class);
        }
    }

    @Test
    void unconfirmedClientsMakeRoomOldestFirstAndNeverPassTheLimit() throws Exception {
        ExchangeIdResult first = state.exchangeId(owner(), 0, ExchangeIdMode.CREATE);
        for (int i = 0; i < 100; i++) {
            state.exchangeId(owner(), 0, ExchangeIdMode.CREATE);
            assertThat(state.clientCount()).isLessThanOrEqualTo(4);
        }
        assertThatThrownBy(() -> state.createSession(new CreateSessionRequest(first.client().clientId(),
                first.sequenceId(), 0, channel(8), channel(1), 0), 0)).isInstanceOf(StaleClientIdException.class);
    }

    @Test
    void exchangeIdWhenEveryRecordIsConfirmedIsDelay() throws Exception {
        for (int i = 0; i < 3; i++) {
            confirmedClient();
        }
        ExchangeIdResult fourth = state.exchangeId(owner(), 0, ExchangeIdMode.CREATE);
        assertThat(fourth.confirmed()).isFalse();
        // the fourth record is unconfirmed: a fifth client replaces it; then the table is full of confirmed ones
        state.exchangeId(owner(), 0, ExchangeIdMode.CREATE);
        assertThat(state.clientCount()).isEqualTo(4);
        state.setClientId(owner(), new ClientCallback(0, "tcp", "127.0.0.1.0.0", 0), 0);
        assertThat(state.clientCount()).isEqualTo(4);
    }

    /** An open of a file of its own by the confirmed NFSv4.0 client {@code clientId}. */
    private static void openSomething(StateHandler s, long clientId, int file) throws Exception {
        NfsClient c = s.renewNfs40(clientId);
        s.opens().open(c, ("owner-" + file).getBytes(StandardCharsets.UTF_8),
                org.tcnfs.nfs4.vfs.Inode.of(new byte[] {(byte) file, 7}), new ShareMode(1, 0), OpenStateTable.NOTHING);
    }

    /**
     * What costs nothing to drop makes room for a new record of an address at its limit, cheapest first: an
     * unconfirmed record, then a client whose lease lapsed, then the confirmed client without state renewed
     * longest ago (RFC 8881 2.4.3); a client with state under a running lease is never dropped.
     */
    @Test
    void recordsMakeRoomUnconfirmedFirstThenStatelessLeastRecentlyRenewed() throws Exception {
        SessionLimits limits = THREE_PER_ADDRESS;
        java.net.InetAddress a = address(1);
        MutableClock clock = new MutableClock();
        try (StateHandler s = handler(limits, clock)) {
            ClientCallback callback = CALLBACK;
            long withState = confirmed40(s, callback, a);
            openSomething(s, withState, 1);
            long older = confirmed40(s, callback, a);
            clock.advance(Duration.ofSeconds(1));
            long newer = confirmed40(s, callback, a);
            clock.advance(Duration.ofSeconds(1));
            s.renewNfs40(withState); // renewed last: state keeps it anyway

            SetClientIdResult.Accepted first = (SetClientIdResult.Accepted) s.setClientId(owner(), callback, 0, a);
            assertThatThrownBy(() -> s.renewNfs40(older)).isInstanceOf(ExpiredException.class);
            clock.advance(Duration.ofSeconds(1));
            s.setClientId(owner(), callback, 0, a);
            // the unconfirmed record went, though the stateless confirmed one was renewed earlier
            assertThatThrownBy(() -> s.confirmClientId(first.clientId(), first.confirmVerifier(), 0))
                    .isInstanceOf(StaleClientIdException.class);
            assertThat(s.renewNfs40(newer).clientId()).isEqualTo(newer);
            assertThat(s.renewNfs40(withState).clientId()).isEqualTo(withState);
            assertThat(s.clientCount()).isEqualTo(3);
        }
    }

    private long confirmed40(StateHandler s, ClientCallback callback, java.net.InetAddress a) throws Exception {
        SetClientIdResult.Accepted r = (SetClientIdResult.Accepted) s.setClientId(owner(), callback, 0, a);
        s.confirmClientId(r.clientId(), r.confirmVerifier(), 0);
        return r.clientId();
    }

    /**
     * The byte budget of an address bounds the state its clients pile up: opens past it are
     * NFS4ERR_RESOURCE, another address is still served, and once the clients go every byte comes back.
     */
    @Test
    void opensPastTheAddressBudgetAreResourceAndOtherAddressesAreServedAndAllBytesComeBack() throws Exception {
        long perAddress = SessionLimits.MIN_CLIENT_MEMORY_PER_ADDRESS;
        SessionLimits limits = new SessionLimits(1024, 8, 64 * 1024, 1024 * 1024, 4096, 1024, 3, 4 * perAddress,
                perAddress);
        java.net.InetAddress a = address(1);
        java.net.InetAddress b = address(2);
        MutableClock clock = new MutableClock();
        try (StateHandler s = handler(limits, clock)) {
            ClientCallback callback = CALLBACK;
            long hog = confirmed40(s, callback, a);
            int opened = 0;
            ResourceException refused = null;
            while (refused == null && opened < 10_000) {
                try {
                    openSomething(s, hog, opened);
                    opened++;
                } catch (ResourceException e) {
                    refused = e;
                }
            }
            assertThat(refused).as("an open past the budget after %d", opened).isNotNull();
            // each open takes an owner and a state: about 2 KiB
            assertThat(opened).isBetween(25, 40);
            assertThat(s.clientMemoryBytes()).isLessThanOrEqualTo(perAddress);
            assertThatThrownBy(() -> s.setClientId(owner(), callback, 0, a)).isInstanceOf(ResourceException.class);

            long other = confirmed40(s, callback, b);
            openSomething(s, other, 1);

            clock.advance(NfsLimits.DEFAULTS.lease().plusSeconds(1));
            s.reapExpired();
            assertThat(s.clientCount()).isZero();
            assertThat(s.clientMemoryBytes()).isZero();
        }
    }

    /**
     * Byte-range locks are charged one by one: an NFSv4.1 client that splits its lock into ever more ranges is
     * refused with NFS4ERR_DELAY at its address's budget (NFSv4.1 has no NFS4ERR_RESOURCE), and unlocking
     * gives the bytes back.
     */
    @Test
    void byteRangeLocksPastTheAddressBudgetAreDelayAndUnlockingGivesTheBytesBack() throws Exception {
        long perAddress = SessionLimits.MIN_CLIENT_MEMORY_PER_ADDRESS;
        SessionLimits limits = new SessionLimits(1024, 8, 64 * 1024, 1024 * 1024, 4096, 1024, 3, 4 * perAddress,
                perAddress);
        java.net.InetAddress a = address(1);
        try (StateHandler s = handler(limits, CLOCK)) {
            ExchangeIdResult r = s.exchangeId(owner(), 0, ExchangeIdMode.CREATE, a);
            s.createSession(new CreateSessionRequest(r.client().clientId(), r.sequenceId(), 0, channel(8), channel(1),
                    0), 0, a);
            NfsClient c = s.client(r.client().clientId());
            org.tcnfs.nfs4.vfs.Inode file = org.tcnfs.nfs4.vfs.Inode.of(new byte[] {9});
            StateId open = s.opens().open(c, "o".getBytes(StandardCharsets.UTF_8), file, new ShareMode(3, 0),
                    OpenStateTable.NOTHING);
            long afterOpen = s.clientMemoryBytes();
            LockResult first = s.opens().lockNewOwner(c, open, "l".getBytes(StandardCharsets.UTF_8), file,
                    LockType.WRITE, new ByteRange(0, 0));
            StateId lock = ((LockResult.Granted) first).stateId();
            int ranges = 1;
            DelayException refused = null;
            while (refused == null && ranges < 10_000) {
                try {
                    // every other byte: no two ranges merge
                    lock = ((LockResult.Granted) s.opens().lockExistingOwner(c, lock, file, LockType.WRITE,
                            new ByteRange(2L * ranges, 2L * ranges))).stateId();
                    ranges++;
                } catch (DelayException e) {
                    refused = e;
                }
            }
            assertThat(refused).isNotNull();
            assertThat(ranges).isBetween(400, 700);
            assertThat(s.clientMemoryBytes()).isLessThanOrEqualTo(perAddress);

            StateId unlocked = s.opens().unlock(c, lock, file, new ByteRange(0, Long.MAX_VALUE - 1));
            assertThat(unlocked).isNotNull();
            assertThat(s.clientMemoryBytes()).isEqualTo(afterOpen + ClientState.stateCost(
                    new StateOwner(c.clientId(), "l".getBytes(StandardCharsets.UTF_8))));
        }
    }

    @Test
    void sessionsBeyondTheLimitAreNoSpcAndAClientLeftWithoutStateMakesRoom() throws Exception {
        NfsSession a = confirmedClient();
        confirmedClient();
        confirmedClient();
        ExchangeIdResult fourth = state.exchangeId(owner(), 0, ExchangeIdMode.CREATE);
        CreateSessionRequest request = new CreateSessionRequest(fourth.client().clientId(), fourth.sequenceId(), 0,
                channel(8), channel(1), 0);

        assertThatThrownBy(() -> state.createSession(request, 0)).isInstanceOf(NoSpcException.class);
        assertThat(state.sessionCount()).isEqualTo(3);

        state.destroySession(a.id());
        NfsSession fourthSession = state.createSession(request, 0);
        assertThat(fourthSession.foreChannel().maxRequests()).isPositive();
        // the first client holds nothing now (RFC 8881 2.4.3): it makes room for a new one
        state.exchangeId(owner(), 0, ExchangeIdMode.CREATE);
        assertThatThrownBy(() -> state.client(a.client().clientId())).isInstanceOf(StaleClientIdException.class);
        assertThat(state.clientCount()).isEqualTo(4);
    }

    @Test
    void reservationsOfDestroyedSessionsComeBack() throws Exception {
        NfsSession s = confirmedClient();
        assertThat(state.replyCacheReservedBytes()).isPositive();
        state.destroySession(s.id());
        assertThat(state.replyCacheReservedBytes()).isZero();
    }
}
