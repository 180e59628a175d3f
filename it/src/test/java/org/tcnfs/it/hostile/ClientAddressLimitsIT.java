package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.it.hostile.SessionAttacks.SMALL_HEAP;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_EXCHANGE_ID;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.AuthSys;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.it.ServerProcess;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4resok;

/**
 * Unauthenticated clients of one address cannot lock out the others (settings max-clients-per-address,
 * max-sessions-per-address): a client at 127.0.0.1 that creates confirmed clients (EXCHANGE_ID,
 * CREATE_SESSION) and floods unconfirmed ones gets NFS4ERR_DELAY past its share, while a client from
 * 127.0.0.2 still gets in. Without the per-address limit the first address fills max-clients and the second
 * is refused.
 */
class ClientAddressLimitsIT extends SessionAttackTest {
    private static final int MAX_CLIENTS = 16;
    private static final int PER_ADDRESS = 8;

    @Test
    void oneAddressFillingTheClientTableLeavesRoomForAClientOfAnotherAddress() throws IOException {
        server = ServerProcess.start(SMALL_HEAP, "--max-clients", Integer.toString(MAX_CLIENTS),
                "--max-clients-per-address", System.getProperty("tcnfs.it.clients.per.address",
                        Integer.toString(PER_ADDRESS)));
        NfsConnection attacker = connect();
        int confirmed = 0;
        List<NfsStatus> refusals = new ArrayList<>();
        for (int i = 0; i < MAX_CLIENTS + 4; i++) {
            CompoundResult ex = SessionAttacks.exchangeId(attacker, "hog");
            if (ex.status() != NfsStatus.OK) {
                refusals.add(ex.status());
                continue;
            }
            EXCHANGE_ID4resok ok = ex.body(OP_EXCHANGE_ID, EXCHANGE_ID4resok.class);
            CompoundResult cs = SessionAttacks.createSession(attacker, ok.eir_clientid, ok.eir_sequenceid, 1, 4096);
            if (cs.status() == NfsStatus.OK) {
                confirmed++;
            } else {
                refusals.add(cs.status());
            }
        }
        for (int i = 0; i < 200; i++) {
            SessionAttacks.exchangeId(attacker, "unconfirmed-flood"); // never confirmed
        }
        try (Relay relay = Relay.from(InetAddress.getByName("127.0.0.2"), server.address());
                NfsConnection other = NfsConnection.connect(relay.address(), AuthSys.ROOT, Duration.ofSeconds(30));
                Nfs41Session session = Nfs41Session.create(other, "other-address")) {
            assertThat(session.execute(new CompoundBuilder().putrootfh().getfh()).status()).isEqualTo(NfsStatus.OK);
        }
        System.out.printf("HOSTILE 127.0.0.1 got %d confirmed clients; refused: %s%n", confirmed, refusals);
        assertThat(confirmed).as("confirmed clients of 127.0.0.1").isLessThanOrEqualTo(PER_ADDRESS);
        assertThat(refusals).as("refusals of 127.0.0.1").isNotEmpty().containsOnly(NfsStatus.DELAY);
        assertThat(server.metric("tcnfs_client_records")).isLessThanOrEqualTo(MAX_CLIENTS);
    }

    /**
     * A TCP relay on 127.0.0.1 whose connections to the server start from {@code source}: the client library
     * cannot choose its local address, the kernel picks 127.0.0.1 for every loopback destination.
     */
    static final class Relay implements AutoCloseable {
        private final ServerSocket listener;
        private final List<Socket> sockets = new ArrayList<>();

        private Relay(ServerSocket listener) {
            this.listener = listener;
        }

        static Relay from(InetAddress source, InetSocketAddress target) throws IOException {
            ServerSocket listener = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
            Relay relay = new Relay(listener);
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        Socket in = listener.accept();
                        Socket out = new Socket();
                        out.bind(new InetSocketAddress(source, 0));
                        out.connect(target, 5000);
                        synchronized (relay.sockets) {
                            relay.sockets.add(in);
                            relay.sockets.add(out);
                        }
                        pump(in, out);
                        pump(out, in);
                    }
                } catch (IOException e) {
                    // closed
                }
            }, "relay-accept");
            acceptor.setDaemon(true);
            acceptor.start();
            return relay;
        }

        private static void pump(Socket from, Socket to) {
            Thread t = new Thread(() -> {
                byte[] buffer = new byte[65536];
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    for (int n; (n = in.read(buffer)) >= 0; ) {
                        out.write(buffer, 0, n);
                    }
                } catch (IOException e) {
                    // one side closed
                } finally {
                    Hostile.closeQuietly(to);
                }
            }, "relay-pump");
            t.setDaemon(true);
            t.start();
        }

        InetSocketAddress address() {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
        }

        @Override
        public void close() throws IOException {
            listener.close();
            synchronized (sockets) {
                sockets.forEach(Hostile::closeQuietly);
            }
        }
    }
}
