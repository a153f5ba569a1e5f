package io.ringwatch.engine.acceptance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.persistence.LogConfig;

/**
 * The child of {@link SyncVisibilityTest}: a SYNC engine written by four threads until it is
 * killed, each acknowledgement printed as {@code ack REV}, and a watcher that appends
 * {@code REV KEY VALUE;} for every event it sees to a file and forces it to disk before it
 * returns, so the file holds only what the watcher really saw.
 */
public final class SeenRecordingWriter
{
    private SeenRecordingWriter()
    {
    }

    /**
     * @param args the data directory and the file the watcher records to.
     * @throws IOException if the record file cannot be opened.
     */
    public static void main(final String[] args) throws IOException
    {
        final RingWatch engine = RingWatch.open(RingWatchConfig.builder()
            .persistence(LogConfig.builder(Path.of(args[0])).durability(LogConfig.Durability.SYNC).build())
            .snapshotEveryRevisions(0).build());
        final FileChannel seen = FileChannel.open(Path.of(args[1]), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING);
        engine.watch(WatchRequest.of(KeyRange.all()), batch -> recordForced(seen, batch));
        for (int t = 0; t < 4; t++)
        {
            final int thread = t;
            new Thread(() ->
            {
                for (long i = 0; ; i++)
                {
                    final long revision = engine.put("/k/" + thread + "/" + i % 20, "v" + thread + "-" + i).revision();
                    synchronized (System.out)
                    {
                        System.out.println("ack " + revision);
                        System.out.flush();
                    }
                }
            }, "writer-" + t).start();
        }
    }

    /**
     * Appends {@code REV KEY VALUE;} for each event of {@code batch} to {@code seen} and forces it,
     * so that the file holds what a watcher saw before it returned, whatever kills the process after.
     *
     * @return the newest revision in the batch.
     */
    static long recordForced(final FileChannel seen, final EventBatch batch)
    {
        final StringBuilder records = new StringBuilder();
        long newest = 0;
        for (int i = 0; i < batch.size(); i++)
        {
            final WatchEvent event = batch.get(i);
            newest = event.revision();
            records.append(newest).append(' ').append(event.toEvent().kv().keyAsString()).append(' ')
                .append(event.toEvent().kv().valueAsString()).append(";\n");
        }
        try
        {
            final ByteBuffer bytes = ByteBuffer.wrap(records.toString().getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining())
            {
                seen.write(bytes);
            }
            seen.force(false);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return newest;
    }
}
