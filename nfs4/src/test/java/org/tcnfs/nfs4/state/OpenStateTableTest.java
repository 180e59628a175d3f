package org.tcnfs.nfs4.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.nfs4.status.NfsAssertions.assertStatus;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.compound.ServerContext;
import org.tcnfs.nfs4.state.OpenStateTable.IoMode;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;

/** Stateids (RFC 8881 8.2), share reservations and the threading of the open state table. */
class OpenStateTableTest {
    private static final Inode F = Inode.of(new byte[] {1});
    private static final Inode G = Inode.of(new byte[] {2});
    private static final ShareMode READ = new ShareMode(ShareMode.READ, 0);
    private static final ShareMode WRITE = new ShareMode(ShareMode.WRITE, 0);
    private static final ShareMode BOTH_DENY_WRITE = new ShareMode(3, ShareMode.WRITE);

    private final OpenStateTable table = new OpenStateTable(new StateIdGenerator(0x5eed, 1));
    private final NfsClient a = new NfsClient(1);
    private final NfsClient b = new NfsClient(2);
    private final StateHandler handler = new StateHandler(new NfsLimits(4096, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 16,
            Duration.ofSeconds(90), Duration.ZERO), Clock.systemUTC());
    private final ServerContext server = new ServerContext((c, h) -> new InMemoryFileSystem(), handler,
            handler.limits(), Clock.systemUTC());

    @AfterEach
    void stop() {
        handler.close();
    }

    private CompoundContext context(NfsClient client, int minorVersion) {
        CompoundContext c = CompoundContext.builder().server(server).minorVersion(minorVersion)
                .credential(Credential.ROOT).clientAddress(InetAddress.getLoopbackAddress())
                .connection(new Object()).build();
        c.setSession(client == null ? null : new NfsSession(client));
        return c;
    }

    private static byte[] owner(String name) {
        return name.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void generatedOthersAreUniqueCarryTheEpochAndAreNeverSpecial() {
        StateIdGenerator gen = StateIdGenerator.forBoot(Clock.systemUTC());
        Set<StateKey> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            byte[] other = gen.next();
            assertThat(new StateId(1, other).isSpecial()).isFalse();
            assertThat(seen.add(StateKey.of(other))).isTrue();
        }
        byte[] zeroEpoch = new StateIdGenerator(0, 1).next();
        assertThat(new StateId(0, zeroEpoch).isSpecial()).isFalse();
        assertThat(java.util.Arrays.copyOf(new StateIdGenerator(0x01020304, 7).next(), 4))
                .containsExactly(1, 2, 3, 4);
    }

    @Test
    void twoBootsInTheSameSecondStillIssueDifferentStateids() {
        Clock fixed = Clock.fixed(java.time.Instant.ofEpochSecond(1_700_000_000L), java.time.ZoneOffset.UTC);
        assertThat(StateIdGenerator.forBoot(fixed).next()).isNotEqualTo(StateIdGenerator.forBoot(fixed).next());
    }

    @Test
    void seqidZeroMeansCurrentOlderIsOldAndNewerIsBad() throws Exception {
        StateId first = table.open(a, owner("o"), F, READ, OpenStateTable.NOTHING);
        StateId second = table.open(a, owner("o"), F, WRITE, OpenStateTable.NOTHING);
        assertThat(second.sameState(first)).isTrue();
        assertThat(second.seqid()).isEqualTo(2);
        assertThat(table.test(a, second)).isEqualTo(NfsStatus.OK);
        assertThat(table.test(a, new StateId(0, second.other()))).isEqualTo(NfsStatus.OK);
        assertThat(table.test(a, first)).isEqualTo(NfsStatus.OLD_STATEID);
        assertThat(table.test(a, new StateId(3, second.other()))).isEqualTo(NfsStatus.BAD_STATEID);
        assertStatus(() -> table.downgrade(a, first, F, READ), NfsStatus.OLD_STATEID);
        assertThat(table.downgrade(a, new StateId(0, second.other()), F, READ).seqid()).isEqualTo(3);
    }

    @Test
    void stateidsOfAnotherClientOrFileOrUnknownOnesAreBad() throws Exception {
        StateId open = table.open(a, owner("o"), F, READ, OpenStateTable.NOTHING);
        assertThat(table.test(b, open)).isEqualTo(NfsStatus.BAD_STATEID);
        assertStatus(() -> table.close(b, open, F), NfsStatus.BAD_STATEID);
        assertStatus(() -> table.close(a, open, G), NfsStatus.BAD_STATEID);
        assertStatus(() -> table.close(a, StateId.ANONYMOUS, F), NfsStatus.BAD_STATEID);
        byte[] other = open.other();
        other[0] ^= 1;
        assertStatus(() -> table.close(a, new StateId(1, other), F), NfsStatus.BAD_STATEID);
        table.close(a, open, F);
        assertThat(table.test(a, open)).isEqualTo(NfsStatus.BAD_STATEID);
    }

