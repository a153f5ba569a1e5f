package io.ringwatch.server.differential;

import com.google.protobuf.ByteString;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.server.RingWatchServer;
import io.ringwatch.server.ServerOptions;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import io.ringwatch.server.api.etcdserverpb.WatchRequest;
import io.ringwatch.server.kv.EtcdLimits;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Differential test: the same seeded random sequence of etcd requests (see {@link OpGenerator})
 * sent to a throw-away real etcd (the {@code etcd} on the PATH; 3.4 is the reference) and to an
 * in-process RingWatch server, every unary answer compared after {@link Normalise} (errors by gRPC
 * code and message), and each watch's created/cancel answers and events compared whenever the
 * streams have settled (before and after every watch request, and every {@value #SETTLE_EVERY}
 * operations). Skipped, saying so, where etcd is not installed.
 *
 * <p>Worked around, not compared (ARCHITECTURE, Known limits): RingWatch's fresh store is one
 * revision behind etcd's (aligned by a put of a key no request touches); progress requests go only
 * where etcd 3.4 and the 3.5 rule the server keeps agree (a watch on the stream, none compacted, none
 * starting in the future); deletes inside transactions never range from a key on. Not covered:
 * lease expiry and keep-alive (TTLs are long; a TimeToLive's remaining seconds are compared by
 * sign), periodic progress, fragments, sizes near the limits, several clients at once.
 *
 * <p>Default: one seed of {@value #SHORT_OPS} operations. {@code -Dringwatch.long=true}:
 * {@value #LONG_SEEDS} seeds of {@value #LONG_OPS}. {@code -Dringwatch.diff.seed=N} repeats one seed,
 * {@code -Dringwatch.diff.ops=N} sets the length.
 */
class DifferentialTest
{
    private static final int SHORT_OPS = 300;
    private static final int LONG_OPS = 3000;
    private static final int LONG_SEEDS = 6;
    private static final int SETTLE_EVERY = 40;
    private static final long QUIET_MILLIS = 150;
    private static final long CATCH_UP_QUIET_MILLIS = 400;
    private static final int HISTORY = 40;

    @Test
    void sameAnswersAsEtcd() throws Exception
    {
        final Path etcd = EtcdProcess.binary().orElse(null);
        assumeTrue(etcd != null, "etcd is not on the PATH (Debian: apt-get install etcd-server); differential test skipped");
        final boolean longRun = Boolean.getBoolean("ringwatch.long");
        final String fixedSeed = System.getProperty("ringwatch.diff.seed");
        final int ops = Integer.getInteger("ringwatch.diff.ops", longRun ? LONG_OPS : SHORT_OPS);
        final int seeds = fixedSeed != null ? 1 : longRun ? LONG_SEEDS : 1;
        final long firstSeed = fixedSeed != null ? Long.parseLong(fixedSeed) : System.nanoTime();
        for (int i = 0; i < seeds; i++)
        {
            run(etcd, firstSeed + i, ops);
        }
    }

    private static void run(final Path binary, final long seed, final int ops) throws Exception
    {
        System.out.println("differential run: seed " + seed + ", " + ops + " operations (-Dringwatch.diff.seed=" + seed + ")");
        try (EtcdProcess etcd = EtcdProcess.start(binary);
             RingWatch engine = RingWatch.open(EtcdLimits.applyTo(RingWatchConfig.builder().name("diff"))
                 .progressNotifyInterval(Duration.ofMinutes(10)).build());
             RingWatchServer server = RingWatchServer.start(engine, ServerOptions.builder().name("diff")
                 .listenClientUrl(URI.create("http://127.0.0.1:0")).build());
             Side reference = new Side("etcd", etcd.clientPort);
             Side subject = new Side("ringwatch", server.port()))
        {
            awaitLeader(reference, etcd);
            align(reference, subject);
            new Run(seed, reference, subject).go(ops);
        }
    }

    /**
     * A fresh etcd is at revision 1 (its first write makes 2), a fresh RingWatch at 0: puts on
     * RingWatch a key below every key the generator uses (so no range, compare or watch of a run
     * sees it) until both stand at the same revision.
     */
    private static void align(final Side reference, final Side subject)
    {
        final RangeRequest probe = RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("x")).build();
        final long target = reference.call(side -> side.kv().range(probe)).revision();
        while (subject.call(side -> side.kv().range(probe)).revision() < target)
        {
            subject.kv().put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("\u0001align")).build());
        }
    }

    private static void awaitLeader(final Side etcd, final EtcdProcess process) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline)
        {
            if (etcd.call(side -> side.kv().range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("x")).build()))
                .revision() > 0)
            {
                return;
            }
            Thread.sleep(100);
        }
        fail("etcd answered no Range within 30 s: " + process.log());
    }

    /** One seed's run: the operations, the state the generator reads, the comparisons. */
    private static final class Run implements OpGenerator.State
    {
        private final long seed;
        private final Side reference;
        private final Side subject;
        private final OpGenerator generator;
        private final Deque<String> history = new ArrayDeque<>();
        private final Map<Long, Long> startRevisions = new HashMap<>();
        private long revision = 1;
        private long compacted;
        private int index;

        Run(final long seed, final Side reference, final Side subject)
        {
            this.seed = seed;
            this.reference = reference;
            this.subject = subject;
            this.generator = new OpGenerator(seed, this);
        }

        void go(final int ops) throws InterruptedException
        {
            for (index = 0; index < ops; index++)
            {
                final OpGenerator.Op op = generator.next();
                remember(op.describe());
                if (op instanceof OpGenerator.Unary unary)
                {
                    final Side.Answer expected = reference.call(unary.call());
                    final Side.Answer actual = subject.call(unary.call());
                    if (!expected.text().equals(actual.text()))
                    {
                        mismatch(op.describe(), expected.text(), actual.text());
                    }
                    revision = Math.max(revision, expected.revision());
                    if (unary.compacts() > 0 && !expected.text().startsWith("ERROR"))
                    {
                        compacted = Math.max(compacted, unary.compacts());
                    }
                }
                else if (op instanceof OpGenerator.Watch watch)
                {
                    settle();
                    final int before = reference.watchLog.responses();
                    reference.watch(watch.request());
                    subject.watch(watch.request());
                    if (answered(watch.request()))
                    {
                        awaitResponse(before);
                    }
                    final long start = watch.request().getCreateRequest().getStartRevision();
                    // etcd sends a catching-up watch its past events from a loop that runs every 100 ms.
                    settle(start > 0 && start <= revision ? CATCH_UP_QUIET_MILLIS : QUIET_MILLIS);
                }
                if (index % SETTLE_EVERY == SETTLE_EVERY - 1)
                {
                    settle();
                }
            }
            settle();
        }

        /**
         * Whether etcd answers the request: every create and progress request (only sent where
         * etcd 3.4 answers it), and a cancel of a watch the stream holds, compacted ones included.
         */
        private boolean answered(final WatchRequest request)
        {
            if (!request.hasCancelRequest())
            {
                return true;
            }
            final String status = lastStatus(reference.watchLog.perWatch().getOrDefault(request.getCancelRequest().getWatchId(), List.of()));
            return status.startsWith("created") && !status.contains("canceled")
                || status.startsWith("canceled") && !status.contains("compact_revision=0 ");
        }

        /** etcd may take longer than the quiet period to answer (a cancel waits for its victims). */
        private void awaitResponse(final int before) throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (reference.watchLog.responses() == before && System.nanoTime() < deadline)
            {
                Thread.sleep(2);
            }
        }

        private void remember(final String op)
        {
            history.addLast("#" + index + " " + op);
            if (history.size() > HISTORY)
            {
                history.removeFirst();
            }
        }

        private void settle() throws InterruptedException
        {
            settle(QUIET_MILLIS);
        }

        /**
         * Waits until etcd's stream has been quiet for {@code quietMillis} and RingWatch's holds
         * as many lines for every watch, then compares them.
         */
        private void settle(final long quietMillis) throws InterruptedException
        {
            final long quiet = TimeUnit.MILLISECONDS.toNanos(quietMillis);
            Thread.sleep(quietMillis);
            while (System.nanoTime() - reference.watchLog.lastArrivalNanos() < quiet)
            {
                Thread.sleep(10);
            }
            final Map<Long, List<String>> expected = reference.watchLog.perWatch();
            final List<String> expectedProgress = reference.watchLog.progress();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < deadline && !caughtUp(expected, expectedProgress))
            {
                Thread.sleep(5);
            }
            final Map<Long, List<String>> actual = subject.watchLog.perWatch();
            if (!expected.equals(actual))
            {
                mismatch("(watch streams settled)", render(expected) + "\n  ended: " + reference.watchLog.ended(),
                    render(actual) + "\n  ended: " + subject.watchLog.ended());
            }
            if (!expectedProgress.equals(subject.watchLog.progress()))
            {
                mismatch("(progress answers)", expectedProgress.toString(), subject.watchLog.progress().toString());
            }
        }

        private boolean caughtUp(final Map<Long, List<String>> expected, final List<String> expectedProgress)
        {
            final Map<Long, List<String>> actual = subject.watchLog.perWatch();
            for (final Map.Entry<Long, List<String>> watch : expected.entrySet())
            {
                if (actual.getOrDefault(watch.getKey(), List.of()).size() < watch.getValue().size())
                {
                    return false;
                }
            }
            return subject.watchLog.progress().size() >= expectedProgress.size();
        }

        private static String render(final Map<Long, List<String>> perWatch)
        {
            final StringBuilder text = new StringBuilder();
            perWatch.forEach((id, lines) -> {
                text.append("\n  watch ").append(id).append(':');
                final int from = Math.max(0, lines.size() - 12);
                if (from > 0)
                {
                    text.append(" (").append(from).append(" earlier lines)");
                }
                lines.subList(from, lines.size()).forEach(line -> text.append("\n    ").append(line));
            });
            return text.toString();
        }

        private void mismatch(final String op, final String expected, final String actual)
        {
            fail("etcd and RingWatch differ: seed " + seed + " (-Dringwatch.diff.seed=" + seed + "), operation #" + index
                + ": " + op + "\nlast operations:\n  " + String.join("\n  ", history)
                + "\netcd:      " + expected + "\nringwatch: " + actual);
        }

        @Override
        public long revision()
        {
            return revision;
        }

        @Override
        public long compacted()
        {
            return compacted;
        }

        @Override
        public boolean progressComparable()
        {
            boolean anyActive = false;
            for (final Map.Entry<Long, List<String>> watch : reference.watchLog.perWatch().entrySet())
            {
                final String status = lastStatus(watch.getValue());
                if (status.startsWith("created") && !status.contains("canceled"))
                {
                    anyActive = true;
                    if (startRevisions.getOrDefault(watch.getKey(), 0L) > revision)
                    {
                        return false;
                    }
                }
                else if (status.startsWith("canceled") && !status.contains("compact_revision=0 "))
                {
                    return false;
                }
            }
            return anyActive;
        }

        private static String lastStatus(final List<String> lines)
        {
            for (int i = lines.size() - 1; i >= 0; i--)
            {
                if (lines.get(i).startsWith("created") || lines.get(i).startsWith("canceled"))
                {
                    return lines.get(i);
                }
            }
            return "";
        }

        @Override
        public void created(final long watchId, final long startRevision)
        {
            startRevisions.put(watchId, startRevision);
        }
    }
}
