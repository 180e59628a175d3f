package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.it.hostile.SessionAttacks.SMALL_HEAP;
import static org.tcnfs.it.hostile.SessionAttacks.mib;

import java.io.IOException;
import java.net.InetAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.Nfs40Client;
import org.tcnfs.client.rpc.AuthSys;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.it.ServerProcess;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.OPEN4args;

/**
 * Client state is bounded by memory, not by the number of client records (settings client-memory,
 * client-memory-per-address): one address (a NAT gateway, a test suite such as pynfs) may hold thousands of
 * clients with a little state each, and an address that piles up state is refused once its estimated bytes
 * reach its budget, with NFS4ERR_RESOURCE for NFSv4.0 OPEN and SETCLIENTID (RFC 7530 16.16.5, 16.33.5) and
 * NFS4ERR_DELAY for EXCHANGE_ID (RFC 8881 allows it no other), while clients of other addresses are served.
 * The server runs with a 256 MiB heap that exits on OutOfMemoryError; each test prints the heap it measured.
 */
class ClientMemoryBudgetIT extends SessionAttackTest {
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * pynfs's NFSv4.0 suite makes more than 1,024 clients with state from 127.0.0.1 within one lease; the
     * count limit of 256 per address (and of 1,024 in all) refused SETCLIENTID with NFS4ERR_RESOURCE.
     */
    @Test
    void twoThousandNfs40ClientsWithAnOpenFileEachFromOneAddressAreAccepted() throws IOException {
        server = ServerProcess.start(SMALL_HEAP);
        NfsConnection c = connect();
        Nfs40Client first = Nfs40Client.create(c, "many");
        byte[] root = first.execute(new CompoundBuilder().putrootfh().getfh()).orThrow().fileHandle();
        long heapBefore = SessionAttacks.heapAfterGc(server);
        int clients = 2000;
        List<Nfs40Client> all = new ArrayList<>();
        all.add(first);
        first.openCreate(root, "many-0");
        for (int i = 1; i < clients; i++) {
            Nfs40Client client = Nfs40Client.create(c, "many");
            client.openCreate(root, "many-" + i);
            all.add(client);
        }
        long heapAfter = SessionAttacks.heapAfterGc(server);
        double charged = server.metric("tcnfs_client_memory_bytes");
        System.out.printf("[client memory] %d NFSv4.0 clients with an open each from one address: %.0f records, "
                + "charged %s (%.0f bytes a client), heap %s -> %s (%d bytes a client)%n", clients,
                server.metric("tcnfs_client_records"), mib((long) charged), charged / clients, mib(heapBefore),
                mib(heapAfter), (heapAfter - heapBefore) / clients);
        assertThat(server.metric("tcnfs_client_records")).isEqualTo(clients);
        assertThat(all.get(0).renew().status()).isEqualTo(NfsStatus.OK);
        assertThat(all.get(clients - 1).renew().status()).isEqualTo(NfsStatus.OK);
        // the charge is an upper estimate of the heap the clients take
        assertThat((double) (heapAfter - heapBefore)).isLessThan(charged);
    }

    /**
     * The worst case one address can make: NFSv4.0 clients whose every OPEN brings a new open owner of 1 KiB
     * (an owner with its last reply and an open state each), until refused. It is refused at its byte budget;
     * a client of another address still opens a file; the heap grows by less than the budget.
     */
    @Test
    void anAddressPilingUpStateIsRefusedAtItsByteBudgetAndAnotherAddressIsServed() throws IOException {
        long perAddress = 4L * SessionAttacks.MIB;
        // the property lets the same attack run against a build without these settings, for comparison
        server = ServerProcess.start(SMALL_HEAP, System.getProperty("tcnfs.it.client.memory.args",
                "--client-memory-per-address 4MiB --client-memory 16MiB").split(" "));
        SessionAttacks.exportFile(server, "opened", 16);
        NfsConnection c = connect();
        long heapBefore = SessionAttacks.heapAfterGc(server);
        byte[] owner = new byte[1024];
        int opened = 0;
        int clients = 0;
        List<NfsStatus> refusals = new ArrayList<>();
        // New clients until one is refused or cannot open anything, at most 20,000 opens: the old count limits
        // (256 clients of 4,096 owners each) let this go on until the heap ran out.
        boolean spent = false;
        while (opened < 20_000 && !spent) {
            Nfs40Client client;
            try {
                client = Nfs40Client.create(c, "hog");
            } catch (org.tcnfs.nfs4.status.NfsException e) {
                refusals.add(e.status());
                break;
            }
            clients++;
            byte[] root = client.execute(new CompoundBuilder().putrootfh().getfh()).orThrow().fileHandle();
            int mine = 0;
            while (opened < 20_000) {
                RANDOM.nextBytes(owner);
                NfsStatus s = client.execute(new CompoundBuilder().putfh(root).openNfs40(0, client.clientId(), owner,
                        "opened", OPEN4args.OPEN4_SHARE_ACCESS_READ, null)).status();
                if (s != NfsStatus.OK) {
                    refusals.add(s);
                    spent = mine == 0;
                    break;
                }
                opened++;
                mine++;
            }
        }
        long heapAfter = SessionAttacks.heapAfterGc(server);
        // -1 for a build without the gauge
        double charged = ServerProcess.metric(server.scrapeMetrics(), "tcnfs_client_memory_bytes").orElse(-1);
        System.out.printf("[client memory] worst case from one address: %d clients, %d opens of 1 KiB owners; "
                + "refusals %s; charged %s, heap %s -> %s (+%s)%n", clients, opened, refusals, mib((long) charged),
                mib(heapBefore), mib(heapAfter), mib(heapAfter - heapBefore));
        assertThat(refusals).isNotEmpty().containsOnly(NfsStatus.RESOURCE);
        assertThat(opened).isLessThan(20_000);
        assertThat(charged).isBetween(0.0, (double) perAddress);
        assertThat(heapAfter - heapBefore).isLessThan(perAddress);
        assertThat(server.output()).contains("client state of /127.0.0.1 at its budget")
                .contains("setting client-memory-per-address");

        try (ClientAddressLimitsIT.Relay relay = ClientAddressLimitsIT.Relay.from(InetAddress.getByName("127.0.0.2"),
                server.address());
                NfsConnection other = NfsConnection.connect(relay.address(), AuthSys.ROOT, Duration.ofSeconds(30))) {
            Nfs40Client client = Nfs40Client.create(other, "other-address");
            byte[] root = client.execute(new CompoundBuilder().putrootfh().getfh()).orThrow().fileHandle();
            Nfs40Client.Opened f = client.openCreate(root, "from-another-address");
            assertThat(client.close(f).status()).isEqualTo(NfsStatus.OK);
        }
    }
}
