package org.tcnfs.nfs4.rpc;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.dcache.oncrpc4j.rpc.OncRpcProgram;
import org.dcache.oncrpc4j.rpc.ReplyQueue;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.filterchain.FilterChainBuilder;
import org.glassfish.grizzly.filterchain.TransportFilter;
import org.glassfish.grizzly.nio.transport.TCPNIOTransport;
import org.glassfish.grizzly.nio.transport.TCPNIOTransportBuilder;
import org.glassfish.grizzly.strategies.SameThreadIOStrategy;
import org.glassfish.grizzly.threadpool.ThreadPoolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.compound.CompoundEngine;
import org.tcnfs.nfs4.compound.CompoundHook;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.compound.OperationExecutor;
import org.tcnfs.nfs4.compound.ServerContext;
import org.tcnfs.nfs4.ops.Operations;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.vfs.FileSystemProvider;
import org.tcnfs.nfs4.xdr.COMPOUND4args;

/**
 * An NFSv4 server on TCP: the RPC service, the compound engine and the state, put together.
 *
 * <p>The network side is a Grizzly transport with tcnfs's own filters in front of oncrpc4j's call decoding,
 * so that nothing a client sends can take more than its bounded share:
 * <ul>
 *   <li><b>Records.</b> A record longer than the largest request a session may negotiate
 *       ({@link NfsLimits#maxRequestBytes()} plus {@value #RPC_HEADER_MARGIN} bytes) closes its connection
 *       when its marker arrives. The bytes of records held in memory, partly received or waiting to be
 *       answered, across all connections, have a budget ({@link Builder#recordBudget}); past it the
 *       connections that would hold more are not read. A partly received record that does not progress
 *       for {@link Builder#recordIdleTimeout} closes its connection.</li>
 *   <li><b>Connections</b> open at once are bounded ({@link Builder#maxConnections}, {@link ConnectionLimit}).</li>
 *   <li><b>Credentials</b> are checked by {@link RpcCredentialCheck} before they are decoded.</li>
 *   <li><b>Requests</b> run on {@code workerThreads} threads with as many queue slots; when both are full
 *       the connection a request came from is not read until a worker takes it. The network threads run only
 *       NULL calls, and short COMPOUNDs while no request is with the workers (so that they wait for no lock):
 *       read-only ones, and those that change but flush nothing where {@link Builder#inlineChanges} allows
 *       ({@link InlineCompounds}): a thread wake-up less per round trip ({@link #inlineCompounds()}).</li>
 *   <li><b>Replies</b> queued for a connection beyond {@value #REPLY_QUEUE_BYTES} bytes stop the reading of
 *       its further requests until they are written; replies not yet sent over all connections beyond
 *       {@link Builder#replyBudget} stop the taking of any connection's next request until they drain, and
 *       close connections whose replies do not move meanwhile ({@link ReplyBudget}).</li>
 * </ul>
 *
 * <p><b>What runs where, and why</b> (issue 16). The two network (selector) threads read every connection and run
 * the record, credential and call filters; they answer NULL calls and run short compounds while no request is with
 * the workers ({@link InlineCompounds}): ones that only read, and changes that flush nothing. Every other request
 * goes to a worker: long compounds, transactions, and short ones that flush before their reply (a change on a
 * {@code sync} export, COMMIT, a stable WRITE), as a flush of 0.3-1 ms on a network thread would stall the other
 * connections that thread reads. That hand-off costs one thread wake-up: measured without strace on one client's
 * one-file compounds on XFS (perf's scheduler and system-call events, docs/benchmarks.md, branch h-handoff), 10-13 us
 * (median) from the network thread's wake-up call to the worker on a core, about 1 % of such a compound (1.2-3.5 ms),
 * besides the 48-56 us of decoding and checks the network thread spends on it either way; only a loaded machine makes
 * the worker wait longer for a core (0.13-0.52 ms on average at load 13-20). So the selector is not handed to a spare
 * thread to run such compounds where they were read (a leader/follower scheme). Once on its worker, a compound syncs
 * its first file itself while the fsync pool of txn-core runs its other flushes, and takes back those no pool thread
 * has begun when its own has ended.
 *
 * <pre>{@code
 * NfsServer server = NfsServer.builder()
 *         .fileSystems(exports)
 *         .bind("127.0.0.1", 0)
 *         .build();
 * server.start();
 * int port = server.port();
 * }</pre>
 */
