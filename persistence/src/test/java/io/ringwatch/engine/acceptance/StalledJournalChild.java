package io.ringwatch.engine.acceptance;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.LockSupport;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.persistence.ChronicleJournal;
import io.ringwatch.persistence.LogConfig;

/**
 * The child of {@link UncleanAsyncReopenTest}: an ASYNC engine over the real revision log whose
 * journal appends revisions up to {@code appendUpTo} and then stalls for ever (a test hook: a disk
 * that stopped), while a producer writes flat out with {@code writeAsync}. The writer shows each
 * revision before the journal appends it, so a watcher sees revisions the log will never hold: it
 * appends {@code REV KEY VALUE;} per event to a file and forces it before it returns, then prints
 * {@code seen REV}. The journal prints {@code stalled REV} when it reaches the first revision it
 * will not append. The parent kills it once it has printed that and a seen revision is past
 * {@code appendUpTo}: which revisions were appended and which were seen but not appended is then
 * certain, not a matter of timing.
 */
public final class StalledJournalChild
{
    private StalledJournalChild()
    {
    }

    /**
     * @param args the data directory, the file the watcher records to, and the last revision the
     *             journal appends before it stalls.
     * @throws IOException if the record file cannot be opened.
     */
    public static void main(final String[] args) throws IOException
    {
        final Path data = Path.of(args[0]);
        final long appendUpTo = Long.parseLong(args[2]);
        final RingWatch engine = RingWatch.open(RingWatchConfig.builder()
            .persistence(name -> stallingAfter(ChronicleJournal.open(LogConfig.builder(data).build(), name), appendUpTo))
            .snapshotEveryRevisions(0).build());
        final FileChannel seen = FileChannel.open(Path.of(args[1]), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING);
        engine.watch(WatchRequest.of(KeyRange.all()).startRevision(engine.currentRevision() + 1), batch ->
        {
            final long newest = SeenRecordingWriter.recordForced(seen, batch);
            synchronized (System.out)
            {
                System.out.println("seen " + newest);
                System.out.flush();
            }
        });
        final Thread producer = new Thread(() ->
        {
            for (long i = 0; ; i++)
            {
                // Flat out: the ring fills behind the stalled journal, and then this thread waits for a slot.
                engine.writeAsync(Op.put("/k/" + i % 50, "old-" + i));
            }
        }, "producer");
        producer.start();
    }

    /** The journal, with every append after {@code appendUpTo} stalled for ever; all else passed through. */
    private static Journal stallingAfter(final Journal journal, final long appendUpTo)
    {
        final InvocationHandler handler = (proxy, method, args) ->
        {
            if ("appendRevision".equals(method.getName()) && (Long)args[0] > appendUpTo)
            {
                synchronized (System.out)
                {
                    System.out.println("stalled " + args[0]);
                    System.out.flush();
                }
                while (true)
                {
                    LockSupport.park();
                }
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
