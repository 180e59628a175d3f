package org.tcnfs.client.cli;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import org.tcnfs.client.vector.FileInfo;

/** Permission bits as text: octal parsing and {@code ls -l} rendering. */
final class Modes {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
            .withZone(ZoneId.systemDefault());

    private Modes() {
    }

    /**
     * Octal mode text such as {@code 644} or {@code 0755}.
     *
     * @throws CliException USAGE for anything else
     */
    static int parse(String octal) throws CliException {
        try {
            int m = Integer.parseInt(octal, 8);
            if (m < 0 || m > 07777) {
                throw new NumberFormatException();
            }
            return m;
        } catch (NumberFormatException e) {
            throw new CliException(ExitCode.USAGE, "not an octal mode: " + octal);
        }
    }

    /** {@code drwxr-xr-x}. */
    static String render(FileInfo info) {
        char type = switch (info.type()) {
            case DIRECTORY -> 'd';
            case SYMLINK -> 'l';
            case REGULAR -> '-';
            case OTHER -> '?';
        };
        StringBuilder sb = new StringBuilder().append(type);
        String rwx = "rwxrwxrwx";
        for (int i = 0; i < 9; i++) {
            sb.append((info.mode() & (1 << (8 - i))) != 0 ? rwx.charAt(i) : '-');
        }
        return sb.toString();
    }

    /** One {@code ls -l} line. */
    static String longLine(FileInfo info, String name) {
        return String.format("%s %3d %-8s %-8s %10d %s %s", render(info), info.links(), info.owner(), info.group(),
                info.size(), TIME.format(info.modifyTime()), name);
    }
}