public final class NfsServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NfsServer.class);
    /** Bytes allowed in a record beyond the negotiable request size, for RPC headers, credential and verifier. */
    public static final int RPC_HEADER_MARGIN = 4096;
    /** Default of {@link Builder#recordBudget}. */
    public static final long DEFAULT_RECORD_BUDGET = 64L << 20;
    /** Default of {@link Builder#replyBudget}. */
    public static final long DEFAULT_REPLY_BUDGET = 64L << 20;
    /** Default of {@link Builder#recordIdleTimeout}. */
    public static final Duration DEFAULT_RECORD_IDLE_TIMEOUT = Duration.ofSeconds(60);
    /**
     * Bytes of replies queued for one connection past which no further request of it is read until they are
     * written (a client that does not read its replies is held back by TCP, not by the heap).
     */
    public static final int REPLY_QUEUE_BYTES = 2 << 20;
    /** Default of {@link Builder#maxConnections}. */
    public static final int DEFAULT_MAX_CONNECTIONS = 4096;
    private static final int BACKLOG = 4096;
    /** How long {@link #close()} waits for the requests being run. */
    private static final long DRAIN_SECONDS = 20;

    private final StateHandler state;
    private final ServerContext context;
    private final String bindAddress;
    private final int requestedPort;
    private final RequestScheduler requests;
    private final RecordBudget budget;
    private final RpcRecordFilter records;
    private final ReplyBudget replyBudget;
    private final ReplyQueue replies = new ReplyQueue();
    private final RpcCallFilter calls;
    private final ConnectionLimit connectionLimit;
    private final TCPNIOTransport transport;
    private final ScheduledExecutorService timer;
    private final Duration idleTimeout;
    private final NfsRpcService service;
    private volatile Connection<?> listener;

    private NfsServer(Builder b) {
        this.state = b.state != null ? b.state : new StateHandler(b.limits, b.clock);
        this.context = new ServerContext(b.fileSystems, state, b.limits, b.clock);
        OperationExecutor executor = OperationExecutor.of(b.operations);
        CompoundEngine engine = new CompoundEngine(executor, b.hooks, b.minorVersions);
        this.service = new NfsRpcService(context, engine, b.transactions, b.spanning);
        this.bindAddress = b.bindAddress;
        this.requestedPort = b.port;
        this.idleTimeout = b.recordIdleTimeout;
        String name = "tcnfs-" + b.port;
        this.requests = new RequestScheduler(b.workerThreads, name);
        this.budget = new RecordBudget(Math.max(b.recordBudget, b.limits.maxRequestBytes() + RPC_HEADER_MARGIN));
        this.records = new RpcRecordFilter(b.limits.maxRequestBytes() + RPC_HEADER_MARGIN, b.recordIdleTimeout,
                budget);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name + "-network-timer");
            t.setDaemon(true);
            return t;
        });
        this.replyBudget = new ReplyBudget(Math.max(b.replyBudget, REPLY_QUEUE_BYTES),
                Math.max(b.limits.maxRead(), 64 * 1024) + RPC_HEADER_MARGIN, b.recordIdleTimeout);
        this.calls = new RpcCallFilter(
                Map.of(new OncRpcProgram(NfsRpcService.NFS_PROGRAM, NfsRpcService.NFS_V4), service), requests,
                budget, records, replies, timer, replyBudget, b.inlineAllowed, b.inlineChanges);
        this.connectionLimit = new ConnectionLimit(b.maxConnections);
        ThreadPoolConfig selectors = ThreadPoolConfig.defaultConfig().copy()
                .setCorePoolSize(2).setMaxPoolSize(2).setPoolName(name);
        this.transport = TCPNIOTransportBuilder.newInstance()
                .setReuseAddress(true)
                .setIOStrategy(SameThreadIOStrategy.getInstance())
                .setSelectorThreadPoolConfig(selectors)
                .setSelectorRunnersCount(2)
                .setTcpNoDelay(true)
                .build();
        transport.getAsyncQueueIO().getWriter().setMaxPendingBytesPerConnection(REPLY_QUEUE_BYTES);
        transport.setProcessor(FilterChainBuilder.stateless()
                .add(new TransportFilter())
                .add(connectionLimit)
                .add(replyBudget)
                .add(records)
                .add(calls)
                .build());
        transport.getConnectionMonitoringConfig().addProbes(records.closeProbe(), replyBudget.probe(),
                connectionLimit.closeProbe());
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts listening. */
    public void start() throws IOException {
        listener = transport.bind(bindAddress, requestedPort, BACKLOG);
        transport.start();
        long sweep = Math.max(100, Math.min(1000, idleTimeout.toMillis() / 4));
        timer.scheduleWithFixedDelay(records::closeIdle, sweep, sweep, TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(replyBudget::closeStalled, sweep, sweep, TimeUnit.MILLISECONDS);
        // parked requests normally move on when a worker takes its next request; this catches the rest
        timer.scheduleWithFixedDelay(requests::drain, 10, 10, TimeUnit.MILLISECONDS);
    }

    /** The TCP port the server listens on (the real one when 0 was asked for). */
    public int port() {
        return ((InetSocketAddress) listener.getLocalAddress()).getPort();
    }

    /** Bytes of RPC records held in memory now: partly received, or whole and not yet answered. */
    public long bufferedRequestBytes() {
        return budget.held();
    }

    /** Connections not read now because {@link Builder#recordBudget} is used up. */
    public int pausedConnections() {
        return budget.pausedCount();
    }

    /** Bytes of replies written but not yet sent, over all connections (bounded by {@link Builder#replyBudget}). */
    public long unsentReplyBytes() {
        return replyBudget.unsent();
    }

    /** Requests held now, their connections not read, until the unsent replies drain below the reply budget. */
    public int requestsWaitingForReplies() {
        return replyBudget.waitingCount();
    }

    /** Connections closed because their unsent replies stalled while the reply budget was exceeded. */
    public long stalledReplyConnectionsClosed() {
        return replyBudget.stalledClosed();
    }

    /** TCP connections open now (at most {@link Builder#maxConnections}). */
    public int openConnections() {
        return connectionLimit.connections();
    }

    /** Connections closed so far because more than {@link Builder#maxConnections} were open. */
    public long connectionsClosedAtLimit() {
        return connectionLimit.closedAtLimit();
    }

    /** COMPOUNDs run so far on the network thread that read them, not handed to a worker. */
    public long inlineCompounds() {
        return calls.inlineCompounds();
    }

    /** NFSv4.0 calls answered again from the duplicate request cache ({@link ReplyCache}) so far. */
    public long replayedCalls() {
        return service.replayedCalls();
    }

    /** Of {@link #inlineCompounds()}, those that changed something ({@link Builder#inlineChanges}). */
    public long inlineChanges() {
        return calls.inlineChanges();
    }

    /** Requests waiting now for a worker, their connections not read meanwhile. */
    public int parkedRequests() {
        return requests.parkedCount();
    }

    public String bindAddress() {
        return bindAddress;
    }

    /** The server's state (clients, sessions, opens, locks). */
    public StateHandler state() {
        return state;
    }

    public ServerContext context() {
        return context;
    }

    /**
     * Lets the requests being run finish and send their replies (at most 20 s), then stops listening and
     * closes the connections.
     */
    @Override
    public void close() throws IOException {
        // the requests being run finish first, their replies sent, before the connections close; requests
        // that arrive meanwhile are dropped (the client retries on its next connection)
        requests.shutdown();
        try {
            if (!requests.awaitTermination(DRAIN_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("requests still running after {}s; closing the connections anyway", DRAIN_SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            transport.shutdown(5, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            transport.shutdownNow();
        } finally {
            timer.shutdownNow();
            requests.shutdown();
            replies.shutdown();
            state.close();
        }
    }

    /** Settings of an {@link NfsServer}; only the file systems are required. */
    /**
     * Whether a short plain compound that changes something may run on the network thread now
     * ({@link InlineCompounds.Kind#CHANGES}): true only if, run now for {@code client}, it would flush nothing and
     * commit nothing durably before its reply (its exports {@code async} and plain for the client, room for its
     * rows), and wait for no lock. Asked on a network thread: it must answer from memory, at once.
     */
    @FunctionalInterface
    public interface InlineChanges {
        boolean allow(COMPOUND4args args, InetAddress client);
    }

    public static final class Builder {
        private FileSystemProvider fileSystems;
        private NfsLimits limits = NfsLimits.DEFAULTS;
        private Clock clock = Clock.systemUTC();
        private String bindAddress = "127.0.0.1";
        private int port = 2049;
        private int workerThreads = Math.max(4, Runtime.getRuntime().availableProcessors() * 2);
        private final List<CompoundHook> hooks = new ArrayList<>();
        private Set<Integer> minorVersions = Set.of(1);
        private Map<Integer, NfsOperation> operations = Operations.all();
        private NfsRpcService.TransactionSupport transactions = () -> false;
        private SpanningTransactions spanning;
        private StateHandler state;
        private long recordBudget = DEFAULT_RECORD_BUDGET;
        private long replyBudget = DEFAULT_REPLY_BUDGET;
        private Duration recordIdleTimeout = DEFAULT_RECORD_IDLE_TIMEOUT;
        private BooleanSupplier inlineAllowed = () -> true;
        private InlineChanges inlineChanges = (args, client) -> false;
        private int maxConnections = DEFAULT_MAX_CONNECTIONS;

        private Builder() {
        }

        public Builder fileSystems(FileSystemProvider fileSystems) {
            this.fileSystems = fileSystems;
            return this;
        }

        public Builder limits(NfsLimits limits) {
            this.limits = limits;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /** Address and TCP port to listen on; port 0 picks a free one. */
        public Builder bind(String address, int port) {
            this.bindAddress = address;
            this.port = port;
            return this;
        }

        public Builder workerThreads(int workerThreads) {
            this.workerThreads = workerThreads;
            return this;
        }

        /** Adds a hook around every compound. */
        public Builder hook(CompoundHook hook) {
            this.hooks.add(Objects.requireNonNull(hook));
            return this;
        }

        public Builder minorVersions(Set<Integer> minorVersions) {
            this.minorVersions = Set.copyOf(minorVersions);
            return this;
        }

        /** Replaces the operation table (tests, or a layer that wraps operations). */
        public Builder operations(Map<Integer, NfsOperation> operations) {
            this.operations = Map.copyOf(operations);
            return this;
        }

        public Builder transactions(NfsRpcService.TransactionSupport transactions) {
            this.transactions = transactions;
            return this;
        }

        /** Serves transactions that span compounds (TXN_BEGIN, ...); without, they are PROC_UNAVAIL. */
        public Builder spanningTransactions(SpanningTransactions spanning) {
            this.spanning = spanning;
            return this;
        }

        /** Uses an existing state handler (to keep grace and clients across a rebuild in tests). */
        public Builder state(StateHandler state) {
            this.state = state;
            return this;
        }

        /**
         * When a short compound (read-only, or a change {@link #inlineChanges} allows) may run on the network thread
         * that read it ({@link InlineCompounds}),
         * besides no request being with the workers: the hooks' answer to "would it wait for no other compound
         * now" (the transaction hook: no lock held or wanted, no compound released early still flushing). Such a
         * compound must never wait on the network thread for a transaction that spans compounds, holding its
         * locks between them while the workers are idle. Default: always (no hook takes locks).
         */
        public Builder inlineAllowed(BooleanSupplier allowed) {
            this.inlineAllowed = Objects.requireNonNull(allowed, "allowed");
            return this;
        }

        /**
         * Which short compounds that change something ({@link InlineCompounds.Kind#CHANGES}) may run on the network
         * thread, besides {@link #inlineAllowed} and no request being with the workers: those that flush nothing
         * and commit nothing durably before their reply (see {@link InlineChanges}). Default: none.
         */
        public Builder inlineChanges(InlineChanges guard) {
            this.inlineChanges = Objects.requireNonNull(guard, "guard");
            return this;
        }

        /**
         * Most bytes of RPC records held in memory at once, over all connections (records still arriving and
         * requests not yet answered); past it, connections that would hold more are not read. Raised to one
         * largest request if smaller.
         */
        public Builder recordBudget(long bytes) {
            this.recordBudget = bytes;
            return this;
        }

        /**
         * Most bytes of replies written but not yet sent, over all connections; past it no connection's next
         * request is taken until they drain, and connections whose replies do not move for the record idle
         * timeout meanwhile are closed. Raised to {@link #REPLY_QUEUE_BYTES} if smaller.
         */
        public Builder replyBudget(long bytes) {
            this.replyBudget = bytes;
            return this;
        }

        /** How long a partly received record may stay without a new byte before its connection is closed. */
        public Builder recordIdleTimeout(Duration timeout) {
            this.recordIdleTimeout = Objects.requireNonNull(timeout);
            return this;
        }

        /**
         * Most TCP connections open at once; past it the connection quiet longest of the addresses holding the most
         * is closed ({@link ConnectionLimit}).
         */
        public Builder maxConnections(int maxConnections) {
            this.maxConnections = maxConnections;
            return this;
        }

        public NfsServer build() {
            Objects.requireNonNull(fileSystems, "fileSystems");
            Objects.requireNonNull(limits, "limits");
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(bindAddress, "bindAddress");
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port out of range: " + port);
            }
            if (maxConnections < 1) {
                throw new IllegalArgumentException("maxConnections must be positive");
            }
            if (workerThreads < 1) {
                throw new IllegalArgumentException("workerThreads must be positive");
            }
            if (recordBudget < 1 || replyBudget < 1 || recordIdleTimeout.isNegative() || recordIdleTimeout.isZero()) {
                throw new IllegalArgumentException("record budget and idle timeout must be positive");
            }
            return new NfsServer(this);
        }
    }
}