    @Test
    void ioChecksResolveTheCurrentStateidAndRefuseOtherSpecialForms() throws Exception {
        CompoundContext ctx = context(a, 1);
        StateId open = table.open(a, owner("o"), F, WRITE, OpenStateTable.NOTHING);
        assertStatus(() -> table.checkIo(ctx, StateId.CURRENT, F, IoMode.WRITE), NfsStatus.BAD_STATEID);
        ctx.setCurrentStateId(open);
        table.checkIo(ctx, StateId.CURRENT, F, IoMode.WRITE);
        assertStatus(() -> table.checkIo(ctx, new StateId(5, new byte[12]), F, IoMode.READ), NfsStatus.BAD_STATEID);
        assertStatus(() -> table.checkIo(ctx, StateId.INVALID, F, IoMode.READ), NfsStatus.BAD_STATEID);
        assertStatus(() -> table.checkIo(ctx, open, G, IoMode.WRITE), NfsStatus.BAD_STATEID);
        // NFSv4.0 has no current-stateid marker
        CompoundContext v40 = context(a, 0);
        v40.setCurrentStateId(open);
        assertStatus(() -> table.checkIo(v40, StateId.CURRENT, F, IoMode.WRITE), NfsStatus.BAD_STATEID);
        assertStatus(() -> table.checkIo(context(b, 1), open, F, IoMode.WRITE), NfsStatus.BAD_STATEID);
    }

    @Test
    void ioThroughAnOpenNeedsWriteAccessForWritesOnly() throws Exception {
        CompoundContext ctx = context(a, 1);
        StateId read = table.open(a, owner("r"), F, READ, OpenStateTable.NOTHING);
        StateId write = table.open(a, owner("w"), G, WRITE, OpenStateTable.NOTHING);
        table.checkIo(ctx, read, F, IoMode.READ);
        assertStatus(() -> table.checkIo(ctx, read, F, IoMode.WRITE), NfsStatus.OPENMODE);
        table.checkIo(ctx, write, G, IoMode.WRITE);
        table.checkIo(ctx, write, G, IoMode.READ);
    }

    @Test
    void aLockStateidAllowsIoAsItsOpenDoes() throws Exception {
        CompoundContext ctx = context(a, 1);
        StateId open = table.open(a, owner("o"), F, READ, OpenStateTable.NOTHING);
        LockResult r = table.lockNewOwner(a, open, owner("l"), F, LockType.READ, new ByteRange(0, 9));
        StateId lock = ((LockResult.Granted) r).stateId();
        table.checkIo(ctx, lock, F, IoMode.READ);
        assertStatus(() -> table.checkIo(ctx, lock, F, IoMode.WRITE), NfsStatus.OPENMODE);
    }

    @Test
    void anonymousAndBypassIoRespectDenyModesOfOpens() throws Exception {
        CompoundContext ctx = context(null, 1);
        table.open(a, owner("o"), F, new ShareMode(ShareMode.READ, 3), OpenStateTable.NOTHING);
        assertStatus(() -> table.checkIo(ctx, StateId.ANONYMOUS, F, IoMode.READ), NfsStatus.LOCKED);
        assertStatus(() -> table.checkIo(ctx, StateId.ANONYMOUS, F, IoMode.WRITE), NfsStatus.LOCKED);
        assertStatus(() -> table.checkIo(ctx, StateId.READ_BYPASS, F, IoMode.WRITE), NfsStatus.LOCKED);
        table.checkIo(ctx, StateId.READ_BYPASS, F, IoMode.READ);
        table.checkIo(ctx, StateId.ANONYMOUS, G, IoMode.WRITE);
    }

    @Test
    void aFailingOpenActionRecordsNoOpen() throws Exception {
        assertThatThrownBy(() -> table.open(a, owner("o"), F, BOTH_DENY_WRITE, () -> {
            throw new org.tcnfs.nfs4.status.IoException("disk gone");
        })).isInstanceOf(org.tcnfs.nfs4.status.IoException.class);
        table.open(b, owner("o"), F, WRITE, OpenStateTable.NOTHING);
    }

