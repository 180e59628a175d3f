package org.tcnfs.nfs4.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.export.ExportOptions.Access;
import org.tcnfs.nfs4.export.ExportOptions.Squash;
import org.tcnfs.nfs4.export.ExportOptions.TxnPolicy;
import org.tcnfs.nfs4.export.ExportsParser.Entry;

class ExportsParserTest {

    @Test
    void parsesPathsClientsAndOptions() {
        List<Entry> entries = ExportsParser.parse("""
                # the data
                /srv/data   10.0.0.0/8(rw,no_root_squash) 2001:db8::/32(rw,all_squash,anonuid=1000,anongid=1001) *(ro)
                /srv/txn    *(rw,txn=always,sec=sys)
                """);
        assertThat(entries).hasSize(2);
        Entry data = entries.get(0);
        assertThat(data.line()).isEqualTo(2);
        assertThat(data.localPath()).isEqualTo("/srv/data");
        assertThat(data.rules()).hasSize(3);
        ExportRule lan = data.rules().get(0);
        assertThat(lan.clients().spec()).isEqualTo("10.0.0.0/8");
        assertThat(lan.options().access()).isEqualTo(Access.READ_WRITE);
        assertThat(lan.options().squash()).isEqualTo(Squash.NO_ROOT_SQUASH);
        ExportRule v6 = data.rules().get(1);
        assertThat(v6.options().squash()).isEqualTo(Squash.ALL_SQUASH);
        assertThat(v6.options().anonUid()).isEqualTo(1000);
        assertThat(v6.options().anonGid()).isEqualTo(1001);
        ExportRule world = data.rules().get(2);
        assertThat(world.clients()).isEqualTo(ClientMatcher.any());
        assertThat(world.options()).isEqualTo(ExportOptions.DEFAULTS);
        assertThat(entries.get(1).rules().get(0).options().txn()).isEqualTo(TxnPolicy.ALWAYS);
        assertThat(data.notes()).isEmpty();
    }

    @Test
    void firstMatchingRuleDecides() throws Exception {
        Entry entry = ExportsParser.parse("/d 10.1.0.0/16(rw) 10.0.0.0/8(ro,all_squash)\n").get(0);
        Export export = new Export("/d", new org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem(), entry.rules());
        assertThat(export.optionsFor(InetAddress.getByName("10.1.2.3")).orElseThrow().access())
                .isEqualTo(Access.READ_WRITE);
        assertThat(export.optionsFor(InetAddress.getByName("10.2.2.3")).orElseThrow().squash())
                .isEqualTo(Squash.ALL_SQUASH);
        assertThat(export.optionsFor(InetAddress.getByName("192.0.2.1"))).isEmpty();
    }

    @Test
    void lineWithoutClientsExportsReadOnlyToEveryoneWithANote() {
        Entry entry = ExportsParser.parse("/pub\n").get(0);
        assertThat(entry.rules()).containsExactly(ExportRule.everyone(ExportOptions.DEFAULTS));
        assertThat(entry.notes()).singleElement().asString().contains("everyone");
    }

    @Test
    void bareOptionListMeansEveryone() {
        Entry entry = ExportsParser.parse("/pub (rw)\n").get(0);
        assertThat(entry.rules()).singleElement().satisfies(r -> {
            assertThat(r.clients()).isEqualTo(ClientMatcher.any());
            assertThat(r.options().access()).isEqualTo(Access.READ_WRITE);
        });
        assertThat(entry.notes()).isNotEmpty();
    }

    @Test
    void commentsContinuationsAndBlankLinesAreHandled() {
        List<Entry> entries = ExportsParser.parse("""

                # whole-line comment
                /a 10.0.0.1(rw) \\
                   10.0.0.2(ro)   # trailing comment
                /b *(rw)#glued comment
                """);
        assertThat(entries).extracting(Entry::localPath).containsExactly("/a", "/b");
        assertThat(entries.get(0).line()).isEqualTo(3);
        assertThat(entries.get(0).rules()).hasSize(2);
        assertThat(entries.get(1).line()).isEqualTo(5);
    }

    @Test
    void dashOptionsAreDefaultsForTheRestOfTheLine() {
        Entry entry = ExportsParser.parse("/a -rw,all_squash 10.0.0.1 10.0.0.2(ro)\n").get(0);
        assertThat(entry.rules().get(0).options().access()).isEqualTo(Access.READ_WRITE);
        assertThat(entry.rules().get(0).options().squash()).isEqualTo(Squash.ALL_SQUASH);
        assertThat(entry.rules().get(1).options().access()).isEqualTo(Access.READ_ONLY);
        assertThat(entry.rules().get(1).options().squash()).isEqualTo(Squash.ALL_SQUASH);
    }

    @Test
    void quotedAndEscapedPathsAreUnquotedAndPathsNormalized() {
        List<Entry> entries = ExportsParser.parse("\"/srv/with space\" *(rw)\n/srv/oct\\040al *\n//srv//x/ *\n");
        assertThat(entries).extracting(Entry::localPath)
                .containsExactly("/srv/with space", "/srv/oct al", "/srv/x");
    }

    @Test
    void toleratedOptionsAreIgnoredWithANote() {
        Entry entry = ExportsParser.parse(
                "/a *(rw,no_subtree_check,subtree_check,wdelay,no_wdelay,insecure,secure)\n").get(0);
        assertThat(entry.rules().get(0).options().access()).isEqualTo(Access.READ_WRITE);
        assertThat(entry.notes()).hasSize(6).allSatisfy(n -> assertThat(n).contains("ignored").contains("line 1"));
    }

