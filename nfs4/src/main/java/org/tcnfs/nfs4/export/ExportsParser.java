package org.tcnfs.nfs4.export;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.tcnfs.nfs4.export.ExportOptions.Access;
import org.tcnfs.nfs4.export.ExportOptions.SecurityFlavor;
import org.tcnfs.nfs4.export.ExportOptions.Squash;
import org.tcnfs.nfs4.export.ExportOptions.TxnPolicy;

/**
 * Reads the {@code /etc/exports} format of {@code exports(5)}.
 *
 * <pre>
 * # comment
 * /srv/data   10.0.0.0/8(rw,no_root_squash) 2001:db8::/32(rw) *(ro)
 * /srv/pub    -ro,all_squash  host1 host2(anonuid=1000,anongid=1000) \
 *             192.0.2.7(rw)
 * "/srv/with space"   *(rw)
 * /srv/open
 * </pre>
 *
 * <p>Each line is a local path (quoted if it has spaces; {@code \040}-style octal escapes allowed)
 * followed by clients, each with an optional option list in parentheses and no space before it. A
 * {@code -options} item sets the defaults for the clients after it on that line. A line without clients
 * exports to everyone ({@code *}) with the defaults, and a bare {@code (options)} item means {@code *}.
 * {@code #} starts a comment, a trailing {@code \} continues the line.
 *
 * <p>Options: {@code rw}, {@code ro} (the default), {@code root_squash} (the default),
 * {@code no_root_squash}, {@code all_squash}, {@code no_all_squash}, {@code anonuid=N}, {@code anongid=N},
 * {@code sec=sys}, {@code sync} (the default) and {@code async} (plain compounds reply before their name changes
 * are durable, docs/durability.md), and tcnfs's {@code txn=request|always|never}.
 * {@code subtree_check}, {@code no_subtree_check}, {@code wdelay}, {@code no_wdelay}, {@code secure} and
 * {@code insecure} are accepted and ignored, each with a {@linkplain Entry#notes() note}. Anything else,
 * a security flavor other than {@code sys}, a bad client or a path exported twice is an
 * {@link IllegalArgumentException} whose message starts with the line number.
 *
 * <p>Stateless; safe from any thread.
 */
public final class ExportsParser {

    private static final Set<String> IGNORED = Set.of("subtree_check", "no_subtree_check",
            "wdelay", "no_wdelay", "secure", "insecure");

    private ExportsParser() {
    }

    /**
     * One exported local path.
     *
     * @param line the line the entry starts on (1-based)
     * @param localPath the normalized local path (the server maps it to a file system; it is also the
     *     natural pseudo path of the export)
     * @param rules the client rules in the order written
     * @param notes remarks about accepted but ignored options and implied defaults, for the log
     */
    public record Entry(int line, String localPath, List<ExportRule> rules, List<String> notes) {
        public Entry {
            Objects.requireNonNull(localPath, "localPath");
            rules = List.copyOf(rules);
            notes = List.copyOf(notes);
        }
    }

    /**
     * Parses the contents of an exports file.
     *
     * @throws IllegalArgumentException for bad syntax, an unknown option or an unsupported feature,
     *     with a message naming the line and the offending item
     */
    public static List<Entry> parse(String text) {
        String[] lines = text.split("\r?\n", -1);
        List<Entry> entries = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        int i = 0;
        while (i < lines.length) {
            int start = i + 1;
            StringBuilder logical = new StringBuilder();
            while (true) {
                String physical = stripComment(lines[i]).stripTrailing();
                i++;
                if (physical.endsWith("\\")) {
                    logical.append(physical, 0, physical.length() - 1).append(' ');
                    if (i < lines.length) {
                        continue;
                    }
                } else {
                    logical.append(physical);
                }
                break;
            }
            if (logical.toString().isBlank()) {
                continue;
            }
            Entry entry = parseLine(logical.toString(), start);
            Integer earlier = seen.putIfAbsent(entry.localPath(), start);
            if (earlier != null) {
                throw new IllegalArgumentException("line " + start + ": " + entry.localPath()
                        + " is already exported on line " + earlier);
            }
            entries.add(entry);
        }
        return List.copyOf(entries);
    }

