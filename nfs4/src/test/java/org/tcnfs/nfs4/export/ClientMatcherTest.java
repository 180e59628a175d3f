package org.tcnfs.nfs4.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

class ClientMatcherTest {

    private static InetAddress ip(String literal) throws UnknownHostException {
        return InetAddress.getByName(literal);
    }

    /** An IPv4-mapped IPv6 address as an Inet6Address (getByName would turn it into an Inet4Address). */
    private static InetAddress mapped(int a, int b, int c, int d) throws UnknownHostException {
        byte[] bytes = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, (byte) a, (byte) b, (byte) c,
            (byte) d};
        return java.net.Inet6Address.getByAddress(null, bytes, -1);
    }

    @Test
    void starMatchesEveryone() throws Exception {
        ClientMatcher any = ClientMatcher.parse("*");
        assertThat(any.matches(ip("192.0.2.1"))).isTrue();
        assertThat(any.matches(ip("2001:db8::1"))).isTrue();
        assertThat(any).isEqualTo(ClientMatcher.any());
    }

    @Test
    void ipv4AddressMatchesOnlyItself() throws Exception {
        ClientMatcher one = ClientMatcher.parse("192.0.2.7");
        assertThat(one.matches(ip("192.0.2.7"))).isTrue();
        assertThat(one.matches(ip("192.0.2.8"))).isFalse();
        assertThat(one.matches(mapped(192, 0, 2, 7))).isTrue();
        assertThat(one.matches(ip("2001:db8::7"))).isFalse();
    }

    @Test
    void ipv4CidrMatchesItsNetworkOnly() throws Exception {
        ClientMatcher net = ClientMatcher.parse("10.1.0.0/16");
        assertThat(net.matches(ip("10.1.255.3"))).isTrue();
        assertThat(net.matches(ip("10.2.0.1"))).isFalse();
        assertThat(net.matches(mapped(10, 1, 2, 3))).isTrue();
        assertThat(net.matches(ip("::1"))).isFalse();
        assertThat(net.spec()).isEqualTo("10.1.0.0/16");
    }

    @Test
    void cidrHostBitsAreMaskedAndOddPrefixesWork() throws Exception {
        ClientMatcher net = ClientMatcher.parse("192.168.1.77/26");
        assertThat(net.spec()).isEqualTo("192.168.1.64/26");
        assertThat(net.matches(ip("192.168.1.64"))).isTrue();
        assertThat(net.matches(ip("192.168.1.127"))).isTrue();
        assertThat(net.matches(ip("192.168.1.128"))).isFalse();
        assertThat(net.matches(ip("192.168.1.63"))).isFalse();
    }

    @Test
    void dottedMaskEqualsPrefixLength() throws Exception {
        assertThat(ClientMatcher.parse("10.0.0.0/255.0.0.0")).isEqualTo(ClientMatcher.parse("10.0.0.0/8"));
        assertThatThrownBy(() -> ClientMatcher.parse("10.0.0.0/255.0.255.0"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("contiguous");
    }

    @Test
    void zeroPrefixMatchesTheWholeFamily() throws Exception {
        ClientMatcher all4 = ClientMatcher.parse("0.0.0.0/0");
        assertThat(all4.matches(ip("203.0.113.9"))).isTrue();
        assertThat(all4.matches(ip("2001:db8::1"))).isFalse();
    }

    @Test
    void ipv6CidrMatchesItsNetworkOnly() throws Exception {
        ClientMatcher net = ClientMatcher.parse("2001:db8:abcd::/48");
        assertThat(net.matches(ip("2001:db8:abcd:12::1"))).isTrue();
        assertThat(net.matches(ip("2001:db8:abce::1"))).isFalse();
        assertThat(net.matches(ip("10.0.0.1"))).isFalse();
        ClientMatcher odd = ClientMatcher.parse("fe80::/10");
        assertThat(odd.matches(ip("febf::1"))).isTrue();
        assertThat(odd.matches(ip("fec0::1"))).isFalse();
    }

    @Test
    void ipv6AddressMatchesOnlyItselfInAnySpelling() throws Exception {
        ClientMatcher one = ClientMatcher.parse("[2001:DB8:0:0::7]");
        assertThat(one.matches(ip("2001:db8::7"))).isTrue();
        assertThat(one.matches(ip("2001:db8::8"))).isFalse();
    }

    @Test
    void hostNameMatchesTheAddressesItResolvesTo() throws Exception {
        ClientMatcher localhost = ClientMatcher.parse("localhost");
        assertThat(localhost.matches(ip("127.0.0.1"))).isTrue();
        assertThat(localhost.matches(ip("192.0.2.1"))).isFalse();
    }

    @Test
    void unresolvableHostNameMatchesNothing() throws Exception {
        ClientMatcher nowhere = ClientMatcher.parse("no-such-host.invalid");
        assertThat(nowhere.matches(ip("127.0.0.1"))).isFalse();
    }

    @Test
    void badSpecificationsAreRefusedWithTheReason() {
        assertThatThrownBy(() -> ClientMatcher.parse("10.0.0.0/33")).hasMessageContaining("out of range");
        assertThatThrownBy(() -> ClientMatcher.parse("::/129")).hasMessageContaining("out of range");
        assertThatThrownBy(() -> ClientMatcher.parse("300.1.1.1")).hasMessageContaining("not an IPv4");
        assertThatThrownBy(() -> ClientMatcher.parse("*.example.com")).hasMessageContaining("wildcard");
        assertThatThrownBy(() -> ClientMatcher.parse("@trusted")).hasMessageContaining("netgroup");
        assertThatThrownBy(() -> ClientMatcher.parse("host name")).hasMessageContaining("not a host name");
        assertThatThrownBy(() -> ClientMatcher.parse("gg::1")).hasMessageContaining("IPv6");
        assertThatThrownBy(() -> ClientMatcher.parse("example.com/8")).hasMessageContaining("not an IP");
        assertThatThrownBy(() -> ClientMatcher.parse("")).hasMessageContaining("empty");
    }
}
