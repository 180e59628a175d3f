package org.tcnfs.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tcnfs.server.config.Setting;

/** The README's settings table is the one {@link Main#printSettings} prints from {@code Setting}. */
class ReadmeSettingsTest {

    @Test
    void readmeListsEverySettingWithItsDefaultAndDoc() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        StringWriter rows = new StringWriter();
        try (PrintWriter out = new PrintWriter(rows)) {
            Main.printSettings(out);
        }

        List<String> expected = rows.toString().lines().toList();
        List<String> missing = expected.stream().filter(row -> !readme.contains(row)).toList();

        assertThat(expected).hasSize(Setting.values().length);
        assertThat(missing).as("rows of README.md's settings table that differ from Setting").isEmpty();
    }
}