    /**
     * Reads and parses an exports file (UTF-8).
     *
     * @throws IllegalArgumentException as {@link #parse(String)}, the message prefixed with the file name
     */
    public static List<Entry> parse(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        try {
            return parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Parses one option list such as {@code rw,no_root_squash,txn=always} (the text between the parentheses of
     * a client item), applied over {@code base}: an option not given keeps the value of {@code base}.
     * Accepted-but-ignored options are accepted silently.
     *
     * @throws IllegalArgumentException for an unknown or malformed option, naming it
     */
    public static ExportOptions parseOptions(String list, ExportOptions base) {
        Objects.requireNonNull(list, "list");
        Options options = new Options(Objects.requireNonNull(base, "base"));
        try {
            options.apply(list, 1, "the option list", new ArrayList<>());
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            throw new IllegalArgumentException(message.startsWith("line 1: ") ? message.substring(8) : message, e);
        }
        return options.build();
    }

    private static Entry parseLine(String text, int line) {
        List<String> tokens = tokenize(text, line);
        String path = normalizePath(unescape(tokens.get(0), line), line);
        List<ExportRule> rules = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Options defaults = new Options();
        for (String token : tokens.subList(1, tokens.size())) {
            if (token.startsWith("-")) {
                defaults.apply(token.substring(1), line, "default options", notes);
                continue;
            }
            int open = token.indexOf('(');
            String client = open < 0 ? token : token.substring(0, open);
            Options options = defaults.copy();
            if (open >= 0) {
                if (!token.endsWith(")") || token.indexOf(')') != token.length() - 1
                        || token.indexOf('(', open + 1) >= 0) {
                    throw new IllegalArgumentException("line " + line + ": bad client item '" + token
                            + "' (expected client(option,...) with no spaces)");
                }
                options.apply(token.substring(open + 1, token.length() - 1), line,
                        client.isEmpty() ? "*" : client, notes);
            } else if (token.indexOf(')') >= 0) {
                throw new IllegalArgumentException("line " + line + ": bad client item '" + token + "'");
            }
            if (client.isEmpty()) {
                client = "*";
                notes.add("line " + line + ": '" + token + "' has no client name: applies to everyone (*)");
            }
            ClientMatcher matcher;
            try {
                matcher = ClientMatcher.parse(client);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + line + ": bad client '" + client + "': "
                        + e.getMessage(), e);
            }
            rules.add(new ExportRule(matcher, options.build()));
        }
        if (rules.isEmpty()) {
            notes.add("line " + line + ": no client given: " + path + " is exported to everyone (*)");
            rules.add(ExportRule.everyone(defaults.build()));
        }
        return new Entry(line, path, rules, notes);
    }

    private static String stripComment(String physical) {
        boolean quoted = false;
        for (int i = 0; i < physical.length(); i++) {
            char c = physical.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == '#' && !quoted) {
                return physical.substring(0, i);
            }
        }
        return physical;
    }

