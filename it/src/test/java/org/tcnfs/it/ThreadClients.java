package org.tcnfs.it;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.tcnfs.client.Nfs40Client;
import org.tcnfs.client.rpc.NfsConnection;

/**
 * The clients of a concurrency test: the test's own session ({@link #nfs()}), opened first, and a client per
 * thread ({@link #newClient}, {@link #newClient40}), each on a connection of its own. {@link #close()} closes
 * the threads' clients, the last opened first, then the test's own session.
 */
final class ThreadClients implements AutoCloseable {
    private final ServerProcess server;
    private final ItSession own;
    private final List<AutoCloseable> opened = new ArrayList<>();

    private ThreadClients(ServerProcess server, ItSession own) {
        this.server = server;
        this.own = own;
    }

    /** Opens the test's own session, whose client owner starts with {@code ownerPrefix}. */
    static ThreadClients open(ServerProcess server, String ownerPrefix) throws IOException {
        return new ThreadClients(server, ItSession.open(server, ownerPrefix));
    }

    /** Operations through the test's own session. */
    NfsOps nfs() {
        return own.nfs();
    }

    /** A new connection and NFSv4.1 session of their own, for a thread. */
    NfsOps newClient(String name) throws IOException {
        ItSession s = ItSession.open(server, name);
        opened.add(s);
        return s.nfs();
    }

    /** A new connection and confirmed NFSv4.0 client of their own, for a thread. */
    Nfs40Client newClient40(String name) throws IOException {
        NfsConnection connection = server.connect();
        opened.add(connection);
        return Nfs40Client.create(connection, name);
    }

    /**
     * Runs the tasks on threads of their own and waits for them, each at most the budget plus a minute; the
     * threads are interrupted when it returns or fails.
     */
    static void runAll(List<Callable<Void>> tasks, long budgetNanos) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            List<Future<Void>> futures = new ArrayList<>();
            for (Callable<Void> t : tasks) {
                futures.add(pool.submit(t));
            }
            for (Future<Void> f : futures) {
                f.get(budgetNanos / 1_000_000_000L + 60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Override
    public void close() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        opened.clear();
        own.close();
    }
}
