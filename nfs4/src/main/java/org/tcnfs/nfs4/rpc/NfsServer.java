package org.tcnfs.nfs4.rpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.dcache.oncrpc4j.rpc.OncRpcProgram;
import org.dcache.oncrpc4j.rpc.OncRpcSvc;
import org.dcache.oncrpc4j.rpc.OncRpcSvcBuilder;
import org.dcache.oncrpc4j.rpc.net.IpProtocolType;
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

/**
 * An NFSv4 server on TCP: the RPC service, the compound engine and the state, put together.
 *
 * <p><b>Memory.</b> Requests run on {@code workerThreads} threads; at most as many more wait in a queue.
 * When the queue is full, the thread that read the next request runs it itself, and reads nothing else
 * meanwhile, so clients that send faster than the server works are held back by TCP instead of piling up
 * requests in the heap: the requests held at once are bounded by the thread counts, whatever the number
 * of clients (each up to the negotiated request size).
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
    /** How long {@link #close()} waits for the requests being run. */
    private static final long DRAIN_SECONDS = 20;
    private final OncRpcSvc rpc;
    private final StateHandler state;
    private final ServerContext context;
    private final String bindAddress;
    private final ThreadPoolExecutor requests;

    private NfsServer(Builder b) {
        this.state = b.state != null ? b.state : new StateHandler(b.limits, b.clock);
        this.context = new ServerContext(b.fileSystems, state, b.limits, b.clock);
        OperationExecutor executor = OperationExecutor.of(b.operations);
        CompoundEngine engine = new CompoundEngine(executor, b.hooks, b.minorVersions);
        NfsRpcService service = new NfsRpcService(context, engine, b.transactions);
        this.bindAddress = b.bindAddress;
        this.requests = requestExecutor(b.workerThreads, b.port);
        this.rpc = new OncRpcSvcBuilder()
                .withTCP()
                .withoutAutoPublish()
                .withBindAddress(b.bindAddress)
                .withPort(b.port)
                .withWorkerThreadIoStrategy()
                .withWorkerThreadExecutionService(requests)
                .withServiceName("tcnfs-" + b.port)
                .withRpcService(new OncRpcProgram(NfsRpcService.NFS_PROGRAM, NfsRpcService.NFS_V4), service)
                .build();
    }

    /** {@code threads} request threads, as many queue slots, and the reading thread runs what does not fit. */
    private static ThreadPoolExecutor requestExecutor(int threads, int port) {
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "tcnfs-" + port + "-request-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        return new ThreadPoolExecutor(threads, threads, 0L, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(threads),
                factory, new ThreadPoolExecutor.CallerRunsPolicy());
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts listening. */
    public void start() throws IOException {
        rpc.start();
    }

    /** The TCP port the server listens on (the real one when 0 was asked for). */
    public int port() {
        InetSocketAddress a = rpc.getInetSocketAddress(IpProtocolType.TCP);
        return a.getPort();
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
            rpc.stop(5, TimeUnit.SECONDS);
        } finally {
            requests.shutdown();
            state.close();
        }
    }

    /** Settings of an {@link NfsServer}; only the file systems are required. */
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
        private StateHandler state;

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

        /** Uses an existing state handler (to keep grace and clients across a rebuild in tests). */
        public Builder state(StateHandler state) {
            this.state = state;
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
            if (workerThreads < 1) {
                throw new IllegalArgumentException("workerThreads must be positive");
            }
            return new NfsServer(this);
        }
    }
}