    private static List<String> tokenize(String text, int line) {
        List<String> tokens = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        boolean inToken = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                quoted = !quoted;
                inToken = true;
            } else if (Character.isWhitespace(c) && !quoted) {
                if (inToken) {
                    tokens.add(current.toString());
                    current.setLength(0);
                    inToken = false;
                }
            } else {
                current.append(c);
                inToken = true;
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("line " + line + ": unterminated quote");
        }
        if (inToken) {
            tokens.add(current.toString());
        }
        return tokens;
    }

    private static String unescape(String path, int line) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '\\') {
                if (i + 3 < path.length() && path.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                    out.append((char) Integer.parseInt(path.substring(i + 1, i + 4), 8));
                    i += 3;
                    continue;
                }
                throw new IllegalArgumentException("line " + line + ": bad escape in path " + path
                        + " (only \\NNN octal escapes are allowed)");
            }
            out.append(c);
        }
        return out.toString();
    }

    private static String normalizePath(String path, int line) {
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("line " + line + ": export path must be absolute: '" + path + "'");
        }
        if (path.indexOf('\0') >= 0) {
            // no local file system takes it: the server could not open the export
            throw new IllegalArgumentException("line " + line + ": export path must not contain a NUL character: '"
                    + path.replace('\0', '?') + "'");
        }
        StringBuilder out = new StringBuilder();
        for (String component : path.split("/")) {
            if (component.isEmpty()) {
                continue;
            }
            if (component.equals(".") || component.equals("..")) {
                throw new IllegalArgumentException("line " + line + ": export path must not contain '.' or '..': "
                        + path);
            }
            out.append('/').append(component);
        }
        return out.length() == 0 ? "/" : out.toString();
    }

    /** Options being collected for one client. */
    private static final class Options {
        private Access access = Access.READ_ONLY;
        private boolean rootSquash = true;
        private boolean allSquash;
        private int anonUid = ExportOptions.NOBODY;
        private int anonGid = ExportOptions.NOBODY;
        private TxnPolicy txn = TxnPolicy.REQUEST;
        private boolean async;

        Options() {
        }

        /** Options that start as {@code base}. */
        Options(ExportOptions base) {
            access = base.access();
            rootSquash = base.squash() != Squash.NO_ROOT_SQUASH;
            allSquash = base.squash() == Squash.ALL_SQUASH;
            anonUid = base.anonUid();
            anonGid = base.anonGid();
            txn = base.txn();
            async = base.async();
        }

        Options copy() {
            Options c = new Options();
            c.access = access;
            c.rootSquash = rootSquash;
            c.allSquash = allSquash;
            c.anonUid = anonUid;
            c.anonGid = anonGid;
            c.txn = txn;
            c.async = async;
            return c;
        }

        ExportOptions build() {
            Squash squash = allSquash ? Squash.ALL_SQUASH : rootSquash ? Squash.ROOT_SQUASH : Squash.NO_ROOT_SQUASH;
            return new ExportOptions(access, squash, anonUid, anonGid, Set.of(SecurityFlavor.SYS), txn, async);
        }

        void apply(String list, int line, String client, List<String> notes) {
            if (list.isBlank()) {
                return;
            }
            for (String raw : list.split(",", -1)) {
                String option = raw.trim();
                int eq = option.indexOf('=');
                String name = eq < 0 ? option : option.substring(0, eq);
                String value = eq < 0 ? null : option.substring(eq + 1);
                String where = "line " + line + ": option '" + option + "' of " + client;
                if (option.isEmpty()) {
                    throw new IllegalArgumentException("line " + line + ": empty option in '" + list + "' of "
                            + client);
                }
                switch (name) {
                    case "rw" -> access = flag(Access.READ_WRITE, value, where);
                    case "ro" -> access = flag(Access.READ_ONLY, value, where);
                    case "root_squash" -> rootSquash = flag(true, value, where);
                    case "no_root_squash" -> rootSquash = flag(false, value, where);
                    case "all_squash" -> allSquash = flag(true, value, where);
                    case "no_all_squash" -> allSquash = flag(false, value, where);
                    case "anonuid" -> anonUid = id(value, where);
                    case "anongid" -> anonGid = id(value, where);
                    case "sec" -> security(value, where);
                    case "txn" -> txn = txnPolicy(value, where);
                    case "sync" -> async = flag(false, value, where);
                    case "async" -> async = flag(true, value, where);
                    default -> {
                        if (!IGNORED.contains(name)) {
                            throw new IllegalArgumentException("line " + line + ": unknown export option '"
                                    + option + "' of " + client);
                        }
                        flag(name, value, where);
                        notes.add(where + " is accepted and ignored");
                    }
                }
            }
        }

        private static <T> T flag(T result, String value, String where) {
            if (value != null) {
                throw new IllegalArgumentException(where + ": takes no value");
            }
            return result;
        }

        private static int id(String value, String where) {
            if (value == null || !value.matches("-?\\d{1,10}")) {
                throw new IllegalArgumentException(where + ": needs a numeric id");
            }
            long id = Long.parseLong(value);
            if (id < Integer.MIN_VALUE || id > 0xffff_ffffL) {
                throw new IllegalArgumentException(where + ": id out of range");
            }
            return (int) id;
        }

        private static void security(String value, String where) {
            if (value == null || value.isEmpty()) {
                throw new IllegalArgumentException(where + ": needs a flavor list such as sec=sys");
            }
            for (String flavor : value.split(":", -1)) {
                if (!flavor.equals("sys")) {
                    throw new IllegalArgumentException(where + ": security flavor '" + flavor
                            + "' is not supported; tcnfs only speaks AUTH_SYS (sec=sys)");
                }
            }
        }

        private static TxnPolicy txnPolicy(String value, String where) {
            if (value == null) {
                throw new IllegalArgumentException(where + ": needs request, always or never");
            }
            return switch (value) {
                case "request" -> TxnPolicy.REQUEST;
                case "always" -> TxnPolicy.ALWAYS;
                case "never" -> TxnPolicy.NEVER;
                default -> throw new IllegalArgumentException(where + ": needs request, always or never");
            };
        }
    }
}
