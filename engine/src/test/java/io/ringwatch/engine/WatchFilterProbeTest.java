package io.ringwatch.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.internal.history.InMemoryJournal;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Watch filters (no-put, no-delete, prev value) on slow pull watchers that the window laps: each
 * reads by cursor (the window, or in a persistent engine the log) and, in memory, is cancelled and
 * resumed from the revision its cancel names. Every stretch a watcher reads is exactly the
 * reference's filtered events from its start, and every progress notification it gets, asked for
 * at random, has exactly the filtered events up to its revision before it: never ahead of an event
 * the watcher would have received, never behind one it did receive (etcd's progress with filters).
 */
class WatchFilterProbeTest
{
    private static final String PREFIX = "/f/";

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void filteredWatchersReadExactlyTheirEventsAndProgressAcrossLapsAndResumes(final boolean persistent)
    {
        final RingWatchConfig.Builder builder = RingWatchConfig.builder().watcherQueueDepth(16).windowCapacity(1024, 1024)
            .windowFreshness(Duration.ofNanos(1));
        if (persistent)
        {
            builder.persistence(name -> new InMemoryJournal(1 << 16, false));
        }
        final long seed = System.nanoTime();
        final Random random = new Random(seed);
        final List<String> reference = new ArrayList<>();
        final List<Long> referenceRevisions = new ArrayList<>();
        try (RingWatch engine = RingWatch.open(builder.build()))
        {
            final List<Probe> probes = List.of(
                new Probe(engine, "noPut", r -> r.noPut(), e -> e.startsWith("DELETE")),
                new Probe(engine, "noDelete+prevKv", r -> r.noDelete().withPrevKv(), e -> e.startsWith("PUT")),
                new Probe(engine, "prevKv", WatchRequest::withPrevKv, e -> true));
            final String[] values = new String[40];
            for (int i = 0; i < 6_000; i++)
            {
                final int k = random.nextInt(values.length);
                final String key = PREFIX + k;
                if (values[k] != null && random.nextInt(3) == 0)
                {
                    final WriteResult deleted = engine.delete(key);
                    record(reference, referenceRevisions, deleted.revision(), "DELETE " + key + " prev=" + values[k]);
                    values[k] = null;
                }
                else
                {
                    final String value = "v" + i;
                    final WriteResult put = engine.put(key, value);
                    record(reference, referenceRevisions, put.revision(), "PUT " + key + "=" + value + " prev=" + values[k]);
                    values[k] = value;
                }
                for (final Probe probe : probes)
                {
                    if (random.nextInt(40) == 0)
                    {
                        probe.watcher.requestProgress();
                    }
                    if (random.nextInt(20) == 0)
                    {
                        probe.poll(1 + random.nextInt(32));
                    }
                }
            }
            final long last = engine.currentRevision();
            for (final Probe probe : probes)
            {
                RecordingListener.await(() ->
                {
                    probe.watcher.requestProgress();
                    probe.poll(256);
                    return probe.progressed >= last;
                }, probe.name + " to progress to " + last);
                probe.check(reference, referenceRevisions, seed, persistent);
            }
        }
    }

    private static void record(final List<String> reference, final List<Long> revisions, final long revision, final String event)
    {
        reference.add(revision + " " + event);
        revisions.add(revision);
    }

    /** One filtered pull watcher, resumed after each cancel, and what it read, stretch by stretch. */
    private static final class Probe implements WatchListener
    {
        private final RingWatch engine;
        private final String name;
        private final Function<WatchRequest, WatchRequest> filters;
        private final java.util.function.Predicate<String> wants;
        private final List<Stretch> stretches = new ArrayList<>();
        private PullWatcher watcher;
        private WatchCancellation cancelled;
        private long progressed;

        Probe(final RingWatch engine, final String name, final Function<WatchRequest, WatchRequest> filters,
            final java.util.function.Predicate<String> wants)
        {
            this.engine = engine;
            this.name = name;
            this.filters = filters;
            this.wants = wants;
            start(1);
        }

        private void start(final long from)
        {
            watcher = engine.watchPull(filters.apply(WatchRequest.of(KeyRange.prefix(PREFIX)).startRevision(from)));
            stretches.add(new Stretch(from));
        }

        void poll(final int max)
        {
            watcher.poll(this, max);
            if (cancelled != null)
            {
                final WatchCancellation c = cancelled;
                cancelled = null;
                assertTrue(c.reason() == CancelReason.REVISION_UNAVAILABLE || c.reason() == CancelReason.LAPPED,
                    name + " cancelled " + c);
                stretches.get(stretches.size() - 1).cancelled = true;
                start(c.compactRevision());
            }
        }

        @Override
        public void onEvents(final EventBatch events)
        {
            final Stretch stretch = stretches.get(stretches.size() - 1);
            for (int i = 0; i < events.size(); i++)
            {
                final WatchEvent e = events.get(i);
                final var event = e.toEvent();
                final String prev = event.prevKv() == null ? "null" : event.prevKv().valueAsString();
                stretch.events.add(event.revision() + " " + (event.type() == EventType.PUT
                    ? "PUT " + event.kv().keyAsString() + "=" + event.kv().valueAsString() + " prev=" + prev
                    : "DELETE " + event.kv().keyAsString() + " prev=" + prev));
            }
        }

        @Override
        public void onProgress(final long revision)
        {
            final Stretch stretch = stretches.get(stretches.size() - 1);
            stretch.progress.add(new long[] {stretch.events.size(), revision});
            progressed = Math.max(progressed, revision);
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
            cancelled = cancellation;
        }

        void check(final List<String> reference, final List<Long> revisions, final long seed, final boolean persistent)
        {
            final String where = name + (persistent ? " (persistent)" : " (in memory)") + ", seed " + seed;
            if (persistent)
            {
                assertEquals(1, stretches.size(), where + ": a persistent engine's watcher is never cancelled");
            }
            for (final Stretch stretch : stretches)
            {
                final List<String> expected = new ArrayList<>();
                final List<Long> expectedRevisions = new ArrayList<>();
                for (int i = 0; i < reference.size(); i++)
                {
                    final String event = reference.get(i).substring(reference.get(i).indexOf(' ') + 1);
                    if (revisions.get(i) >= stretch.from && wants.test(event))
                    {
                        expected.add(prevAsAsked(reference.get(i)));
                        expectedRevisions.add(revisions.get(i));
                    }
                }
                final List<String> got = stretch.events;
                if (stretch.cancelled)
                {
                    assertTrue(got.size() <= expected.size(), where);
                    assertEquals(expected.subList(0, got.size()), got, where + ", cancelled stretch from " + stretch.from);
                }
                else
                {
                    assertEquals(expected, got, where + ", stretch from " + stretch.from);
                }
                for (final long[] mark : stretch.progress)
                {
                    final long at = mark[1];
                    final long owed = expectedRevisions.stream().filter(r -> r <= at).count();
                    if (stretch.cancelled && owed > got.size())
                    {
                        continue;
                    }
                    assertEquals(owed, mark[0], where + ": progress " + at + " after " + mark[0] + " events of the stretch from "
                        + stretch.from + ", which owes " + owed + " by then");
                }
            }
        }

        /** The reference's event with its previous value only where the watcher asked for it. */
        private String prevAsAsked(final String event)
        {
            return name.equals("noPut") ? event.replaceAll(" prev=.*$", " prev=null") : event;
        }
    }

    /** What a watcher read from one start revision on, until a cancel or the end. */
    private static final class Stretch
    {
        private final long from;
        private final List<String> events = new ArrayList<>();
        private final List<long[]> progress = new ArrayList<>();
        private boolean cancelled;

        Stretch(final long from)
        {
            this.from = from;
        }
    }
}
