package org.tcnfs.nfs4.export;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which clients an export rule applies to, written as in {@code /etc/exports}: {@code *} (everyone), an IP
 * address ({@code 192.0.2.7}, {@code 2001:db8::7}), a network in CIDR form ({@code 10.0.0.0/8},
 * {@code 2001:db8::/32}) or with a dotted IPv4 mask ({@code 10.0.0.0/255.0.0.0}), or a host name.
 *
 * <p>A host name matches the addresses it resolves to at the time of the request (the JVM caches name
 * lookups); a name that does not resolve matches nothing. Wildcard names ({@code *.example.com}) and
 * netgroups ({@code @group}) are refused. IPv4-mapped IPv6 client addresses match IPv4 rules.
 *
 * <p>Immutable and thread-safe; equality is by the normalized specification.
 */
public final class ClientMatcher {
    private static final Logger LOG = LoggerFactory.getLogger(ClientMatcher.class);
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*\\.?");
    private static final ClientMatcher ANY = new ClientMatcher("*", address -> true);

    private final String spec;
    private final Predicate<InetAddress> test;

    private ClientMatcher(String spec, Predicate<InetAddress> test) {
        this.spec = spec;
        this.test = test;
    }

    /** Matches every client ({@code *}). */
    public static ClientMatcher any() {
        return ANY;
    }

    /**
     * Parses a client specification.
     *
     * @throws IllegalArgumentException with a message naming the problem, for anything else
     */
    public static ClientMatcher parse(String spec) {
        Objects.requireNonNull(spec, "spec");
        String s = spec.trim();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty client specification");
        }
        if (s.equals("*")) {
            return ANY;
        }
        if (s.startsWith("@")) {
            throw new IllegalArgumentException("netgroups are not supported: " + s);
        }
        if (s.contains("*") || s.contains("?") || (s.contains("[") && !s.startsWith("["))) {
            throw new IllegalArgumentException("wildcard host names are not supported (use a network such as "
                    + "10.0.0.0/8): " + s);
        }
        int slash = s.indexOf('/');
        if (slash >= 0) {
            return network(s, s.substring(0, slash), s.substring(slash + 1));
        }
        byte[] literal = parseLiteral(s);
        if (literal != null) {
            InetAddress address = toAddress(literal, s);
            return new ClientMatcher(address.getHostAddress(), client -> Arrays.equals(normalize(client), literal));
        }
        if (!HOST.matcher(s).matches() || s.length() > 253) {
            throw new IllegalArgumentException("not a host name, address or network: " + s);
        }
        String name = s.toLowerCase(Locale.ROOT);
        return new ClientMatcher(name, client -> hostMatches(name, client));
    }

    /** Whether the rule applies to a client at {@code client}. */
    public boolean matches(InetAddress client) {
        return test.test(Objects.requireNonNull(client, "client"));
    }

    /** The normalized specification ({@code *}, an address, {@code address/bits} or a host name). */
    public String spec() {
        return spec;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClientMatcher other && other.spec.equals(spec);
    }

    @Override
    public int hashCode() {
        return spec.hashCode();
    }

    @Override
    public String toString() {
        return spec;
    }

    private static ClientMatcher network(String spec, String addressPart, String maskPart) {
        byte[] base = parseLiteral(addressPart);
        if (base == null) {
            throw new IllegalArgumentException("network address is not an IP address: " + spec);
        }
        int bits;
        if (maskPart.matches("\\d{1,3}")) {
            bits = Integer.parseInt(maskPart);
        } else if (base.length == 4 && IPV4.matcher(maskPart).matches()) {
            bits = maskBits(parseIpv4(maskPart, spec), spec);
        } else {
            throw new IllegalArgumentException("bad network mask in " + spec);
        }
        if (bits < 0 || bits > base.length * 8) {
            throw new IllegalArgumentException("prefix length " + bits + " out of range in " + spec);
        }
        byte[] prefix = mask(base, bits);
        String normalized = toAddress(prefix, spec).getHostAddress() + "/" + bits;
        return new ClientMatcher(normalized, client -> {
            byte[] candidate = normalize(client);
            return candidate.length == prefix.length && Arrays.equals(mask(candidate, bits), prefix);
        });
    }

    private static byte[] mask(byte[] address, int bits) {
        byte[] out = address.clone();
        for (int i = 0; i < out.length; i++) {
            int keep = Math.max(0, Math.min(8, bits - 8 * i));
            out[i] &= (byte) (0xff << (8 - keep));
        }
        return out;
    }

    private static int maskBits(byte[] mask, String spec) {
        int bits = 0;
        boolean ended = false;
        for (byte b : mask) {
            for (int i = 7; i >= 0; i--) {
                boolean set = ((b >> i) & 1) != 0;
                if (set && ended) {
                    throw new IllegalArgumentException("network mask is not contiguous in " + spec);
                }
                if (set) {
                    bits++;
                } else {
                    ended = true;
                }
            }
        }
        return bits;
    }

    /** The address bytes of an IPv4 or IPv6 literal (IPv4-mapped IPv6 as 4 bytes), or null if not a literal. */
    private static byte[] parseLiteral(String s) {
        if (IPV4.matcher(s).matches()) {
            return parseIpv4(s, s);
        }
        if (s.contains(":")) {
            String literal = s.startsWith("[") && s.endsWith("]") ? s.substring(1, s.length() - 1) : s;
            if (!literal.matches("[0-9A-Fa-f:.]+")) {
                throw new IllegalArgumentException("not an IPv6 address: " + s);
            }
            try {
                // A string with ':' and only hex digits, ':' and '.' is parsed as a literal, never looked up.
                return normalize(InetAddress.getByName(literal));
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("not an IPv6 address: " + s, e);
            }
        }
        return null;
    }

    private static byte[] parseIpv4(String s, String spec) {
        String[] parts = s.split("\\.");
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            int v = Integer.parseInt(parts[i]);
            if (v > 255) {
                throw new IllegalArgumentException("not an IPv4 address: " + spec);
            }
            out[i] = (byte) v;
        }
        return out;
    }

    private static InetAddress toAddress(byte[] bytes, String spec) {
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an address: " + spec, e);
        }
    }

    /** The address bytes, IPv4-mapped IPv6 addresses reduced to their 4 IPv4 bytes. */
    static byte[] normalize(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (bytes.length == 16 && !(address instanceof Inet4Address)) {
            boolean mapped = bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
            for (int i = 0; i < 10 && mapped; i++) {
                mapped = bytes[i] == 0;
            }
            if (mapped) {
                return Arrays.copyOfRange(bytes, 12, 16);
            }
        }
        return bytes;
    }

    private static boolean hostMatches(String name, InetAddress client) {
        byte[] candidate = normalize(client);
        try {
            for (InetAddress a : InetAddress.getAllByName(name)) {
                if (Arrays.equals(normalize(a), candidate)) {
                    return true;
                }
            }
        } catch (UnknownHostException e) {
            LOG.debug("export client {} does not resolve: {}", name, e.getMessage());
        }
        return false;
    }
}