    @Test
    void releasingAClientEndsItsStateAndLetsOthersIn() throws Exception {
        StateId open = table.open(a, owner("o"), F, BOTH_DENY_WRITE, OpenStateTable.NOTHING);
        LockResult r = table.lockNewOwner(a, open, owner("l"), F, LockType.WRITE, new ByteRange(0, ByteRange.MAX));
        StateId lock = ((LockResult.Granted) r).stateId();
        assertStatus(() -> table.open(b, owner("o"), F, WRITE, OpenStateTable.NOTHING), NfsStatus.SHARE_DENIED);

        table.releaseClient(a);
        table.releaseClient(a);

        assertThat(table.test(a, open)).isEqualTo(NfsStatus.BAD_STATEID);
        assertThat(table.test(a, lock)).isEqualTo(NfsStatus.BAD_STATEID);
        StateId openB = table.open(b, owner("o"), F, WRITE, OpenStateTable.NOTHING);
        assertThat(table.lockNewOwner(b, openB, owner("l"), F, LockType.WRITE, new ByteRange(0, 0)))
                .isInstanceOf(LockResult.Granted.class);
    }

    @Test
    void concurrentOpensNeverGrantTwoConflictingReservations() throws Exception {
        int threads = 8;
        AtomicInteger holders = new AtomicInteger();
        AtomicInteger maxHolders = new AtomicInteger();
        AtomicInteger granted = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                NfsClient client = new NfsClient(100 + t);
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 500; i++) {
                        StateId open;
                        try {
                            open = table.open(client, owner("o"), F, BOTH_DENY_WRITE, OpenStateTable.NOTHING);
                        } catch (NfsException e) {
                            assertThat(e.status()).isEqualTo(NfsStatus.SHARE_DENIED);
                            continue;
                        }
                        maxHolders.accumulateAndGet(holders.incrementAndGet(), Math::max);
                        granted.incrementAndGet();
                        LockResult r = table.lockNewOwner(client, open, owner("l"), F, LockType.WRITE,
                                new ByteRange(0, 9));
                        assertThat(r).isInstanceOf(LockResult.Granted.class);
                        holders.decrementAndGet();
                        if (i % 2 == 0) {
                            table.close(client, open, F);
                        } else {
                            table.releaseClient(client);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(maxHolders.get()).isEqualTo(1);
        assertThat(granted.get()).isPositive();
        StateId after = table.open(a, owner("o"), F, WRITE, OpenStateTable.NOTHING);
        assertThat(table.lockNewOwner(a, after, owner("l"), F, LockType.WRITE, new ByteRange(0, ByteRange.MAX)))
                .isInstanceOf(LockResult.Granted.class);
    }

    @Test
    void readRacingItsOwnCloseIsServedButWriteAndOtherFilesAreNot() throws Exception {
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong(1_000_000);
        Clock clock = new Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public java.time.Instant instant() {
                return java.time.Instant.ofEpochMilli(now.get());
            }
        };
        OpenStateTable t = new OpenStateTable(new StateIdGenerator(0x5eed, 1), clock);
        StateId open = t.open(a, owner("o"), F, new ShareMode(3, 0), OpenStateTable.NOTHING);
        t.close(a, open, F);

        t.checkIo(context(a, 1), open, F, IoMode.READ);
        assertStatus(() -> t.checkIo(context(a, 1), open, F, IoMode.WRITE), NfsStatus.BAD_STATEID);
        assertStatus(() -> t.checkIo(context(a, 1), open, G, IoMode.READ), NfsStatus.BAD_STATEID);
        now.addAndGet(RecentlyClosed.WINDOW.toMillis() + 1);
        assertStatus(() -> t.checkIo(context(a, 1), open, F, IoMode.READ), NfsStatus.BAD_STATEID);
    }

    @Test
    void lastCloseListenerHearsTheLastCloseAndTheReleaseOfAClient() throws Exception {
        List<Inode> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        table.onLastClose(heard::add);
        StateId mine = table.open(a, owner("o"), F, READ, OpenStateTable.NOTHING);
        StateId theirs = table.open(b, owner("o"), F, READ, OpenStateTable.NOTHING);
        table.open(b, owner("o"), G, READ, OpenStateTable.NOTHING);

        table.close(a, mine, F);
        assertThat(heard).as("F is still open by b").isEmpty();
        assertThat(table.hasOpenFiles()).isTrue();
        table.releaseClient(b);

        assertThat(heard).containsExactlyInAnyOrder(F, G);
        assertThat(table.hasOpenFiles()).isFalse();
        assertThat(theirs).isNotNull();
    }
}
