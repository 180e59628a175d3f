package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.Nfs41Session.SpanningTransaction;
import org.tcnfs.client.vector.Mode;
import org.tcnfs.client.vector.Parents;
import org.tcnfs.client.vector.VResult;
import org.tcnfs.client.vector.VWrite;
import org.tcnfs.client.vector.VnfsClient;
import org.tcnfs.it.ServerProcess;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.OPEN4args;

/**
 * The record budget (rpc-buffer-budget) stops reading a connection whose request would hold more than it;
 * the idle timeout (rpc-idle-timeout) closes connections whose partly received request does not move. A
 * connection the server itself stopped reading was counted as idle: when the requests in service took longer
 * than the idle timeout (eight 16 MiB transactions of bench.sh's bigtxn row on a loaded machine), the server
 * closed the clients it was holding back. It now waits for them while whole requests are in service. Here the
 * request in service waits (up to the 10 s lock timeout) for a file that an open transaction holds.
 */
class PausedConnectionIT {
    private ServerProcess server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static List<VWrite> files(String dir, int count, int size) {
        List<VWrite> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            items.add(VWrite.create(dir + "/f" + i, new byte[size]));
        }
        return items;
    }

    @Test
    void aClientHeldBackByTheRecordBudgetIsNotClosedAsIdleWhileOtherRequestsAreServed() throws Exception {
        // room for one 2 MiB request at a time
        server = ServerProcess.start("--max-request", "2MiB", "--rpc-buffer-budget", "2MiB",
                "--rpc-idle-timeout", "1s");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (VnfsClient setup = connect()) {
            assertThat(setup.vmkdir(List.of("a", "b"), Mode.PLAIN, Parents.CREATE).isOk()).isTrue();
        }
        try (Nfs41Session holder = Nfs41Session.create(server.connect(), "holder");
                VnfsClient a = connect(); VnfsClient b = connect()) {
            byte[] dirA = holder.execute(new CompoundBuilder().putrootfh().lookup("a").getfh()).orThrow().fileHandle();
            // a transaction that spans compounds holds a/held: a plain compound that writes it waits for the lock
            SpanningTransaction txn = holder.beginTransaction(0);
            assertThat(NfsStatus.of(txn.beginStatus())).isEqualTo(NfsStatus.OK);
            assertThat(txn.execute(new CompoundBuilder().putfh(dirA)
                    .openCreate(holder.clientId(), "holder".getBytes(StandardCharsets.UTF_8), "held",
                            OPEN4args.OPEN4_SHARE_ACCESS_BOTH, Attrs.builder().size(0).mode(0644).build())
                    .write(CompoundBuilder.currentStateid(), 0, new byte[] {1})
                    .close(CompoundBuilder.currentStateid())).status()).isEqualTo(NfsStatus.OK);

            List<VWrite> waiting = new ArrayList<>(List.of(VWrite.create("a/held", new byte[] {2})));
            waiting.addAll(files("a", 1200, 1200));
            Future<VResult<Void>> inService = pool.submit(() -> a.vwrite(waiting, Mode.PLAIN));
            Hostile.sleep(500);
            // this request does not fit the budget beside the one in service: its connection is not read
            Future<VResult<Void>> heldBack = pool.submit(() -> b.vwrite(files("b", 1200, 1200), Mode.PLAIN));
            Hostile.sleep(3000);
            assertThat(NfsStatus.of(txn.abort())).isEqualTo(NfsStatus.OK);

            VResult<Void> served = inService.get(2, TimeUnit.MINUTES);
            assertThat(served.isOk()).as("%s", served).isTrue();
            VResult<Void> later = heldBack.get(2, TimeUnit.MINUTES);
            assertThat(later.isOk()).as("%s", later).isTrue();
        } finally {
            pool.shutdownNow();
        }
        assertThat(server.output()).doesNotContain("then nothing for");
    }

    /**
     * A part of a record that fills the budget while its sender trickles a byte now and then (never idle), and
     * a client whose request then does not fit: that request is still read whole and served (one connection
     * at a time may finish its record past the budget). It was held back with nothing in service and closed as
     * idle; eight 16 MiB compounds arriving together against 64 MiB had the same fate, with no trickler needed.
     */
    @Test
    void aRequestIsReadWholeAndServedWhileThePartOfAnotherRecordFillsTheBudget() throws Exception {
        server = ServerProcess.start("--max-request", "2MiB", "--rpc-buffer-budget", "2MiB",
                "--rpc-idle-timeout", "1s");
        try (VnfsClient setup = connect()) {
            assertThat(setup.vmkdir(List.of("b"), Mode.PLAIN, Parents.CREATE).isOk()).isTrue();
        }
        ExecutorService pool = Executors.newFixedThreadPool(1);
        AtomicBoolean stop = new AtomicBoolean();
        try (Attacks.SlowRecords part = Attacks.SlowRecords.push(server, 1, (2 << 20) - 8192, 1900 << 10,
                Duration.ofSeconds(5)); VnfsClient b = connect()) {
            SocketChannel trickler = part.channels.get(0);
            Thread trickle = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        trickler.write(ByteBuffer.allocate(1));
                    } catch (IOException e) {
                        return;
                    }
                    Hostile.sleep(200);
                }
            });
            trickle.start();
            Future<VResult<Void>> call = pool.submit(() -> b.vwrite(files("b", 1, 400 << 10), Mode.PLAIN));
            VResult<Void> r = call.get(2, TimeUnit.MINUTES);
            assertThat(r.isOk()).as("%s", r).isTrue();
            stop.set(true);
            trickle.join();
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
    }

    private VnfsClient connect() throws IOException {
        return VnfsClient.builder().host(server.host()).port(server.port()).plainCompoundBytes(Integer.MAX_VALUE)
                .connect();
    }
}