    @Test
    void syncIsTheDefaultAndTheLastOfSyncAndAsyncWins() {
        List<Entry> entries = ExportsParser.parse("/a *(rw)\n/b *(rw,async) h1(rw,async,sync)\n/c -async *(rw)\n");
        assertThat(entries.get(0).rules().get(0).options().async()).isFalse();
        assertThat(entries.get(1).rules().get(0).options().async()).isTrue();
        assertThat(entries.get(1).rules().get(1).options().async()).isFalse();
        assertThat(entries.get(2).rules().get(0).options().async()).isTrue();
        assertThat(entries.get(1).notes()).isEmpty();
        assertThat(ExportsParser.parseOptions("async", ExportOptions.DEFAULT_EXPORT).async()).isTrue();
        assertThatThrownBy(() -> ExportsParser.parse("/a *(async=1)\n")).hasMessageContaining("takes no value");
    }

    @Test
    void noAllSquashUndoesAllSquashAndRootSquashStaysDefault() {
        Entry entry = ExportsParser.parse("/a -all_squash *(no_all_squash)\n").get(0);
        assertThat(entry.rules().get(0).options().squash()).isEqualTo(Squash.ROOT_SQUASH);
    }

    @Test
    void unknownOptionIsRefusedNamingLineAndOption() {
        assertThatThrownBy(() -> ExportsParser.parse("/a *(rw)\n\n/b 10.0.0.1(rw,frobnicate)\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 3").hasMessageContaining("frobnicate");
    }

    @Test
    void otherSecurityFlavorsAreRefusedClearly() {
        assertThatThrownBy(() -> ExportsParser.parse("/a *(sec=krb5p)\n"))
                .hasMessageContaining("line 1").hasMessageContaining("krb5p").hasMessageContaining("sec=sys");
        assertThatThrownBy(() -> ExportsParser.parse("/a *(sec=sys:krb5)\n")).hasMessageContaining("krb5");
    }

    @Test
    void badSyntaxIsRefusedNamingTheLine() {
        assertThat(badLine("a/relative *\n")).contains("line 1").contains("absolute");
        assertThat(badLine("/a *(rw\n")).contains("line 1").contains("*(rw");
        assertThat(badLine("/a *(rw) host (ro)x\n")).contains("line 1");
        assertThat(badLine("/a *(rw,,ro)\n")).contains("empty option");
        assertThat(badLine("/a *(anonuid=abc)\n")).contains("anonuid=abc");
        assertThat(badLine("/a *(rw=1)\n")).contains("rw=1");
        assertThat(badLine("/a *(txn=sometimes)\n")).contains("txn=sometimes");
        assertThat(badLine("/a/../b *\n")).contains("'..'");
        assertThat(badLine("\"/a *\n")).contains("quote");
        assertThat(badLine("/a\n/b bad..host..(rw)\n")).contains("line 2").contains("bad client");
        assertThat(badLine("/a *.example.com(rw)\n")).contains("wildcard");
        assertThat(badLine("/a\n# c\n/a *(rw)\n")).contains("line 3").contains("line 1");
    }

    @Test
    void parsesAFileAndPrefixesErrorsWithItsName(@TempDir Path dir) throws Exception {
        Path good = dir.resolve("exports");
        Files.writeString(good, "/srv *(rw)\n");
        assertThat(ExportsParser.parse(good)).hasSize(1);
        Path bad = dir.resolve("bad-exports");
        Files.writeString(bad, "/srv *(bogus)\n");
        assertThatThrownBy(() -> ExportsParser.parse(bad)).hasMessageStartingWith(bad.toString())
                .hasMessageContaining("bogus");
    }

    @Test
    void anOptionListAppliesOverItsBase() {
        assertThat(ExportsParser.parseOptions("", ExportOptions.DEFAULT_EXPORT)).isEqualTo(ExportOptions.DEFAULT_EXPORT);
        assertThat(ExportsParser.parseOptions("no_root_squash", ExportOptions.DEFAULT_EXPORT))
                .isEqualTo(ExportOptions.TRUSTED);
        ExportOptions o = ExportsParser.parseOptions("ro,all_squash,anonuid=1000,txn=always",
                ExportOptions.DEFAULT_EXPORT);
        assertThat(o.isReadOnly()).isTrue();
        assertThat(o.squash()).isEqualTo(ExportOptions.Squash.ALL_SQUASH);
        assertThat(o.anonUid()).isEqualTo(1000);
        assertThat(o.anonGid()).isEqualTo(ExportOptions.NOBODY);
        assertThat(o.txn()).isEqualTo(ExportOptions.TxnPolicy.ALWAYS);
        assertThat(ExportsParser.parseOptions("root_squash", ExportOptions.TRUSTED).squash())
                .isEqualTo(ExportOptions.Squash.ROOT_SQUASH);
        assertThatThrownBy(() -> ExportsParser.parseOptions("rw,bogus", ExportOptions.DEFAULT_EXPORT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown export option 'bogus'");
    }

    @Test
    void theDefaultExportSquashesRoot() {
        assertThat(ExportOptions.DEFAULT_EXPORT.isReadOnly()).isFalse();
        assertThat(ExportOptions.DEFAULT_EXPORT.squash()).isEqualTo(ExportOptions.Squash.ROOT_SQUASH);
    }

    @Test
    void nulInAnExportPathIsRefusedWithItsLine() {
        // found by ExportsParserFuzzTest: accepted, then the server could not open the path (InvalidPathException)
        assertThat(badLine("/a\n/srv\0/pub *(rw)\n")).startsWith("line 2").contains("NUL");
        assertThat(badLine("/srv\\000x *(rw)\n")).startsWith("line 1").contains("NUL");
    }

    private static String badLine(String text) {
        try {
            ExportsParser.parse(text);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        throw new AssertionError("accepted: " + text);
    }
}
