package io.ringwatch.engine.acceptance;

import io.ringwatch.engine.internal.durable.ChildJvm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.internal.history.InMemoryJournal;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.persistence.LogConfig;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, "What was seen" item 5: in SYNC mode watchers and readers could see a revision
 * before it was durable, so a crash could take back what they had seen (etcd persists before it
 * applies). Two ways: a slow sync journal (the test journal behind a proxy that makes every flush
 * take a while, so that a revision published before its flush is caught), and a real kill -9 of
 * a child process whose watcher fsyncs every revision it saw to a file before the kill: after
 * recovery every revision the watcher recorded must be there. The slow journal is the one that
 * catches the old behaviour (it failed at revision 1); a kill -9 loses only what the process had
 * not yet handed to the OS, so the kill scenario guards against a watcher running ahead of the
 * append itself, not of the fsync (that needs a power cut).
 */
class SyncVisibilityTest
{
    private static final int KILL_ROUNDS = Scenario.LONG ? 20 : 3;

    /**
     * Issue 12 item 5, slow journal: a watcher and a reader thread never see a revision above the
     * journal's durable revision read just after.
     */
    @Test
    void noWatcherOrReaderSeesARevisionBeforeASlowSyncJournalMadeItDurable() throws Exception
    {
        final InMemoryJournal journal = new InMemoryJournal(1 << 16, true);
        final Journal slow = slowFlushes(journal);
        final AtomicReference<String> violation = new AtomicReference<>();
        final int writes = 3_000;
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> slow).build()))
        {
            engine.watch(WatchRequest.of(KeyRange.all()), batch ->
            {
                for (int i = 0; i < batch.size(); i++)
                {
                    final long seen = batch.get(i).revision();
                    final long durable = journal.durableRevision();
                    if (seen > durable)
                    {
                        violation.compareAndSet(null, "a watcher saw revision " + seen + " while only " + durable + " was durable");
                    }
                }
            });
            final AtomicBoolean writing = new AtomicBoolean(true);
            final Thread reader = new Thread(() ->
            {
                while (writing.get())
                {
                    final long visible = engine.currentRevision();
                    final long countVisible = engine.get("/k/0").map(KeyValue::modRevision).orElse(0L);
                    final long durable = journal.durableRevision();
                    if (Math.max(visible, countVisible) > durable)
                    {
                        violation.compareAndSet(null, "a reader saw revision " + Math.max(visible, countVisible)
                            + " while only " + durable + " was durable");
                    }
                }
            }, "reader");
            reader.start();
            final Thread[] writers = new Thread[4];
            for (int t = 0; t < writers.length; t++)
            {
                final int thread = t;
                writers[t] = new Thread(() ->
                {
                    for (int i = thread; i < writes; i += writers.length)
                    {
                        engine.put("/k/" + i % 10, "v" + i);
                    }
                }, "writer-" + t);
                writers[t].start();
            }
            for (final Thread writer : writers)
            {
                writer.join();
            }
            writing.set(false);
            reader.join();
            assertEquals(writes, engine.currentRevision());
        }
        assertNull(violation.get());
    }

    /**
     * Issue 12 item 5, kill -9: a child writes in SYNC from several threads while its watcher
     * fsyncs each revision it saw to a file; after SIGKILL and recovery, the recovered revision is
     * at least every revision the watcher recorded, with the values it recorded.
     */
    @Test
    void whatAWatcherSawBeforeAKillNineIsThereAfterRecovery(@TempDir final Path dir) throws Exception
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        System.out.println("SyncVisibilityTest seed " + seed);
        final Random random = new Random(seed);
        final Path data = dir.resolve("data");
        for (int round = 0; round < KILL_ROUNDS; round++)
        {
            final Path seenFile = dir.resolve("seen-" + round + ".txt");
            final Process child = ChildJvm.start(SeenRecordingWriter.class, data.toString(), seenFile.toString());
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)))
            {
                final int killAfter = 200 + random.nextInt(2_000);
                int acks = 0;
                String line;
                while (acks < killAfter && (line = out.readLine()) != null)
                {
                    acks += line.startsWith("ack ") ? 1 : 0;
                }
                assertEquals(killAfter, acks, "seed " + seed + " round " + round + ": the child stopped early");
                child.toHandle().destroyForcibly();
                assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child did not die");
            }
            final List<String> seen = Files.readAllLines(seenFile);
            try (RingWatch engine = RingWatch.open(RingWatchConfig.builder()
                .persistence(LogConfig.builder(data).durability(LogConfig.Durability.SYNC).build())
                .snapshotEveryRevisions(0).build()))
            {
                final long recovered = engine.currentRevision();
                int checked = 0;
                for (final String record : seen)
                {
                    // A record is "REVISION KEY VALUE"; a torn last line (killed while writing it) was never fsync'd whole.
                    final String[] parts = record.split(" ");
                    if (parts.length != 3 || !record.endsWith(";"))
                    {
                        continue;
                    }
                    final long revision = Long.parseLong(parts[0]);
                    assertTrue(revision <= recovered, "seed " + seed + " round " + round + ": the watcher saw revision "
                        + revision + " before the kill, but recovery found only " + recovered);
                    final List<KeyValue> at = engine.range(KeyRange.key(parts[1]), 0, revision).kvs();
                    assertEquals(1, at.size(), "seed " + seed + ": " + parts[1] + " at " + revision);
                    assertEquals(parts[2].substring(0, parts[2].length() - 1), at.get(0).valueAsString(),
                        "seed " + seed + ": " + parts[1] + " at " + revision);
                    checked++;
                }
                System.out.println("SyncVisibilityTest round " + round + ": recovered " + recovered + ", " + checked
                    + " revisions the watcher saw were all there");
            }
        }
    }

    /** The journal, with every flush made slow (a slow disk), all else passed through. */
    private static Journal slowFlushes(final InMemoryJournal journal)
    {
        final InvocationHandler handler = (proxy, method, args) ->
        {
            if ("flush".equals(method.getName()))
            {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(500));
            }
            try
            {
                return method.invoke(journal, args);
            }
            catch (final InvocationTargetException ex)
            {
                throw ex.getCause();
            }
        };
        return (Journal)Proxy.newProxyInstance(Journal.class.getClassLoader(), new Class<?>[] {Journal.class}, handler);
    }
}
