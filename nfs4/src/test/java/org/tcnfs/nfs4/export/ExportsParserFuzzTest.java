package org.tcnfs.nfs4.export;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * Fuzzes the exports file parser with arbitrary text (the bytes as UTF-8, as the server reads the file).
 *
 * <p>Properties: {@link ExportsParser#parse(String)} returns or throws {@link IllegalArgumentException}
 * whose message starts with the line, nothing else; every entry it returns has a normalized absolute local
 * path the server can open (no empty, {@code .} or {@code ..} component, a valid {@link Path}) and at
 * least one client rule.
 */
class ExportsParserFuzzTest {

    @FuzzTest(maxDuration = "20s")
    void exportsParseOrFailNamingTheLine(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        List<ExportsParser.Entry> entries;
        try {
            entries = ExportsParser.parse(text);
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).startsWith("line ");
            return;
        }
        for (ExportsParser.Entry entry : entries) {
            String path = entry.localPath();
            assertThat(path).startsWith("/").doesNotContain("//");
            assertThat(path.equals("/") || !path.endsWith("/")).as("no trailing slash: %s", path).isTrue();
            assertThat(List.of(path.split("/"))).doesNotContain(".", "..");
            assertThat(Path.of(path).isAbsolute()).isTrue();
            assertThat(entry.rules()).isNotEmpty();
            assertThat(entry.line()).isPositive();
        }
    }
}
