package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RepublisherTest
{
    @TempDir
    Path temp;

    @Test
    void aBaseStateGoesInTransactionsBoundedByKeysAndBytes()
    {
        final List<KeyState> many = new ArrayList<>();
        for (int i = 0; i < 2 * Republisher.BASE_TXN_KEYS + 1; i++)
        {
            many.add(HandWrittenLog.state(String.format("/k/%05d", i), "v" + i, 1, 1, 1));
        }
        final byte[] big = new byte[600 * 1024];
        final List<KeyState> large = List.of(new KeyState(utf8("/big/1"), big, 1, 1, 1),
            new KeyState(utf8("/big/2"), big, 1, 1, 1), new KeyState(utf8("/big/3"), big, 1, 1, 1));

        try (RingWatch engine = RingWatch.open())
        {
            final Republisher republisher = new Republisher(engine, new Pacer(Pace.parse("max")), System::nanoTime);
            republisher.publishBase(many);
            assertEquals(3, republisher.baseTxns());
            republisher.publishBase(large);
            assertEquals(3 + 3, republisher.baseTxns(), "600 KiB values: one per txn under the 1 MiB budget");
            assertEquals(6, engine.currentRevision());
            final List<KeyValue> kvs = engine.range(KeyRange.all(), 0).kvs();
            assertEquals(many.size() + large.size(), kvs.size());
            assertEquals("v1024", kvs.get(large.size() + 1024).valueAsString(), "\"/big/\" sorts before \"/k/\"");
        }
    }

    @Test
    void aRevisionThatChangesNothingInTheTargetIsReportedAsDivergence()
    {
        final Path dir = temp.resolve("ghost");
        try (HandWrittenLog log = new HandWrittenLog(dir, 1, Map.of("ghost", HandWrittenLog.state("ghost", "g", 1, 1, 1))))
        {
            log.put("k", "v");
            log.delete("ghost");
        }

        final HistoryFixture.Run run = HistoryFixture.run("republish", dir.toString(), "--into", temp.resolve("target").toString());

        assertEquals(ExitCodes.REPUBLISH_FAILED, run.exitCode(), run.out());
        assertTrue(run.err().contains("source revision 2 became target revision 1, expected 2: the target's state diverged"),
            run.err());
    }

    private static byte[] utf8(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
