package io.ringwatch.replay;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringwatch.persistence.LeaseFile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The replay tool shows leases (issue 15): {@code print} each put's lease and the lease log's grants
 * and ends after the revision they follow, {@code state} each key's lease and the leases live at the
 * revision, in text and JSON.
 */
class LeaseReplayTest
{
    @TempDir
    static Path temp;

    private static Path log;

    @BeforeAll
    static void writeHistory()
    {
        log = temp.resolve("log");
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().persistence(LogConfig.builder(log).build()).build()))
        {
            engine.leases().grant(5, 60);
            engine.write(Op.put("a", "1").withLease(5));
            engine.write(Op.put("b", "2"));
            engine.leases().grant(6, 90);
            engine.leases().revoke(5);
        }
    }

    @Test
    void printShowsEachPutsLeaseAndTheGrantsAndEndsInRevisionOrder()
    {
        final HistoryFixture.Run run = HistoryFixture.run("print", log.toString());
        assertEquals(0, run.exitCode(), run.err());
        final List<String> lines = run.out().lines().toList();
        assertEquals(6, lines.size(), run.out());
        assertEquals("rev=0 LEASE_GRANT lease=5 ttl=60", lines.get(0));
        assertTrue(lines.get(1).startsWith("rev=1 ") && lines.get(1).endsWith(" lease=5"), lines.get(1));
        assertTrue(lines.get(2).startsWith("rev=2 ") && !lines.get(2).contains("lease="), lines.get(2));
        assertEquals("rev=2 LEASE_GRANT lease=6 ttl=90", lines.get(3));
        assertTrue(lines.get(4).startsWith("rev=3 ") && lines.get(4).contains(" DELETE key=\"a\""), lines.get(4));
        assertEquals("rev=3 LEASE_END lease=5", lines.get(5));

        final HistoryFixture.Run json = HistoryFixture.run("print", log.toString(), "--format", "json");
        assertEquals(0, json.exitCode(), json.err());
        assertTrue(json.out().contains("\"lease\":5"), json.out());
        assertTrue(json.out().contains("\"type\":\"LEASE_END\""), json.out());
    }

    @Test
    void stateShowsEachKeysLeaseAndTheLeasesLiveAtTheRevision()
    {
        final HistoryFixture.Run two = HistoryFixture.run("state", log.toString(), "--at", "2");
        assertEquals(0, two.exitCode(), two.err());
        final List<String> lines = two.out().lines().toList();
        assertEquals(4, lines.size(), two.out());
        assertTrue(lines.get(0).startsWith("key=\"a\"") && lines.get(0).endsWith(" lease=5"), lines.get(0));
        assertEquals("lease=5 ttl=60 keys=1", lines.get(2));
        assertEquals("lease=6 ttl=90 keys=0", lines.get(3));
        assertTrue(two.err().endsWith("; 2 leases" + System.lineSeparator()) || two.err().contains("; 2 leases"), two.err());

        final HistoryFixture.Run three = HistoryFixture.run("state", log.toString(), "--at", "3", "--format", "json");
        assertEquals(0, three.exitCode(), three.err());
        final List<String> json = three.out().lines().toList();
        assertEquals(2, json.size(), three.out());
        assertTrue(json.get(0).contains("\"lease\":0"), json.get(0));
        assertTrue(json.get(1).contains("\"lease\":6") && json.get(1).contains("\"keys\":0"), json.get(1));
    }

    @Test
    void anEndWhoseRevisionTheLogLostIsNeitherPrintedNorAppliedAsRecoveryCutsIt() throws IOException
    {
        // A crash after the end of lease 6 was recorded, before its revision 4 reached the log:
        // recovery cuts that end, so the tool must show lease 6 as live too.
        final Path crashed = temp.resolve("crashed");
        try (Stream<Path> files = Files.walk(log))
        {
            for (final Path file : files.toList())
            {
                Files.copy(file, crashed.resolve(log.relativize(file).toString()));
            }
        }
        final ByteBuffer end = ByteBuffer.allocate(29).order(ByteOrder.LITTLE_ENDIAN);
        end.put(LeaseFile.REVOKE).putLong(6).putLong(0).putLong(4);
        final CRC32C crc = new CRC32C();
        crc.update(end.array(), 0, 25);
        end.putInt((int)crc.getValue()).flip();
        try (FileChannel leases = FileChannel.open(crashed.resolve(LeaseFile.NAME), StandardOpenOption.APPEND))
        {
            leases.write(end);
        }

        final HistoryFixture.Run state = HistoryFixture.run("state", crashed.toString(), "--at", "3");
        assertEquals(0, state.exitCode(), state.err());
        assertTrue(state.out().lines().anyMatch("lease=6 ttl=90 keys=0"::equals), state.out());
        final HistoryFixture.Run print = HistoryFixture.run("print", crashed.toString());
        assertEquals(0, print.exitCode(), print.err());
        assertFalse(print.out().contains("LEASE_END lease=6"), print.out());
    }
}
